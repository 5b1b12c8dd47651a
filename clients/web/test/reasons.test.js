// A hint's reasons in words (static/js/reasons.js with each game's reasonItem): the line
// with who plays each step ("you" and P1..Pn), a sentence per reason, and the beliefs as a
// table of the other players and nobody, in English and French.
import assert from "node:assert/strict";
import { test } from "node:test";

import makeCitadels from "../static/js/games/citadels.js";
import makeRoyalCities from "../static/js/games/royal_cities.js";
import { inLanguage } from "./language.js";
import { beliefTable, lineWords, reasonWords } from "../static/js/reasons.js";

const card = (name, copies, attributes) => ({ name, copies, attributes });
// The page's defaults (js/games/index.js) that the wording reads: the observer, the players.
const withDefaults = (game) => ({
  observer: (position) => position.observer || 0,
  numPlayers: (position) => position.num_players || position.players.length,
  ...game,
});
const ROYAL_CITIES = withDefaults(
  makeRoyalCities({
    cards: [card("red-2", 2, { colour: "red", value: "2", effect: "Knight" }), card("blue-4", 2, { colour: "blue", value: "4", effect: "Cardinal" })],
    rules_options: [],
  }),
);
const CITADELS = withDefaults(makeCitadels({ cards: [card("castle", 4, { colour: "noble", cost: "4" })], rules_options: [] }));
// Proto JSON leaves player 0 and zero values out, as the gateway sends them.
const rcPosition = { players: [{}, {}], decision: { phase: "ROYAL_CITIES_PHASE_TURN" } };
const citadelsPosition = { observer: 2, players: [{}, {}, {}, {}] };


test("the line: each step's player and move, up to where no world follows it", () => {
  const steps = [{ move: "buy red-2" }, { player: 1, move: "(hidden)", hidden: true }, { move: "add" }, { player: -1, move: "add" }];
  inLanguage("en", () => assert.equal(lineWords(steps, ROYAL_CITIES, rcPosition), "you: Buy Red 2, then P2: a secret choice, then you: Add a card to the Market"));
  inLanguage("fr", () => assert.match(lineWords(steps, ROYAL_CITIES, rcPosition), /^vous : .+, puis J2 : un choix secret, puis vous : /));
  assert.equal(lineWords([], ROYAL_CITIES, rcPosition), "");
  const citadels = [{ player: 2, move: "pick king" }, { move: "pick thief" }];
  inLanguage("en", () => assert.equal(lineWords(citadels, CITADELS, citadelsPosition), "you: Pick the King, then P1: Pick the Thief"));
});

test("Royal Cities' reasons: the score expected, the majorities kept", () => {
  inLanguage("en", () => {
    assert.equal(reasonWords({ kind: "expects", item: "VP", value: 22.6 }, ROYAL_CITIES, rcPosition), "You expect 23 VP at the end");
    assert.equal(reasonWords({ kind: "secures", item: "red", value: 0.859 }, ROYAL_CITIES, rcPosition), "You keep the majority in red (86% of the worlds)");
    assert.equal(reasonWords({ kind: "frobnicates", item: "x" }, ROYAL_CITIES, rcPosition), null);
  });
  inLanguage("fr", () => {
    assert.equal(reasonWords({ kind: "expects", item: "VP", value: 22.6 }, ROYAL_CITIES, rcPosition), "Vous pouvez espérer 23 PV à la fin");
    assert.equal(reasonWords({ kind: "secures", item: "red", value: 1 }, ROYAL_CITIES, rcPosition), "Vous gardez la majorité en rouge (100 % des mondes)");
  });
});

test("Citadels' reasons: the character feared and its likeliest holder", () => {
  const fears = { kind: "fears", player: 3, item: "assassin", value: 0.41 };
  inLanguage("en", () => {
    assert.equal(reasonWords(fears, CITADELS, citadelsPosition), "You fear the Assassin, most likely with P4 (41%)");
    assert.equal(reasonWords({ kind: "expects", player: 2, item: "points", value: 17.2 }, CITADELS, citadelsPosition), "You expect 17 points at the end");
    assert.equal(reasonWords({ ...fears, player: undefined }, CITADELS, citadelsPosition), "You fear the Assassin, most likely with P1 (41%)");
  });
  inLanguage("fr", () => assert.equal(reasonWords(fears, CITADELS, citadelsPosition), "Vous craignez l'Assassin, le plus probablement chez J4 (41 %)"));
});

test("the beliefs: a row per character given, a column per other player and nobody", () => {
  const beliefs = [
    { item: "assassin", chance: 0.5 },
    { player: 3, item: "assassin", chance: 0.25 },
    { player: -1, item: "assassin", chance: 0.25 },
    { player: 1, item: "warlord", chance: 1 },
  ];
  inLanguage("en", () => {
    const table = beliefTable(beliefs, CITADELS, citadelsPosition);
    assert.deepEqual(table.columns, ["P1", "P2", "P4", "nobody"], "the observer (P3) has no column");
    assert.deepEqual(table.rows, [
      { item: "assassin", name: "Assassin", cells: ["50%", "0%", "25%", "25%"] },
      { item: "warlord", name: "Warlord", cells: ["0%", "100%", "0%", "0%"] },
    ]);
  });
  inLanguage("fr", () => {
    const table = beliefTable(beliefs, CITADELS, citadelsPosition);
    assert.deepEqual(table.columns, ["J1", "J2", "J4", "personne"]);
    assert.deepEqual(table.rows[0].cells, ["50 %", "0 %", "25 %", "25 %"]);
    assert.equal(table.rows[1].name, "Condottiere");
  });
});
