// The review of the observer's game: the page keeps the observer's decisions (the
// observation before each move it played, and the move), or imports a game written by
// `regent review --save-game`; the service's Review call searches each one from that seat's
// information, streaming its progress; the page draws the win chance over the game (an
// inline SVG) and lists the worst moments with their alternatives, each replayable. A
// decision's figures are the review's one set (the table's, the chart's, the worst moment's):
// a checked one's from the positions after its moves, with their noise.
import { review } from "./api.js";
import { ask } from "./confirm.js";
import { number, onLanguage, plural, t } from "./i18n.js";
import { el, setBar } from "./ui.js";

const STORE = "regent.review.v1";
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// What app.js lends: describeMove(text, observation), replay(observation), showProblem(err);
// observations are regent.v1.Observation JSON ({game: position}).
let page = null;
let running = null; // the AbortController of the running review

function decisions() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE));
    if (saved && Array.isArray(saved.observations) && Array.isArray(saved.moves)) return saved;
  } catch {
    // a damaged entry: start afresh
  }
  return { observations: [], moves: [] };
}

function keep(game) {
  localStorage.setItem(STORE, JSON.stringify(game));
  showCount();
}

// The observer played `text` from `observation` (a regent.v1.Observation in JSON): one more
// decision of the game under review. A position of another seat or game starts a new game.
export function recordDecision(observation, text) {
  const game = decisions();
  const last = game.observations[game.observations.length - 1];
  if (last && seatOf(last) !== seatOf(observation)) {
    game.observations = [];
    game.moves = [];
  }
  game.observations.push(observation);
  game.moves.push({ text });
  keep(game);
}

// Undo in the follow log: the decision played from `observation`, and every later one, were
// taken back.
export function forgetDecisionsFrom(observation) {
  const game = decisions();
  const at = game.observations.findIndex((o) => JSON.stringify(o) === JSON.stringify(observation));
  if (at < 0) return;
  keep({ observations: game.observations.slice(0, at), moves: game.moves.slice(0, at) });
}

// The game under review: {observations, moves} (a copy, to put back with setDecisions).
export const reviewedGame = () => decisions();

// The game under review replaced by `game` ({observations, moves}, e.g. a saved game's):
// the review of the one before, if any, is cleared.
export function setDecisions(game) {
  stop();
  keep({ observations: game.observations, moves: game.moves.map((m) => ({ text: m.text })) });
  clearResult();
}

function clearResult() {
  shown = null;
  $("review-chart").replaceChildren();
  $("review-result").replaceChildren();
  $("review-status").textContent = "";
}

// Forget this game: asked first, like every action that discards entered steps.
async function forget() {
  const count = decisions().moves.length;
  if (count) {
    if (!(await ask(plural("review.forget_question", count), t("review.forget_ok")))) return;
  }
  setDecisions({ observations: [], moves: [] });
}

function seatOf(observation) {
  const [gameId, body] = Object.entries(observation)[0] || [];
  return `${gameId}:${body ? body.observer || 0 : ""}`;
}

function showCount() {
  const count = decisions().moves.length;
  $("review-count").textContent = count ? plural("review.count", count) : t("review.none");
  $("review-start").disabled = !count || running !== null;
}

// A win chance in percent with one decimal, as the current language writes it.
const percent = (chance) => `${number(100 * Number(chance || 0), 1)}%`;

function budgets() {
  const number = (id, low) => Math.max(low, Math.floor(Number($(id).value) || 0));
  return {
    budget: { iterations: number("review-iterations", 1) },
    deep_budget: { iterations: number("review-deep", 1) },
    mistakes: number("review-mistakes", 0),
    seed: String(number("review-seed", 0)),
  };
}

async function start() {
  stop();
  const game = decisions();
  if (!game.moves.length) return;
  const controller = new AbortController();
  running = controller;
  const points = [];
  const bar = $("review-progress");
  setBar(bar, 0);
  $("review-progress").classList.remove("hidden");
  $("review-stop").classList.remove("hidden");
  $("review-start").disabled = true;
  $("review-status").textContent = t("review.reviewing");
  $("review-result").replaceChildren();
  let final = null;
  try {
    await review(
      { ...game, ...budgets() },
      (message) => {
        const done = Number(message.done || 0);
        const total = Number(message.total || 0);
        setBar(bar, total ? done / total : 1);
        $("review-status").textContent = t("review.searching", { done, total });
        if (message.point) points.push(message.point);
        if (message.review) final = message.review;
        else drawChart(points, [], game.observations[0]);
      },
      controller.signal,
    );
  } catch (err) {
    page.showProblem(err);
  } finally {
    if (running === controller) running = null;
    $("review-stop").classList.add("hidden");
    showCount();
  }
  if (final) show(final, game);
  else if (controller.signal.aborted) {
    $("review-status").textContent = plural("review.stopped", points.length);
    drawChart(points, [], game.observations[0]);
  }
}

function stop() {
  if (running) running.abort();
  running = null;
}

// The review shown last, to show again in another language: [result, game].
let shown = null;
onLanguage(() => {
  if (!page) return;
  showCount();
  if (shown) show(...shown);
});

function show(result, game) {
  shown = [result, game];
  const points = result.points || [];
  const mistakes = result.mistakes || [];
  $("review-status").textContent = t(result.complete ? "review.done" : "review.stopped_at", {
    decisions: plural("review.decisions", points.length),
    mistakes: plural("review.mistakes_found", mistakes.length),
  });
  $("review-progress").classList.add("hidden");
  const seen = game.observations[0] || null; // to name the moves
  drawChart(points, mistakes, seen);
  const list = el("ol", { class: "mistakes", id: "review-mistakes" }, ...mistakes.map((m) => mistake(m)));
  const table = el(
    "table",
    { id: "review-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("review.col.move")), el("th", {}, t("review.col.win_after")), el("th", {}, t("review.col.loss")), el("th", {}, t("review.col.noise")))),
    el(
      "tbody",
      {},
      ...points.map((p) =>
        el(
          "tr",
          { "data-number": p.number, "data-move": p.move.text, "data-win": Number(p.win_chance || 0), "data-loss": Number(p.loss || 0),
            "data-noise": Number(p.noise || 0), "data-checked": p.checked ? "1" : "0" },
          el("td", {}, p.number),
          el("td", {}, page.describeMove(p.move.text, seen)),
          el("td", {}, percent(p.win_chance)),
          el("td", {}, number(100 * Number(p.loss || 0), 1)),
          el("td", { title: p.checked ? t("review.checked") : t("review.first_look") },
            p.checked ? number(100 * Number(p.noise || 0), 1) : "–"),
        ),
      ),
    ),
  );
  $("review-result").replaceChildren(
    el("h3", {}, mistakes.length ? t("review.worst") : t("review.no_mistake")),
    list,
    el("details", { class: "review-all" }, el("summary", {}, t("review.every")), table,
      el("p", { class: "muted" }, t("review.noise_help"))),
  );
}

function mistake(m) {
  const observation = m.observation || {};
  const describe = (text) => page.describeMove(text, observation);
  const replay = el("button", { type: "button", "data-replay": m.number }, t("review.replay"));
  replay.onclick = () => page.replay(observation);
  const valued = (m.estimates || []).map((e) =>
    el(
      "tr",
      { class: e.move.text === m.best.text ? "best" : e.move.text === m.move.text ? "played" : "", "data-move": e.move.text },
      el("td", {}, describe(e.move.text)),
      el("td", {}, percent(e.win_chance)),
      el("td", {}, `± ${number(100 * Number(e.noise || 0), 1)}`),
    ),
  );
  const rows = (m.alternatives || []).map((a) =>
    el(
      "tr",
      { class: a.move.text === m.best.text ? "best" : a.move.text === m.move.text ? "played" : "", "data-move": a.move.text },
      el("td", {}, describe(a.move.text)),
      el("td", {}, percent(a.win_chance)),
      el("td", {}, number(a.visits || 0)),
    ),
  );
  return el(
    "li",
    { "data-number": m.number, "data-loss": Number(m.loss || 0), "data-win": Number(m.win_chance || 0) },
    el("p", {}, el("strong", {}, t("review.decision", { n: m.number })), " ",
      t("review.played", { move: describe(m.move.text), percent: percent(m.win_chance), best: describe(m.best.text) }), " ",
      el("strong", {}, t("review.points", { points: number(100 * Number(m.loss || 0), 1) })), " ",
      t("review.lost", { noise: number(100 * Number(m.noise || 0), 1) })),
    ...(m.deeper_search_prefers ? [el("p", { class: "deeper" }, t("review.deeper", { best: describe(m.best.text) }))] : []),
    el("table", { class: "estimates" },
      el("caption", {}, t("review.estimates")),
      el("thead", {}, el("tr", {}, el("th", {}, t("review.col.move")), el("th", {}, t("review.col.win_after")), el("th", {}, t("review.col.error")))),
      el("tbody", {}, ...valued)),
    el("table", { class: "alternatives" },
      el("caption", {}, t("review.alternatives")),
      el("thead", {}, el("tr", {}, el("th", {}, t("review.col.move")), el("th", {}, t("review.col.win")), el("th", {}, t("review.col.simulations")))),
      el("tbody", {}, ...rows)),
    replay,
  );
}

// -- the chart ---------------------------------------------------------------------------

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// The win chance after each decision, 0 to 100% upwards, decisions left to right; the
// worst moments in the mistake colour.
function drawChart(points, mistakes, seen = null) {
  const width = 600;
  const height = 240;
  const left = 40;
  const right = 10;
  const top = 10;
  const bottom = 30;
  const flagged = new Set(mistakes.map((m) => m.number));
  const last = Math.max(1, ...points.map((p) => p.number));
  const x = (n) => left + ((width - left - right) * (last === 1 ? 0.5 : (n - 1) / (last - 1)));
  const y = (chance) => top + (height - top - bottom) * (1 - chance);
  const grid = [0, 0.5, 1].flatMap((level) => [
    svg("line", { class: "grid", x1: left, x2: width - right, y1: y(level), y2: y(level) }),
    svg("text", { class: "label", x: left - 6, y: y(level) + 4, "text-anchor": "end" }, `${100 * level}%`),
  ]);
  const line = svg("polyline", {
    class: "line",
    points: points.map((p) => `${x(p.number).toFixed(1)},${y(Number(p.win_chance || 0)).toFixed(1)}`).join(" "),
  });
  const dots = points.map((p) =>
    svg(
      "circle",
      { class: flagged.has(p.number) ? "dot mistake" : "dot", cx: x(p.number), cy: y(Number(p.win_chance || 0)), r: flagged.has(p.number) ? 6 : 3, "data-number": p.number, "data-win": Number(p.win_chance || 0) },
      svg("title", {}, t("review.dot", { n: p.number, move: page.describeMove(p.move.text, seen), percent: percent(p.win_chance) })),
    ),
  );
  const axis = svg("text", { class: "label", x: (left + width - right) / 2, y: height - 6, "text-anchor": "middle" }, t("review.axis"));
  const chart = svg(
    "svg",
    { id: "review-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": plural("review.chart", points.length) },
    ...grid,
    line,
    ...dots,
    axis,
  );
  $("review-chart").replaceChildren(chart);
}

// -- import ------------------------------------------------------------------------------

async function importGame() {
  const file = $("review-file").files[0];
  if (!file) return;
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch {
    page.showProblem({ status: 400, words: t("error.not_json") });
    return;
  }
  const ok = data && Array.isArray(data.observations) && Array.isArray(data.moves) && data.observations.length === data.moves.length;
  if (!ok) {
    page.showProblem({ status: 400, words: t("review.not_a_game") });
    return;
  }
  setDecisions(data);
  $("review-file").value = "";
}

export function initReview(lent) {
  page = lent;
  $("review-start").onclick = start;
  $("review-stop").onclick = stop;
  $("review-file").onchange = importGame;
  $("review-forget").onclick = forget;
  showCount();
}
