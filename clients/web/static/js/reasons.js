// Why the hint: the best move's principal variation in words, its reasons in a sentence
// each, and who probably holds what the player cannot see (a table), from a final
// SearchReport's `steps`, `reasons` and `beliefs` (docs/api.md, "Reasons"). The game module
// words a reason's item (reasonItem(kind, item): a score unit, a colour, a character); the
// rest is the same for every game. The wording is kept apart from the drawing, for the
// unit tests.
import { number, seat, t } from "./i18n.js";
import { el } from "./ui.js";

// Proto JSON leaves zeros out: player 0 and a value of 0 come as nothing.
const playerOf = (entry) => Number(entry.player || 0);
const percent = (share) => t("reason.percent", { percent: (100 * Number(share || 0)).toFixed(0) });
const who = (player, observer) => (player === observer ? t("you") : seat(player));

// The line in words ("you: Buy Red 2, then P2: Pick the King"), up to the first step no
// dealt world reaches (player -1: the search's line past what it can say who plays), or ""
// for none.
export function lineWords(steps, game, position) {
  const observer = game.observer(position);
  const known = [];
  for (const step of steps || []) {
    if (playerOf(step) < 0) break;
    const move = step.hidden ? t("reason.hidden") : game.describeMove(step.move, position, playerOf(step));
    known.push(t("step", { who: who(playerOf(step), observer), move }));
  }
  return known.join(t("reason.then"));
}

// A reason in a sentence ("You expect 23 VP"), or null for a kind the page does not know.
export function reasonWords(reason, game, position) {
  const kind = reason.kind;
  const item = game.reasonItem(kind, reason.item);
  const value = Number(reason.value || 0);
  switch (kind) {
    case "expects":
      return t("reason.expects", { value: number(Math.round(value)), item });
    case "secures":
      return t("reason.secures", { item, percent: percent(value) });
    case "fears":
      return t("reason.fears", { item, who: who(playerOf(reason), game.observer(position)), percent: percent(value) });
    default:
      return null;
  }
}

// The beliefs as a table: a column per other player and one for nobody, a row per item in
// the service's order, each cell the chance in percent (0 where the service gives none).
export function beliefTable(beliefs, game, position) {
  const observer = game.observer(position);
  const others = [...Array(game.numPlayers(position)).keys()].filter((q) => q !== observer);
  const players = [...others, -1];
  const items = [...new Set((beliefs || []).map((b) => b.item))];
  const chance = (item, player) => (beliefs.find((b) => b.item === item && playerOf(b) === player) || {}).chance;
  return {
    columns: players.map((q) => (q < 0 ? t("reason.nobody") : seat(q))),
    rows: items.map((item) => ({ item, name: game.reasonItem("belief", item), cells: players.map((q) => percent(chance(item, q))) })),
  };
}

// The reasons drawn: the line, the sentences, the table; null when the report has none (a
// search still running, or a level that does not search).
export function reasonsView(report, game, position) {
  const line = lineWords(report.steps, game, position);
  const sentences = (report.reasons || []).map((r) => reasonWords(r, game, position)).filter(Boolean);
  const beliefs = report.beliefs || [];
  if (!line && !sentences.length && !beliefs.length) return null;
  const parts = [];
  if (line) parts.push(el("p", { id: "line" }, el("strong", {}, t("reason.line")), " ", line));
  if (sentences.length) parts.push(el("ul", { id: "reason-list", class: "reasons" }, ...sentences.map((s) => el("li", {}, s))));
  if (beliefs.length) {
    const table = beliefTable(beliefs, game, position);
    parts.push(
      el(
        "table",
        { id: "beliefs", class: "beliefs" },
        el("caption", {}, t("reason.beliefs")),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("reason.held")), ...table.columns.map((c) => el("th", { scope: "col" }, c)))),
        el(
          "tbody",
          {},
          ...table.rows.map((row) => el("tr", { "data-item": row.item }, el("th", { scope: "row" }, row.name), ...row.cells.map((c) => el("td", {}, c)))),
        ),
      ),
    );
  }
  return el("section", { id: "reasons" }, el("h3", {}, t("reason.heading")), ...parts);
}
