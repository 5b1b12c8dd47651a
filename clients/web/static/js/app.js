// The hint page: the position (saved in the browser, so a reload keeps it), the engine's
// verdict on it, the hint with its alternatives, and "I played it". The games and their
// facts come from the service (GET /api/games), once, before the first render.
import { analyze, applyObservedMove, legalMoves, listGames, readObservation } from "./api.js";
import { logList, moveButtons, slotAnswers } from "./follow.js";
import { loadGames } from "./games/index.js";
import { forgetDecisionsFrom, initReview, recordDecision } from "./review.js";
import { el } from "./ui.js";

const STORE = "regent.hint.v1";
const BUDGETS = [
  { name: "fast", iterations: 1500 },
  { name: "normal", iterations: 6000 },
  { name: "deep", iterations: 25000 },
];
const $ = (id) => document.getElementById(id);

let GAMES = []; // what js/games/index.js makes of the service's list
let state = null;
let search = null; // the AbortController of the running Analyze
let checking = 0; // the latest legal-moves request; older answers are ignored
let checkTimer = null;
let renders = 0; // positions drawn so far: #legal's data-rendered, and data-checked once asked

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE));
    const game = saved && gameById(saved.game);
    if (game && saved.observation && saved.observation[game.id]) return saved;
  } catch {
    // a damaged entry: start afresh
  }
  return fresh(GAMES[0]);
}

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
      el("option", { value: n, selected: n === current.numPlayers(position()) }, n === 1 ? "1 (solo)" : n),
    ),
  );
  $("budget").value = state.budget;
  current.renderSetup($("setup"), position(), changed);
  renderLog();
  $("legal").dataset.rendered = ++renders; // check() marks the version it answered
  scheduleCheck();
}

function changed(updated) {
  state.log = []; // a position edited by hand starts a new log
  state.observation = { [state.game]: updated };
  save();
  clearAdvice();
  render();
}

function replacePosition(observation, gameId, log = []) {
  state.log = log;
  state.game = gameId;
  state.observation = observation;
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
        ? "The game is over."
        : `P${answer.player + 1} is to act: tap what they did below, as the table showed it.`;
    $("hint").disabled = !mine || !moves.length;
    $("other-moves").replaceChildren(
      ...moves.map((m) => el("option", { value: m.text }, current.describeMove(m.text, position()))),
    );
    $("other-move").classList.toggle("hidden", !moves.length);
    showFollow(answer);
    $("legal").dataset.checked = version; // the moves shown are the latest position's
  } catch (err) {
    if (ticket !== checking) return;
    showProblem(err);
    $("legal").textContent = "None until the position is fixed.";
    $("hint").disabled = true;
    $("other-move").classList.add("hidden");
    $("follow").classList.add("hidden");
    $("legal").dataset.checked = version;
  }
}

// What is wrong and where, in words: the service's message and each field it blamed.
function showProblem(err) {
  const box = $("problem");
  if (!err) {
    box.classList.add("hidden");
    box.replaceChildren();
    return;
  }
  const describe = state ? game().describeField : (field) => field;
  const fields = (err.fields || []).map((f) =>
    el("li", {}, el("strong", {}, describe(f.field)), `: ${f.description}`, el("span", { class: "muted" }, ` (${f.field})`)),
  );
  box.replaceChildren(
    el("strong", {}, err.status === 400 ? "This position cannot happen. " : "Something went wrong. "),
    fields.length ? "" : err.message,
    fields.length ? el("ul", {}, ...fields) : null,
  );
  box.classList.remove("hidden");
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").classList.toggle("hidden", !text);
}

// -- the hint ----------------------------------------------------------------------------

function clearAdvice() {
  stopSearch();
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
  notice("");
  const controller = new AbortController();
  search = controller;
  const budget = BUDGETS[state.budget];
  const bar = $("progress").firstElementChild;
  $("progress").classList.remove("hidden");
  bar.style.width = "0";
  $("stop").classList.remove("hidden");
  $("hint").disabled = true;
  $("search-status").textContent = `Thinking (${budget.name})…`;
  let last = null;
  try {
    await analyze(
      state.observation,
      { iterations: budget.iterations },
      (report, final) => {
        last = report;
        const done = Number(report.iterations || 0);
        bar.style.width = `${Math.min(100, (100 * done) / budget.iterations)}%`;
        showAdvice(report, final);
      },
      controller.signal,
    );
    if (controller.signal.aborted && last) {
      $("search-status").textContent = `Stopped after ${Number(last.iterations || 0).toLocaleString()} simulations.`;
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
  const current = game();
  const moves = report.moves || [];
  const best = report.move || (moves[0] && moves[0].move);
  if (!best) return;
  const simulations = Number(report.iterations || 0);
  $("search-status").textContent = `${final ? "Done" : "Searching"}: ${simulations.toLocaleString()} simulations in ${Number(report.elapsed_seconds || 0).toFixed(1)} s.`;
  const rows = moves.map((m) => {
    const chance = Number(m.win_chance || 0);
    const played = el("button", { type: "button", "data-played": m.move.text }, "I played it");
    played.onclick = () => iPlayed(m.move.text);
    return el(
      "li",
      { class: m.move.text === best.text ? "best" : "", "data-move": m.move.text },
      el("span", {}, current.describeMove(m.move.text, position())),
      played,
      el("span", { class: "bar", role: "img", "aria-label": `win chance ${(100 * chance).toFixed(0)}%` }, barFill(chance)),
      el("span", { class: "muted" }, `${(100 * chance).toFixed(0)}% win · ${Number(m.visits || 0).toLocaleString()} sims`),
    );
  });
  $("advice").replaceChildren(
    el("p", { class: "recommendation", id: "recommendation" }, current.describeMove(best.text, position())),
    el("h3", {}, "Alternatives (estimated win chance)"),
    el("ul", { class: "moves", id: "moves" }, ...rows),
  );
}

// A win-chance bar's fill, sized through the CSSOM: the page's CSP refuses style attributes.
function barFill(chance) {
  const fill = el("span");
  fill.style.width = `${(100 * chance).toFixed(1)}%`;
  return fill;
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
    const mine = player === current.observer(position());
    if (mine) recordDecision(state.observation, text);
    const who = mine ? "You" : `P${player + 1}`;
    const shown = revealed.length ? ` (${revealed.join("; ")})` : "";
    const step = { observation: state.observation, game: state.game, text: `${who}: ${moveWords(text)}${shown}`, mine };
    replacePosition(answer.observation, state.game, [...(state.log || []), step]);
    const next = current.toAct(position());
    notice(
      `Entered: ${step.text}. ` +
        (next === current.observer(position())
          ? "Your decision: ask for a hint."
          : next === null
            ? "The game is over."
            : `Now P${next + 1} is to act: tap what they did.`),
    );
  } catch (err) {
    $("reveal").classList.add("hidden");
    showProblem(err);
  }
}

const moveWords = (text) => (text.includes("?") ? text.replace("?", "…") : game().describeMove(text, position()));

function askReveal(text, revealed, slot) {
  const box = $("reveal");
  const current = game();
  const choices = current
    .revealChoices(slotView(slot))
    .filter((c) => c.left > revealed.filter((r) => r === c.name).length);
  const answers = slotAnswers(slot, choices, current.cityOf || (() => ""), (answer) => iPlayed(text, [...revealed, answer]));
  const cancel = el("button", { type: "button", id: "reveal-cancel" }, "Cancel");
  cancel.onclick = () => box.classList.add("hidden");
  const what = slot.options && slot.options.length ? "Tap what the table showed: " : "Tap the card the table showed: ";
  box.replaceChildren(
    el("p", {}, el("strong", {}, what), slot.description, revealed.length ? ` (card ${revealed.length + 1})` : ""),
    el("div", { class: slot.options && slot.options.length ? "row" : "deck" }, ...answers),
    cancel,
  );
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "nearest" });
}

// The position whose unseen cards a slot may name: for a player's builds, the cards you
// knew in that player's hand may be among them too.
function slotView(slot) {
  const builder = /players\[(\d+)\]\.cities$/.exec(slot.place || "");
  if (!builder) return position();
  const copy = JSON.parse(JSON.stringify(position()));
  copy.players[Number(builder[1])].hand = [];
  return copy;
}

// Another player to act: the moves it may be making, as you see them, one button each.
function showFollow(answer) {
  const moves = answer.observed_moves || [];
  $("follow").classList.toggle("hidden", !moves.length);
  if (!moves.length) return;
  const who = `P${answer.player + 1}`;
  $("follow-title").textContent = `What did ${who} do?`;
  $("follow-moves").replaceChildren(...moveButtons(moves, who, (text) => game().describeMove(text, position()), (text) => iPlayed(text)));
}

function renderLog() {
  const log = state.log || [];
  $("log").replaceChildren(...logList(log, backTo));
  $("undo").disabled = !log.length;
}

// Back to the position before step `index` of the log, exactly as it was.
function backTo(index) {
  const step = state.log[index];
  const firstMine = state.log.slice(index).find((s) => s.mine);
  if (firstMine) forgetDecisionsFrom(firstMine.observation);
  notice(`Back before: ${step.text}.`);
  replacePosition(step.observation, step.game, state.log.slice(0, index));
}

// -- import and export --------------------------------------------------------------------

function exportPosition() {
  const blob = new Blob([JSON.stringify(state.observation, null, 2) + "\n"], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "regent-observation.json" });
  document.body.append(link);
  link.click();
  link.remove();
}

// A file in either form of protobuf's JSON mapping (this page's export, or what a protobuf
// library writes: lowerCamelCase names, enums by number), read through the gateway into the
// page's form.
async function importText(text) {
  let data;
  try {
    data = await readObservation(JSON.parse(text));
  } catch (err) {
    const problem = err instanceof SyntaxError ? { status: 400, message: `The file is not JSON: ${err.message}` } : err;
    showProblem(problem);
    return;
  }
  const found = GAMES.find((g) => data[g.id]);
  if (!found) {
    showProblem({ status: 400, message: `No game in it: expected one of ${GAMES.map((g) => g.id).join(", ")}.` });
    return;
  }
  notice("Imported.");
  replacePosition({ [found.id]: data[found.id] }, found.id);
}

function wire() {
  $("game").onchange = () => {
    const chosen = gameById($("game").value);
    state = fresh(chosen, state.budget);
    replacePosition(state.observation, chosen.id);
  };
  $("players").onchange = () => replacePosition({ [state.game]: game().blank(Number($("players").value)) }, state.game);
  $("new-position").onclick = () => {
    notice("");
    replacePosition({ [state.game]: game().blank(game().numPlayers(position())) }, state.game);
  };
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

// The games first: without them the page has nothing to draw.
async function start() {
  try {
    GAMES = await loadGames((await listGames()).games || []);
  } catch (err) {
    showProblem(err);
    return;
  }
  if (!GAMES.length) {
    showProblem({ message: "The service offers no game this page can set up." });
    return;
  }
  state = load();
  wire();
  render();
  // The review of the observer's game (js/review.js): it names moves and replays positions here.
  initReview({
    describeMove: (text, observation) => {
      const found = observation && GAMES.find((g) => observation[g.id]);
      return found ? found.describeMove(text, observation[found.id]) : text;
    },
    replay: (observation) => {
      const found = GAMES.find((g) => observation[g.id]);
      if (!found) return;
      notice("The position of that decision: ask for a hint, or play it out.");
      replacePosition({ [found.id]: observation[found.id] }, found.id);
      $("setup-panel").scrollIntoView({ block: "start" });
    },
    showProblem,
  });
}

start();
