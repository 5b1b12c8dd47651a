// A game started at the deal (static/js/deal.js, with each game's dealPlaces): the seeded
// cards of the places the player sees taken off, and the lines that ask for the table's own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clearDeal, dealEntered, dealProgress } from "../static/js/deal.js";
import { t } from "../static/js/i18n.js";
import makeCitadels from "../static/js/games/citadels.js";
import makeRoyalCities from "../static/js/games/royal_cities.js";

const royalCities = makeRoyalCities({ cards: [] });
const citadels = makeCitadels({ cards: [] });

const card = (colour, value) => ({ colour: `ROYAL_CITIES_COLOUR_${colour}`, value });
// Royal Cities, 2 players, seat P2, as the engine deals it (a seed whose Market setup
// discarded a card).
const ROYAL_CITIES = {
  observer: 1,
  num_players: 2,
  players: [{ hand_size: 3 }, { hand_size: 3, hand: [card("YELLOW", 2), card("PINK", 3), card("RED", 0)] }],
  market: [card("PURPLE", 2), card("PINK", 4), card("RED", 1), card("WHITE", 5)],
  discard: [card("PURPLE", 4)],
  decision: { phase: "ROYAL_CITIES_PHASE_PASS", player: 0 },
};

test("Royal Cities' deal: the hand and the Market by count, the discard pile as it comes", () => {
  const { position, steps } = clearDeal(royalCities.dealPlaces, ROYAL_CITIES);
  assert.deepEqual(steps, [{ key: "hand", want: 3 }, { key: "market", want: 4 }, { key: "discard", want: null }]);
  assert.deepEqual(position.players[1].hand, []);
  assert.deepEqual(position.market, []);
  assert.deepEqual(position.discard, []);
  assert.equal(ROYAL_CITIES.market.length, 4, "the engine's deal is left as it was");
  assert.deepEqual(position.decision, ROYAL_CITIES.decision);
  assert.equal(dealEntered(royalCities.dealPlaces, steps, position), false);
  const lines = dealProgress(royalCities.dealPlaces, steps, position);
  assert.equal(lines[0].text, "Your hand: tap the cards you were dealt (0 of 3).");
  assert.equal(lines[2].done, true, "a discard pile may stay empty");
  assert.equal(dealEntered(royalCities.dealPlaces, steps, ROYAL_CITIES), true);
});

test("Royal Cities' solo deal asks for the Regent's cards too", () => {
  const solo = { ...ROYAL_CITIES, observer: 0, num_players: 1, players: [ROYAL_CITIES.players[1]],
    regent: { cities: [{}, { cards: [card("BLUE", 1)] }, { cards: [card("GREEN", 2)] }] } };
  const { position, steps } = clearDeal(royalCities.dealPlaces, solo);
  assert.deepEqual(steps.map((s) => s.key), ["hand", "market", "discard", "regent"]);
  assert.deepEqual(position.regent.cities.flatMap((c) => c.cards), []);
  assert.equal(dealProgress(royalCities.dealPlaces, steps, solo)[3].have, 2);
});

test("Citadels' deal: the hand, the face-up characters and those shown at your first pick", () => {
  const dealt = {
    observer: 0,
    players: [{ gold: 2, hand_size: 4, hand: ["CITADELS_DISTRICT_MANOR", "CITADELS_DISTRICT_TEMPLE", "CITADELS_DISTRICT_TAVERN", "CITADELS_DISTRICT_PALACE"] }, { gold: 2, hand_size: 4 }],
    draft: { face_up: ["CITADELS_CHARACTER_THIEF", "CITADELS_CHARACTER_BISHOP"], shown: [{ characters: ["CITADELS_CHARACTER_KING"] }] },
  };
  const { position, steps } = clearDeal(citadels.dealPlaces, dealt);
  assert.deepEqual(steps, [{ key: "hand", want: 4 }, { key: "face_up", want: 2 }, { key: "shown", want: 1 }]);
  assert.deepEqual(position.draft, { face_up: [], shown: [] });
  position.draft.face_up.push("CITADELS_CHARACTER_THIEF");
  const lines = dealProgress(citadels.dealPlaces, steps, position);
  assert.deepEqual(lines.map((l) => l.have), [0, 1, 0]);
  // A seat that does not pick first is shown nothing yet, and 2-3 players have no face-up.
  const later = clearDeal(citadels.dealPlaces, { ...dealt, observer: 1, players: [dealt.players[1], dealt.players[0]], draft: {} });
  assert.deepEqual(later.steps, [{ key: "hand", want: 4 }]);
});

test("the first screen has one line of help per step, and says who P1 is in each game", () => {
  for (const key of ["game", "players", "seat", "deal"]) assert.ok(t(`start.help.${key}`).length > 10, key);
  assert.match(citadels.firstPlayer(), /crown/);
  assert.match(royalCities.firstPlayer(), /P1/);
});

test("a game without dealPlaces has no places to ask for", () => {
  const { position, steps } = clearDeal([], { players: [{ hand: ["a"] }] });
  assert.deepEqual(steps, []);
  assert.deepEqual(position.players[0].hand, ["a"]);
  assert.equal(dealEntered([], steps, position), true);
});
