// The hint page: the position (saved in the browser, so a reload keeps it), the engine's
// verdict on it, the hint with its alternatives, and "I played it". The games and their
// facts come from the service (GET /api/games), once, before the first render. Nothing
// entered is lost without asking: a reset asks first (js/confirm.js) and can be put back, a
// step taken back too; a game is saved to a file and opened from one (js/history.js).
import { analyze, applyObservedMove, deal, legalMoves, listGames, readObservation } from "./api.js";
import { ask } from "./confirm.js";
import { clearDeal, dealEntered, dealProgress } from "./deal.js";
import { isCardSlot, logList, moveButtons, SECRET_CHOICE, slotAnswers } from "./follow.js";
import { loadGames } from "./games/index.js";
import {
  backTo as stepsBefore,
  decisionsOf,
  discardQuestion,
  gameFile,
  GameFileError,
  putBack,
  readGameFile,
  setAside,
  snapshot,
  storedState,
  summary,
} from "./history.js";
import { reasonsView } from "./reasons.js";
import { refusalWords } from "./refusal.js";
import { forgetDecisionsFrom, initReview, recordDecision, reviewedGame, setDecisions } from "./review.js";
import { askStart } from "./start.js";
import { language, LANGUAGES, number, onLanguage, plural, seat, setLanguage, t, translateStatic } from "./i18n.js";
import { el, setBar } from "./ui.js";

const STORE = "regent.hint.v1";
const BUDGETS = [
  { name: "fast", iterations: 1500 },
  { name: "normal", iterations: 6000 },
  { name: "deep", iterations: 25000 },
];
const LANGUAGE_BUTTONS = "[data-lang]";
const $ = (id) => document.getElementById(id);

let GAMES = []; // what js/games/index.js makes of the service's list
let state = null;
let search = null; // the AbortController of the running Analyze
let checking = 0; // the latest legal-moves request; older answers are ignored
let checkTimer = null;
let renders = 0; // positions drawn so far: #legal's data-rendered, and data-checked once asked
let lookedAt = null; // the position whose lone secret choice was looked at (askSecretAtOnce)
// What the last reset or step taken back replaced, to put back until a new step is entered:
// {state: snapshot, forgot: the review forgot its decisions past `kept` steps, review: the
// game the review had before an Open game replaced it}.
let aside = null;
let drawnAs = ""; // the position drawn last, as JSON: an edit is a change from it

// The game kept in this browser, or null on a first visit (or a damaged entry).
const load = () => storedState(localStorage.getItem(STORE), GAMES.map((g) => g.id));

// A new position of `game` with its second smallest player count (the smallest is often
// a solo mode or a thin table).
function fresh(game, budget = 1) {
  const counts = game.playerCounts;
  const numPlayers = counts[Math.min(1, counts.length - 1)];
  return { game: game.id, observation: { [game.id]: game.blank(numPlayers) }, budget, log: [] };
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(state));
}

const gameById = (id) => GAMES.find((g) => g.id === id) || null;
const game = () => gameById(state.game);
const position = () => state.observation[state.game];

// -- the position ------------------------------------------------------------------------

function render() {
  const current = game();
  $("game").replaceChildren(...GAMES.map((g) => el("option", { value: g.id, selected: g.id === current.id }, g.title)));
  $("players").replaceChildren(
    ...current.playerCounts.map((n) =>
      el("option", { value: n, selected: n === current.numPlayers(position()) }, n === 1 ? t("players.solo") : n),
    ),
  );
  $("budget").value = state.budget;
  current.renderSetup($("setup"), position(), changed);
  drawnAs = JSON.stringify(position());
  renderLog();
  renderDeal();
  $("legal").dataset.rendered = ++renders; // check() marks the version it answered
  scheduleCheck();
}

function changed(updated) {
  if (JSON.stringify(updated) === drawnAs) {
    render(); // a redraw (a place chosen for the cards), no edit: the log stays
    return;
  }
  if ((state.log || []).length) {
    // a position edited by hand starts a new log: the old one can be put back
    keepAside(false, { ...snapshot(state), observation: { [state.game]: JSON.parse(drawnAs) } });
    notice(() => plural("notice.edited", aside.state.log.length), true);
  }
  state.log = [];
  state.observation = { [state.game]: updated };
  save();
  clearAdvice();
  render();
}

function replacePosition(observation, gameId, log = [], dealt = null) {
  state.log = log;
  state.game = gameId;
  state.observation = observation;
  lookedAt = null; // a position taken back and come to again is asked again
  state.deal = dealt;
  save();
  clearAdvice();
  render();
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 120);
}

// Ask the engine whether the position can happen, and what the player to act may do.
async function check() {
  const ticket = ++checking;
  const version = renders;
  try {
    const answer = await legalMoves(state.observation);
    if (ticket !== checking) return;
    showProblem(null);
    const moves = answer.moves || [];
    const current = game();
    const mine = current.toAct(position()) === current.observer(position());
    $("legal").textContent = moves.length
      ? moves.map((m) => current.describeMove(m.text, position())).join(" · ")
      : answer.player === undefined
        ? t("legal.over")
        : t("legal.other_to_act", { who: seat(answer.player) });
    $("hint").disabled = !mine || !moves.length;
    $("other-moves").replaceChildren(
      ...moves.map((m) => el("option", { value: m.text }, current.describeMove(m.text, position()))),
    );
    $("other-move").classList.toggle("hidden", !moves.length);
    showFollow(answer);
    $("legal").dataset.checked = version; // the moves shown are the latest position's
  } catch (err) {
    if (ticket !== checking) return;
    const dealing = enteringDeal() && err.status === 400; // not wrong: not entered yet
    showProblem(dealing ? null : err);
    $("legal").textContent = dealing ? t("legal.none_deal") : t("legal.none_fix");
    $("hint").disabled = true;
    $("other-move").classList.add("hidden");
    $("follow").classList.add("hidden");
    $("legal").dataset.checked = version;
  }
}

// What is wrong and where, in words: the service's message and each field it blamed, in the
// page's language (js/refusal.js), or, for a refusal the catalogues cannot word, in the
// engine's own words, in English, marked as such: lang="en".
function showProblem(err) {
  const box = $("problem");
  if (!err) {
    box.classList.add("hidden");
    box.replaceChildren();
    return;
  }
  const describe = state ? game().describeField : (field) => field;
  const words = (wording, english) => refusalWords(wording, state ? game() : null, state ? position() : null) || engineText(english);
  const fields = (err.fields || []).map((f) =>
    el("li", {}, el("strong", {}, describe(f.field)), ": ", words(f, f.description), el("span", { class: "muted" }, " (", engineText(f.field), ")")),
  );
  box.replaceChildren(
    el("strong", {}, err.status === 400 ? t("problem.impossible") : t("problem.wrong")),
    " ",
    fields.length ? "" : err.words || words(err.wording, err.message),
    fields.length ? el("ul", {}, ...fields) : null,
  );
  box.classList.remove("hidden");
}

// Text from the service or the engine as it came, in its language (English).
const engineText = (text) => el("span", { lang: "en", class: "engine-text" }, text);

// The notice drawn last, to draw again in another language: [words(), offer].
let noticed = [() => "", false];

// A line on what just happened (`words`, a function that words it: the notice is worded
// again when the language changes); with `offer`, a button that puts back what was set aside.
function notice(words, offer = false) {
  noticed = [words, offer];
  const box = $("notice");
  const text = words();
  box.replaceChildren(text);
  if (offer && aside) {
    const button = el("button", { type: "button", id: "put-back" }, t("notice.put_back"));
    button.onclick = restoreAside;
    box.append(" ", button);
  }
  box.classList.toggle("hidden", !text);
}

// -- nothing lost -------------------------------------------------------------------------

// Keep what a reset or a step taken back replaces (`before`, the state now by default), to
// put back (js/history.js's setAside).
function keepAside(forgot, before = snapshot(state), kept = 0) {
  aside = setAside(aside, before, forgot, kept);
}

function restoreAside() {
  if (!aside) return;
  const { state: back, again } = putBack(aside);
  if (aside.review) setDecisions(aside.review);
  aside = null;
  for (const s of again) recordDecision(s.observation, s.move);
  replacePosition(back.observation, back.game, back.log, back.deal);
  notice(() => plural("notice.put_back_done", back.log.length));
}

// Whether the player lets `action` (its words, e.g. "A new game") leave the game in progress: asked
// with the page's own dialog when steps were entered, and then set aside to put back.
async function mayLeave(action) {
  const steps = (state.log || []).length;
  if (!steps) return true;
  if (!(await ask(discardQuestion(action, steps)))) return false;
  keepAside(false);
  return true;
}

// The line after a reset that left a game with steps: what Put back brings back.
const leftLine = (text) => (aside && !aside.forgot && aside.state.log.length ? `${text} ${plural("notice.left", aside.state.log.length)}` : text);

// -- the hint ----------------------------------------------------------------------------

// The last search's report, to word again in another language: [report, final, words of
// the status line after it (or null)].
let advised = null;

function clearAdvice() {
  stopSearch();
  advised = null;
  $("advice").replaceChildren();
  $("search-status").textContent = "";
  $("progress").classList.add("hidden");
}

function stopSearch() {
  if (search) search.abort();
  search = null;
}

async function hint() {
  stopSearch();
  notice(() => "");
  const controller = new AbortController();
  search = controller;
  const budget = BUDGETS[state.budget];
  const bar = $("progress");
  bar.classList.remove("hidden");
  setBar(bar, 0);
  $("stop").classList.remove("hidden");
  $("hint").disabled = true;
  $("search-status").textContent = t("hint.thinking", { budget: t(`budget.${budget.name}`) });
  let last = null;
  try {
    await analyze(
      state.observation,
      { iterations: budget.iterations },
      (report, final) => {
        last = report;
        const done = Number(report.iterations || 0);
        setBar(bar, done / budget.iterations);
        showAdvice(report, final);
      },
      controller.signal,
    );
    if (controller.signal.aborted && last) {
      const stopped = () => t("hint.stopped", { count: number(last.iterations || 0) });
      advised[2] = stopped;
      $("search-status").textContent = stopped();
    }
  } catch (err) {
    showProblem(err);
    $("search-status").textContent = "";
  } finally {
    if (search === controller) search = null;
    $("stop").classList.add("hidden");
    $("hint").disabled = false;
  }
}

function showAdvice(report, final) {
  advised = [report, final, null];
  const current = game();
  const moves = report.moves || [];
  const best = report.move || (moves[0] && moves[0].move);
  if (!best) return;
  const simulations = Number(report.iterations || 0);
  $("search-status").textContent = t(final ? "hint.done" : "hint.searching", {
    count: number(simulations),
    seconds: number(report.elapsed_seconds || 0, 1),
  });
  // Once the search has given its top moves their share (show=K: `estimated`), the others'
  // win chances are by-products of where it spent its visits: listed, but not as values.
  const someEstimated = moves.some((m) => m.estimated);
  const rows = moves.map((m) => {
    const chance = Number(m.win_chance || 0);
    const valued = !someEstimated || Boolean(m.estimated);
    const played = el("button", { type: "button", "data-played": m.move.text }, t("move.played_it"));
    played.onclick = () => iPlayed(m.move.text);
    const count = number(m.visits || 0);
    return el(
      "li",
      { class: m.move.text === best.text ? "best" : "", "data-move": m.move.text, "data-estimated": String(valued) },
      el("span", {}, current.describeMove(m.move.text, position())),
      played,
      valued ? setBar(el("span", { class: "bar", "aria-label": t("hint.win_label", { percent: (100 * chance).toFixed(0) }) }, el("span")), chance, "meter") : null,
      el("span", { class: "muted" }, valued ? t("hint.row", { percent: (100 * chance).toFixed(0), count }) : t("hint.row_unestimated", { count })),
    );
  });
  $("advice").replaceChildren(
    el("p", { class: "recommendation", id: "recommendation" }, current.describeMove(best.text, position())),
    reasonsView(report, current, position()),
    el("h3", {}, t("hint.alternatives")),
    el("ul", { class: "moves", id: "moves" }, ...rows),
  );
}

// -- entering moves: "I played it" and following the table -----------------------------

// Apply the move of the player to act as the table saw it; the service asks for everything
// the table showed (a card turned up, a card played, the builds, who revealed a character),
// one slot at a time. The step joins the log with the position before it.
async function iPlayed(text, revealed = []) {
  stopSearch();
  const current = game();
  const player = current.toAct(position());
  try {
    const answer = await applyObservedMove(state.observation, player, text, revealed);
    if (!answer.complete) {
      askReveal(text, revealed, answer.reveals[revealed.length]);
      return;
    }
    $("reveal").classList.add("hidden");
    asking = null;
    const mine = player === current.observer(position());
    if (mine) recordDecision(state.observation, text);
    const step = { observation: state.observation, game: state.game, text: "", mine, move: text, player, revealed };
    step.text = stepWords(step); // the words of the language it was entered in, for a file
    aside = null; // a new step: what was set aside is gone
    replacePosition(answer.observation, state.game, [...(state.log || []), step], state.deal);
    const next = current.toAct(position());
    const observer = current.observer(position());
    notice(() => {
      const then = next === observer ? t("notice.your_decision") : next === null ? t("legal.over") : t("notice.next_other", { who: seat(next) });
      return `${t("notice.entered", { step: stepWords(step) })} ${then}`;
    });
  } catch (err) {
    $("reveal").classList.add("hidden");
    asking = null;
    showProblem(err);
  }
}

// A step of the log in words, in the current language: who, the move, what it showed. A step
// kept from before the page kept its move is shown as it was worded then.
function stepWords(step) {
  const current = gameById(step.game);
  if (!current || step.move === undefined || step.player === undefined) return step.text;
  const before = step.observation[step.game];
  const who = step.mine ? t("you.capital") : seat(step.player);
  const shown = (step.revealed || []).map((answer) => current.describeAnswer(answer, before));
  const move = step.move === SECRET_CHOICE ? t("move.secret") : current.describeMove(step.move, before);
  return t(shown.length ? "step.revealed" : "step", { who, move, shown: shown.join("; ") });
}

// The reveal being asked, to ask again in another language: [text, revealed, slot].
let asking = null;

function askReveal(text, revealed, slot) {
  asking = [text, revealed, slot];
  const box = $("reveal");
  const current = game();
  const choices = current
    .revealChoices(slotView(slot))
    .map((c) => ({ ...c, left: c.left - revealed.filter((r) => r === c.name).length }));
  const answers = slotAnswers(slot, choices, current, position(), (answer) => iPlayed(text, [...revealed, answer]));
  const cancel = el("button", { type: "button", id: "reveal-cancel" }, t("common.cancel"));
  cancel.onclick = () => {
    asking = null;
    box.classList.add("hidden");
  };
  const card = isCardSlot(slot);
  const what = card ? t("reveal.tap_card") : t("reveal.tap");
  const words = current.describeSlot(slot, text, position());
  box.replaceChildren(
    el("p", {}, el("strong", {}, what), " ", words, revealed.length ? ` ${t("reveal.card_n", { n: revealed.length + 1 })}` : ""),
    el("div", { class: card ? "deck" : "row" }, ...answers),
    cancel,
  );
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "nearest" });
}

// The position whose unseen cards a slot may name: for a player's builds or the card of its
// move, the cards you knew in that player's hand may be among them too.
function slotView(slot) {
  const builder = /players\[(\d+)\]\.cities$/.exec(slot.place || "");
  const mover = slot.kind === "REVEAL_KIND_MOVE_CARD" ? slot.player : undefined;
  const q = builder ? Number(builder[1]) : mover;
  if (q === undefined) return position();
  const copy = JSON.parse(JSON.stringify(position()));
  copy.players[q].hand = [];
  return copy;
}

// Another player to act: the moves it may be making, as you see them, one button each.
function showFollow(answer) {
  const moves = answer.observed_moves || [];
  $("follow").classList.toggle("hidden", !moves.length);
  if (!moves.length) return;
  const who = seat(answer.player);
  $("follow-title").textContent = t("follow.title", { who });
  $("follow-moves").replaceChildren(...moveButtons(moves, who, (text) => game().describeMove(text, position()), (text) => iPlayed(text)));
  askSecretAtOnce(moves);
}

// Another player's secret choice that ends a round of them (the last chooser's) shows what
// the table reveals: its question is asked at once, so that what the table shows is all
// there is to tap. Once a position; Cancel leaves the move's button, which asks it again.
// A secret choice that shows nothing waits for its tap: the page enters no step by itself.
async function askSecretAtOnce(moves) {
  if (moves.length !== 1 || moves[0].text !== SECRET_CHOICE || asking || lookedAt === state.observation) return;
  const observation = (lookedAt = state.observation);
  let answer;
  try {
    answer = await applyObservedMove(observation, game().toAct(position()), SECRET_CHOICE, []);
  } catch {
    return; // the move's button is still there, and tapping it says what went wrong
  }
  if (state.observation === observation && !asking && !answer.complete) askReveal(SECRET_CHOICE, [], answer.reveals[0]);
}

function renderLog() {
  const log = state.log || [];
  $("log").replaceChildren(...logList(log, stepWords, backTo));
  $("log-count").textContent = log.length ? `(${number(log.length)})` : "";
  $("undo").disabled = !log.length;
}

// Back to the position before step `index` of the log, exactly as it was; the steps taken
// back can be put back.
function backTo(index) {
  const back = stepsBefore(state.log, index);
  const firstMine = back.later.find((s) => s.mine);
  if (firstMine) forgetDecisionsFrom(firstMine.observation);
  keepAside(true, snapshot(state), index);
  notice(() => t("notice.back", { step: stepWords(back.later[0]), taken: plural("notice.taken_back", back.later.length) }), true);
  replacePosition(back.observation, back.game, back.log, state.deal);
}

// -- import and export --------------------------------------------------------------------

function download(data, name) {
  const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// Save game: the position and its log in one file (js/history.js), which Open game reads
// and the Review panel imports.
function saveGame() {
  download(gameFile(state), `regent-${state.game.replace(/_/g, "-")}-game.json`);
  const line = gameLine();
  notice(() => t("notice.saved", { game: line }));
}

async function openGame() {
  const file = $("open-game-file").files[0];
  $("open-game-file").value = "";
  if (!file) return;
  let opened;
  try {
    opened = readGameFile(JSON.parse(await file.text()), GAMES.map((g) => g.id));
  } catch (err) {
    if (!(err instanceof SyntaxError || err instanceof GameFileError)) throw err;
    showProblem({ status: 400, words: err instanceof SyntaxError ? t("error.not_json") : t("error.cannot_open", { file: file.name, why: err.message }) });
    return;
  }
  const reviewed = reviewedGame();
  if (!(await mayLeave(t("action.open")))) return;
  if (aside) aside.review = reviewed; // Put back brings the review's game back too
  setDecisions(decisionsOf(opened.log)); // the review is the opened game's
  replacePosition(opened.observation, opened.game, opened.log);
  notice(() => leftLine(t("notice.opened", { file: file.name, game: gameLine() })), true);
}

// The game in progress in one line: "<title>, 4 players, you are P2, 12 steps entered".
function gameLine() {
  const current = game();
  return summary({ title: current.title, players: current.numPlayers(position()), seat: current.observer(position()), steps: state.log.length });
}

const exportPosition = () => download(state.observation, "regent-observation.json");

// A file in either form of protobuf's JSON mapping (this page's export, or what a protobuf
// library writes: lowerCamelCase names, enums by number), read through the gateway into the
// page's form.
async function importText(text) {
  let data;
  try {
    data = await readObservation(JSON.parse(text));
  } catch (err) {
    const problem = err instanceof SyntaxError ? { status: 400, words: t("error.not_json") } : err;
    showProblem(problem);
    return;
  }
  const found = GAMES.find((g) => data[g.id]);
  if (!found) {
    showProblem({ status: 400, words: t("error.no_game", { games: GAMES.map((g) => g.title).join(", ") }) });
    return;
  }
  if (!(await mayLeave(t("action.import")))) return;
  notice(() => leftLine(t("notice.imported")), true);
  replacePosition({ [found.id]: data[found.id] }, found.id);
}

// -- a new game: the first screen ----------------------------------------------------------

// The first screen, then the game it asks for: at the deal (the engine's, with the cards
// the player sees to enter from the table) or a position set up by hand. A game in progress
// is asked about first (New game).
async function newGame(firstVisit = false) {
  if (!firstVisit && !(await mayLeave(t("action.new_game")))) return;
  const current = game();
  const picked = await askStart(GAMES, { game: current.id, players: current.numPlayers(position()), seat: current.observer(position()) });
  const chosen = gameById(picked.game);
  if (picked.choice === "cancel") {
    if (!firstVisit) aside = null; // nothing was left
    save(); // a first screen seen once: the next visit opens on the position
    return;
  }
  if (picked.choice === "blank") {
    const blank = chosen.blank(picked.players);
    blank.observer = picked.seat;
    notice(() => leftLine(t("notice.new_blank", { title: chosen.title })), true);
    replacePosition({ [chosen.id]: blank }, chosen.id);
    return;
  }
  let dealt;
  try {
    dealt = (await deal(chosen.id, picked.players, picked.seat)).observation[chosen.id];
  } catch (err) {
    showProblem(err);
    return;
  }
  const { position: start, steps } = clearDeal(chosen.dealPlaces, dealt);
  notice(() => leftLine(t("notice.new_deal", { title: chosen.title })), true);
  replacePosition({ [chosen.id]: start }, chosen.id, [], { steps });
}

// The deal still to enter, one line of help per place (until the first step is entered).
function renderDeal() {
  const box = $("deal-guide");
  const steps = state.deal && !state.log.length ? dealProgress(game().dealPlaces, state.deal.steps, position()) : [];
  box.classList.toggle("hidden", !steps.length);
  const lines = steps.map((s) => el("li", { class: s.done ? "done" : "", "data-deal": s.key }, s.done ? `✓ ${s.text}` : s.text));
  if (steps.length && steps.every((s) => s.done)) lines.push(el("li", { "data-deal": "done" }, t("deal.done")));
  box.replaceChildren(...lines);
}

// Whether the deal is still being entered (the engine refuses a position without it).
const enteringDeal = () => Boolean(state.deal && !state.log.length && !dealEntered(game().dealPlaces, state.deal.steps, position()));

function wire() {
  $("game").onchange = async () => {
    const chosen = gameById($("game").value);
    if (!(await mayLeave(t("action.switch_game", { title: chosen.title })))) {
      $("game").value = state.game;
      return;
    }
    notice(() => leftLine(t("notice.new_position", { title: chosen.title })), true);
    replacePosition(fresh(chosen).observation, chosen.id);
  };
  $("players").onchange = async () => {
    const players = Number($("players").value);
    if (!(await mayLeave(players === 1 ? t("action.switch_solo") : t("action.switch_players", { count: players })))) {
      $("players").value = String(game().numPlayers(position()));
      return;
    }
    notice(() => leftLine(plural("notice.new_players", players)), true);
    replacePosition({ [state.game]: game().blank(players) }, state.game);
  };
  $("new-game").onclick = () => newGame();
  $("save-game").onclick = saveGame;
  $("open-game").onclick = () => $("open-game-file").click();
  $("open-game-file").onchange = openGame;
  $("budget").oninput = () => {
    state.budget = Number($("budget").value);
    save();
  };
  $("hint").onclick = hint;
  $("stop").onclick = stopSearch;
  $("played-other").onclick = () => iPlayed($("other-moves").value);
  $("undo").onclick = () => backTo(state.log.length - 1);
  $("export").onclick = exportPosition;
  $("import").onclick = () => $("import-dialog").showModal();
  $("import-file").onchange = async () => {
    const file = $("import-file").files[0];
    if (file) $("import-text").value = await file.text();
  };
  $("import-dialog").onclose = () => {
    if ($("import-dialog").returnValue === "ok") importText($("import-text").value);
  };
}

// The language switch (FR / EN, in the header and on the first screen): the page is drawn
// again in the language chosen, the game in progress as it was.
function wireLanguage() {
  const pressed = () => {
    for (const button of document.querySelectorAll(LANGUAGE_BUTTONS)) button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
  };
  for (const button of document.querySelectorAll(LANGUAGE_BUTTONS)) {
    if (LANGUAGES.includes(button.dataset.lang)) button.onclick = () => setLanguage(button.dataset.lang);
  }
  onLanguage(pressed);
  onLanguage(redraw);
  translateStatic(document);
  pressed();
}

// Everything the page drew, in the language now: the position, the moves, the notice, the
// hint, the question being asked.
function redraw() {
  if (!state) return;
  render();
  notice(...noticed);
  if (advised) {
    const [report, final, after] = advised;
    showAdvice(report, final);
    if (after) {
      advised[2] = after;
      $("search-status").textContent = after();
    }
  }
  if (asking) askReveal(...asking);
}

// The games first: without them the page has nothing to draw.
async function start() {
  wireLanguage();
  try {
    GAMES = await loadGames((await listGames()).games || []);
  } catch (err) {
    showProblem(err);
    return;
  }
  if (!GAMES.length) {
    showProblem({ words: t("error.no_games") });
    return;
  }
  const saved = load();
  state = saved || fresh(GAMES[0]);
  wire();
  render();
  if (saved) notice(() => t("notice.restored", { game: gameLine() }));
  else newGame(true); // a first visit: the first screen
  // The review of the observer's game (js/review.js): it names moves and replays positions here.
  initReview({
    describeMove: (text, observation) => {
      const found = observation && GAMES.find((g) => observation[g.id]);
      return found ? found.describeMove(text, observation[found.id]) : text;
    },
    replay: async (observation) => {
      const found = GAMES.find((g) => observation[g.id]);
      if (!found || !(await mayLeave(t("action.replay")))) return;
      notice(() => leftLine(t("notice.replay")), true);
      replacePosition({ [found.id]: observation[found.id] }, found.id);
      $("setup-panel").scrollIntoView({ block: "start" });
    },
    showProblem,
  });
}

start();
