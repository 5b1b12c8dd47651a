// The game in progress as data (static/js/history.js): the log, what Put back keeps, the
// saved game file and the state kept in the browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  backTo,
  decisionsOf,
  discardQuestion,
  FILE_FORMAT,
  gameFile,
  GameFileError,
  putBack,
  readGameFile,
  setAside,
  snapshot,
  storedState,
  summary,
} from "../static/js/history.js";

const position = (round) => ({ citadels: { observer: 1, round } });
const step = (round, mine, move) => ({ observation: position(round), game: "citadels", text: `step ${round}`, mine, move });
// Four steps: P1's, yours, P3's, yours; the position after them.
const LOG = [step(1, false, "pick ?"), step(2, true, "pick king"), step(3, false, "pick ?"), step(4, true, "gold")];
const STATE = { game: "citadels", observation: position(5), budget: 1, log: LOG };

test("back to a step: the position before it, the steps before it, the steps it drops", () => {
  const back = backTo(LOG, 1);
  assert.deepEqual(back.observation, position(2));
  assert.deepEqual(back.log, LOG.slice(0, 1));
  assert.deepEqual(back.later, LOG.slice(1));
  assert.equal(backTo(LOG, 0).log.length, 0);
});

test("a snapshot is a copy: later edits of the state do not reach it", () => {
  const state = JSON.parse(JSON.stringify(STATE));
  const kept = snapshot(state);
  state.observation.citadels.round = 99;
  state.log.pop();
  assert.equal(kept.observation.citadels.round, 5);
  assert.equal(kept.log.length, 4);
  assert.equal(kept.deal, null);
});

test("steps taken back one after another are put back together, the review's decisions too", () => {
  let aside = setAside(null, snapshot(STATE), true, 3); // Undo: step 4 (yours) taken back
  aside = setAside(aside, snapshot({ ...STATE, log: LOG.slice(0, 3) }), true, 1); // Back to step 2
  assert.equal(aside.state.log.length, 4, "the first state is kept");
  const { state, again } = putBack(aside);
  assert.deepEqual(state.observation, position(5));
  assert.deepEqual(again.map((s) => s.move), ["pick king", "gold"]);
});

test("a reset is put back as it was, the review untouched", () => {
  let aside = setAside(null, snapshot(STATE), true, 2); // a step taken back ...
  aside = setAside(aside, snapshot(STATE), false); // ... then a new game: it replaces it
  assert.equal(aside.forgot, false);
  assert.deepEqual(putBack(aside).again, []);
});

test("the observer's decisions are the Review's (regent review --save-game) format", () => {
  const decisions = decisionsOf(LOG);
  assert.deepEqual(decisions.observations, [position(2), position(4)]);
  assert.deepEqual(decisions.moves, [{ text: "pick king" }, { text: "gold" }]);
  // A step entered before the page kept its move's text is left out.
  assert.deepEqual(decisionsOf([{ ...LOG[1], move: undefined }]).moves, []);
});

test("a saved game opens as it was saved", () => {
  const file = JSON.parse(JSON.stringify(gameFile(STATE)));
  assert.equal(file.format, FILE_FORMAT);
  assert.equal(file.moves.length, file.observations.length);
  const opened = readGameFile(file, ["royal_cities", "citadels"]);
  assert.deepEqual(opened, { game: "citadels", observation: STATE.observation, log: LOG });
  // A file with a position and no log: a position to start from.
  assert.deepEqual(readGameFile({ position: position(1) }, ["citadels"]).log, []);
});

test("a file that is no saved game says why", () => {
  const refused = (data, words) => assert.throws(() => readGameFile(data, ["citadels"]), (err) => err instanceof GameFileError && err.message.includes(words));
  refused([], "JSON object");
  refused({ observations: [], moves: [] }, "Review panel");
  refused({ moves: [] }, "no position");
  refused({ position: { chess: {} } }, "expected one of citadels");
  refused({ position: position(1), log: {} }, "list of steps");
  refused({ position: position(1), log: [{ text: "x", game: "citadels", observation: {} }] }, "log[0]");
});

test("the state kept in the browser: read back, or null when damaged or of no known game", () => {
  const ids = ["royal_cities", "citadels"];
  assert.deepEqual(storedState(JSON.stringify(STATE), ids), STATE);
  assert.deepEqual(storedState(JSON.stringify({ ...STATE, log: undefined }), ids).log, []);
  assert.equal(storedState(null, ids), null);
  assert.equal(storedState("{not json", ids), null);
  assert.equal(storedState(JSON.stringify({ ...STATE, game: "chess" }), ids), null);
  assert.equal(storedState(JSON.stringify({ ...STATE, observation: position(1).x }), ids), null);
});

test("a game and its question in words: seats counted from 1", () => {
  assert.equal(summary({ title: "Citadels", players: 4, seat: 1, steps: 12 }), "Citadels, 4 players, you are P2, 12 steps entered");
  assert.equal(summary({ title: "Royal Cities", players: 1, seat: 0, steps: 1 }), "Royal Cities, solo, you are P1, 1 step entered");
  assert.match(discardQuestion("A new game", 36), /^A new game leaves this game and the 36 steps entered in it\./);
  assert.match(discardQuestion("Replaying this position", 1), /the step entered in it/);
});
