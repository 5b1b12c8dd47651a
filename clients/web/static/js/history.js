// The game in progress as data: the position, the log of entered steps (each with the
// position before it), what the page keeps in the browser, and the file Save game writes
// and Open game reads. Pure functions, no DOM: clients/web/test/ runs them in Node.
//
// The state: {game, observation: {game: position}, budget, log: [step]}, where a step is
// {observation, game, text, mine, move}: the position before it, its words, whether the
// observer played it, and the move's text.
//
// A saved game file is the Review's own format, grown: `observations` and `moves` are the
// observer's decisions as `regent review --save-game` writes them (so the Review panel
// imports a saved game as it is), and `format`, `game`, `position` and `log` restore the
// game in progress.

import { plural, seat, t } from "./i18n.js";

export const FILE_FORMAT = "regent.game.v1";

export class GameFileError extends Error {}

// The steps of `log` before step `index`, the position before it, and the steps it drops.
export function backTo(log, index) {
  const step = log[index];
  return { game: step.game, observation: step.observation, log: log.slice(0, index), later: log.slice(index) };
}

// A deep copy of what a reset replaces (the position, the log, the deal being entered), to
// put back.
export const snapshot = (state) => JSON.parse(JSON.stringify({ game: state.game, observation: state.observation, log: state.log || [], deal: state.deal || null }));

// What Put back keeps after a reset or a step taken back, given what it kept (`aside`, or
// null): {state: `before`, forgot, kept}, where `forgot` says the review forgot the decisions
// of the steps past the first `kept`. Steps taken back one after another keep the first
// state (Put back returns to it) and the fewest steps kept.
export function setAside(aside, before, forgot, kept = 0) {
  if (forgot && aside && aside.forgot) return { ...aside, kept: Math.min(aside.kept, kept) };
  return { state: before, forgot, kept };
}

// What putting `aside` back restores: the state, and the steps whose decisions the review
// records again (the observer's, among those it forgot).
export function putBack(aside) {
  const again = aside.forgot ? aside.state.log.slice(aside.kept).filter((s) => s.mine && s.move) : [];
  return { state: aside.state, again };
}

// The observer's decisions in a log: the position before each move it played, and the move
// (steps entered before the page kept the move's text have none and are left out).
export function decisionsOf(log) {
  const mine = (log || []).filter((s) => s.mine && s.move);
  return { observations: mine.map((s) => s.observation), moves: mine.map((s) => ({ text: s.move })) };
}

// The file Save game writes.
export function gameFile(state) {
  const log = state.log || [];
  return { format: FILE_FORMAT, game: state.game, position: state.observation, log, ...decisionsOf(log) };
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// What Open game makes of a file's JSON: {game, observation, log}, for a game of `gameIds`;
// GameFileError says what is wrong (a review-only file, from `regent review --save-game`,
// belongs to the Review panel).
export function readGameFile(data, gameIds) {
  if (!isObject(data)) throw new GameFileError(t("file.not_object"));
  if (!isObject(data.position)) {
    if (Array.isArray(data.observations)) throw new GameFileError(t("file.review_only"));
    throw new GameFileError(t("file.no_position"));
  }
  const game = Object.keys(data.position).find((id) => gameIds.includes(id));
  if (!game) throw new GameFileError(t("file.no_game", { games: gameIds.join(", ") }));
  const log = data.log === undefined ? [] : data.log;
  if (!Array.isArray(log)) throw new GameFileError(t("file.log_list"));
  log.forEach((step, i) => {
    const ok = isObject(step) && typeof step.text === "string" && isObject(step.observation) && isObject(step.observation[step.game]);
    if (!ok) throw new GameFileError(t("file.bad_step", { i }));
  });
  return { game, observation: { [game]: data.position[game] }, log };
}

// The state kept in the browser (`text`, localStorage's), or null when there is none or it
// is damaged or of no game of `gameIds`.
export function storedState(text, gameIds) {
  let saved;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(saved) || !gameIds.includes(saved.game) || !isObject(saved.observation) || !saved.observation[saved.game]) return null;
  return { ...saved, log: Array.isArray(saved.log) ? saved.log : [] };
}

// One line on a game: "<title>, 4 players, you are P2, 12 steps entered".
export function summary({ title, players, seat: you, steps }) {
  const table = players === 1 ? t("summary.solo") : plural("summary.players", players);
  return t("summary", { title, table, seat: seat(you), steps: plural("summary.steps", steps) });
}

// The question before an action (`action`, e.g. "A new game") that discards `steps` steps.
export function discardQuestion(action, steps) {
  return plural("discard.question", steps, { action });
}
