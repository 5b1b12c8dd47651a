// A refusal's words (static/js/refusal.js): the service's template translated by the
// catalogues, its seats counted from 1, its cards and moves in the game's words; a template
// the catalogues do not know gives null (the page then shows the service's English).
import assert from "node:assert/strict";
import { test } from "node:test";

import makeRoyalCities from "../static/js/games/royal_cities.js";
import { inLanguage } from "./language.js";
import { paramWords, refusalKey, refusalWords } from "../static/js/refusal.js";

const card = (name, copies, attributes) => ({ name, copies, attributes });
const GAME = {
  id: "royal_cities",
  ...makeRoyalCities({ cards: [card("red-2", 2, { colour: "red", value: "2", effect: "Knight" })], rules_options: [] }),
};
const POSITION = { observer: 0, players: [{}, {}], decision: { phase: "ROYAL_CITIES_PHASE_TURN", player: 0 } };


test("a template in English and French, its seat counted from 1", () => {
  const wording = { template: "{player} cannot make this move now", params: { player: "2" } };
  inLanguage("en", () => assert.equal(refusalWords(wording, GAME, POSITION), "P3 cannot make this move now"));
  inLanguage("fr", () => assert.equal(refusalWords(wording, GAME, POSITION), "J3 ne peut pas jouer ce coup maintenant"));
});

test("cards and moves in the game's words", () => {
  inLanguage("en", () => {
    assert.equal(paramWords("card", "red-2", GAME, POSITION), "Red 2");
    assert.equal(paramWords("owner_card", "red-2", GAME, POSITION), "Red 2");
    assert.equal(paramWords("move", "buy red-2", GAME, POSITION), "Buy Red 2");
    assert.equal(paramWords("count", "3", GAME, POSITION), "3");
    assert.equal(paramWords("game", "royal_cities", GAME, POSITION), "Royal Cities");
  });
});

test("an unknown template, or none, is not worded", () => {
  assert.equal(refusalKey("no such template"), null);
  assert.equal(refusalWords({ template: "no such template", params: {} }, GAME, POSITION), null);
  assert.equal(refusalWords(null, GAME, POSITION), null);
});

test("a refusal around another words both, from the same parameters", () => {
  const wording = {
    template: "{spec}'s {part}: {reason}",
    params: { spec: "level:3", part: "seconds", reason: "{value} exceeds the server's limit of {limit} s", value: "90", limit: "60" },
  };
  inLanguage("en", () => assert.equal(refusalWords(wording), "seconds of level:3: 90 s is more than this server allows (60 s)"));
  inLanguage("fr", () => assert.equal(refusalWords(wording), "seconds de level:3 : 90 s dépasse ce que ce serveur permet (60 s)"));
});
