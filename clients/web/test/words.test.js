// The move wording of each game's page module (static/js/games/*.js): the engine's move
// texts and error paths in words, players counted from 1 and the observer "you", from a
// card table as the service describes it (GameInfo: names, copies, attributes as text).
import assert from "node:assert/strict";
import { test } from "node:test";

import makeCitadels from "../static/js/games/citadels.js";
import makeRoyalCities from "../static/js/games/royal_cities.js";

const card = (name, copies, attributes) => ({ name, copies, attributes });
const ROYAL_CITIES = makeRoyalCities({
  cards: [
    card("red-2", 2, { colour: "red", value: "2", effect: "Knight" }),
    card("blue-4", 2, { colour: "blue", value: "4", effect: "Cardinal" }),
    card("white-3", 2, { colour: "white", value: "3", effect: "Explorer" }),
  ],
  rules_options: [],
});
const CITADELS = makeCitadels({
  cards: [card("castle", 4, { colour: "noble", cost: "4" }), card("haunted-quarter", 1, { colour: "unique", cost: "2" })],
  rules_options: [],
});
const rcPosition = { observer: 1, players: [{}, {}], decision: { phase: "ROYAL_CITIES_PHASE_TURN", player: 1 } };
const citadelsPosition = { observer: 1, players: [{}, {}, {}] };

test("Royal Cities' moves in words", () => {
  const words = (text) => ROYAL_CITIES.describeMove(text, rcPosition);
  assert.equal(words("buy red-2"), "Buy Red 2");
  assert.equal(words("add"), "Add a card to the Market");
  assert.equal(words("build white-3 red"), "Build White 3 in your Red City");
  assert.equal(words("target p0 red"), "The top card of P1's Red City");
  assert.equal(words("frobnicate x"), "frobnicate x", "an unknown move as it is");
  // Another player's move names its own hand and cities as theirs, not the observer's.
  assert.equal(ROYAL_CITIES.describeMove("build white-3 red", rcPosition, 0), "Build White 3 in their Red City");
  const theirTurn = { ...rcPosition, decision: { ...rcPosition.decision, player: 0 } };
  assert.equal(ROYAL_CITIES.describeMove("play city blue", theirTurn), "Play the top card of their Blue City");
  assert.equal(ROYAL_CITIES.describeMove("play hand red-2", theirTurn), "Play Red 2 from their hand (Jester)");
});

test("Citadels' moves in words", () => {
  const words = (text) => CITADELS.describeMove(text, citadelsPosition);
  assert.equal(words("pick king"), "Pick the King");
  assert.equal(words("build castle"), "Build Castle (4 gold)");
  assert.equal(words("build haunted-quarter"), "Build Haunted Quarter (2 gold)");
  assert.equal(words("swap p2"), "Swap hands with P3");
  assert.equal(words("destroy p0 castle"), "Destroy P1's Castle");
  assert.equal(words("end"), "End the turn");
});

test("error paths in words, players counted from 1", () => {
  assert.equal(ROYAL_CITIES.describeField("observation.royal_cities.players[1].hand[0]"), "P2's hand, card 1");
  assert.equal(ROYAL_CITIES.describeField("market[2]"), "the Market, card 3");
  assert.equal(CITADELS.describeField("observation.citadels.players[0].gold"), "P1's gold");
  assert.equal(CITADELS.describeField("draft.shown[0]"), "the characters shown at your pick 1");
});
