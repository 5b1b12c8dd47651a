// Small DOM helpers shared by the page and the game modules.
import { t } from "./i18n.js";

// An element with attributes (false/null ones left out) and children (null ones skipped).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    // ARIA states are the strings "true" and "false", never a bare attribute.
    if (name.startsWith("aria-") && typeof value === "boolean") {
      node.setAttribute(name, String(value));
      continue;
    }
    if (value === false || value === null || value === undefined) continue;
    if (name === "checked" || name === "selected" || name === "disabled") node[name] = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// `root`'s children replaced by `children`, the keyboard's focus kept: a control focused in
// the old ones is focused again in the new ones when one matches it (its id, or its tag,
// class and data attributes), so a setup redrawn at every edit does not throw the keyboard
// back to the top of the page.
export function replaceKeepingFocus(root, ...children) {
  const focused = root.contains(document.activeElement) ? document.activeElement : null;
  const key = focused && controlKey(focused);
  root.replaceChildren(...children);
  const again = key && [...root.querySelectorAll(focused.tagName)].find((node) => controlKey(node) === key);
  if (again) again.focus({ preventScroll: true });
}

function controlKey(node) {
  if (node.id) return `#${node.id}`;
  const data = Object.entries(node.dataset).map(([k, v]) => `${k}=${v}`).join(" ");
  return `${node.tagName}.${node.className} ${data}`;
}

// A number with − and + buttons, kept within [low, high]; onChange gets the new value.
export function stepper(id, value, low, high, onChange, label = id) {
  const output = el("output", { id, "aria-live": "polite" }, value);
  const step = (delta) => {
    const next = Math.min(high, Math.max(low, value + delta));
    if (next !== value) onChange(next);
  };
  const minus = el("button", { type: "button", "aria-label": t("stepper.minus", { what: label }), "data-step": `${id}-` }, "−");
  const plus = el("button", { type: "button", "aria-label": t("stepper.plus", { what: label }), "data-step": `${id}+` }, "+");
  minus.onclick = () => step(-1);
  plus.onclick = () => step(1);
  minus.disabled = value <= low;
  plus.disabled = value >= high;
  return el("span", { class: "stepper" }, minus, output, plus);
}

// A bar's fill (the bar's first child) at `fraction` (0 to 1), sized through the CSSOM (the
// page's CSP refuses style attributes), and the bar's ARIA value in percent (a progressbar
// or a meter: role, aria-valuemin/max/now set here).
export function setBar(bar, fraction, role = "progressbar") {
  const percent = Math.max(0, Math.min(100, 100 * fraction));
  bar.setAttribute("role", role);
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.setAttribute("aria-valuenow", percent.toFixed(0));
  bar.firstElementChild.style.width = `${percent.toFixed(1)}%`;
  return bar;
}

// A word with a capital first letter.
export const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

// A checkbox for the boolean `field` of `target`; `edit` wraps a change (see renderSetup).
export function checkbox(id, label, target, field, edit) {
  const box = el("input", { type: "checkbox", id, checked: Boolean(target[field]) });
  box.onchange = edit(() => (target[field] = box.checked));
  return el("label", {}, box, label);
}

// Whether the rules options are unfolded; every edit draws the setup afresh.
let rulesOpen = false;

// The game's rules options (the service's RulesOption list) as checkboxes on `rules`, each
// with its description, folded away: a table plays the defaults more often than not. `words`
// (a game module's) gives an option's name and description: {name, help}.
export function rulesEditor(options, rules, edit, words) {
  const changed = options.filter((o) => Boolean(rules[o.name]) !== Boolean(o.default_value)).length;
  const box = el(
    "details",
    { class: "rules", id: "rules", open: rulesOpen },
    el("summary", {}, changed ? t("rules.changed", { count: changed }) : t("rules.title")),
    ...options.map((o) => {
      const { name, help } = words(o);
      return el("div", { class: "rule" }, checkbox(`rule-${o.name}`, name, rules, o.name, edit), el("span", { class: "muted" }, help));
    }),
  );
  box.ontoggle = () => (rulesOpen = box.open);
  return box;
}

// One player's row of counters: `field` of `view` (VP, gold ...) under `label`, then with
// `handMax` the hand: the observer's is the cards it holds, another player's a stepper
// from the cards known in it up to handMax. `id` names the steppers (`vp-0`, `hand-0`).
export function counterRow({ name, id, label, view, field, edit, mine = false, handMax = 0 }, ...extras) {
  const count = (key, value, low, high, what) => stepper(`${key}-${id}`, value, low, high, (v) => edit(() => (view[key] = v))(), `${name}: ${what}`);
  const known = view.hand ? view.hand.length : 0;
  let hand = null;
  if (handMax && mine) hand = el("span", {}, t("setup.hand"), " ", el("output", { id: `hand-${id}` }, known));
  else if (handMax) hand = el("label", {}, t("setup.hand"), count("hand_size", view.hand_size || 0, known, handMax, t("setup.hand")));
  return el(
    "div",
    { class: "counter-row" },
    el("strong", {}, name),
    el("label", {}, label, count(field, view[field] || 0, 0, 200, label)),
    hand,
    ...extras,
  );
}

// A place on the table drawn (a hand, the Market, a player's City): a button naming it, with
// its count when given, that makes it the place the deck's tapped cards go (pressed when it
// is: `active`), then its contents; a tap on the place itself, off its cards, chooses it too.
export function zoneBox({ id, active, heading, count = null, onPick }, ...contents) {
  const pick = el(
    "button",
    { type: "button", class: "zone-pick", "data-zone": id, "aria-pressed": active },
    heading,
    count === null ? null : el("span", { class: "count" }, `${count}`),
  );
  pick.onclick = () => onPick(id);
  const box = el("div", { class: `zone${active ? " active" : ""}`, "data-zone-box": id }, pick, ...contents);
  box.onclick = (event) => {
    if (!event.target.closest("button, input, select, label, summary")) onPick(id);
  };
  return box;
}

// Another player's hand as the table shows it: `count` cards face down (a picture only; its
// count is read by the stepper beside it).
export function faceDown(count) {
  const backs = Array.from({ length: Math.min(count, 12) }, () => el("span", { class: "card back" }));
  return el("span", { class: "backs", "aria-hidden": "true" }, ...backs);
}

// Another player's hand as the table shows it to you: the cards you know it holds face up (a
// card you passed it, one it showed you), the rest face down; `element(name)` draws a card.
export function otherHand(known, size, element) {
  const up = known.map((name) => el("span", { class: "known", "data-card": name }, element(name)));
  return el("span", { class: "other-hand" }, ...up, faceDown(Math.max(0, size - known.length)));
}

// One player's place at the table: its name and counters, then what lies before it.
export function seatPanel(id, name, ...parts) {
  return el("section", { class: "seat", "data-seat": id, "aria-label": name }, ...parts);
}

// The cards to tap (a heading, a line of help, where they go, the deck): one block, which a
// wide screen keeps beside the table, in view as the table scrolls (css/app.css).
export function picker(...children) {
  return el("div", { class: "picker" }, ...children.filter(Boolean));
}

// Where the deck's tapped cards go now, in words, above the deck.
export function targetLine(where) {
  return el("p", { class: "target", id: "target", "aria-live": "polite" }, t("setup.target", { where }));
}

// A placed card: tapping it takes it back (`onRemove`).
export function placedCard(name, element, onRemove) {
  const button = el("button", { type: "button", class: "placed", "data-card": name }, el("span", { class: "sr-only" }, t("setup.remove")), " ", element);
  button.onclick = onRemove;
  return button;
}

// The deck: a tile per kind of card of `table` (a CardTable) with the copies `left` of it,
// disabled when none is; `element(name, text)` draws a card, onTap(name) places one.
export function deckTiles(attrs, table, left, element, onTap) {
  const tiles = table.cards.map(({ name }) => {
    const tile = el(
      "button",
      { type: "button", class: "deck-card", "data-card": name, disabled: left[name] <= 0 },
      element(name, `×${left[name]}`),
    );
    tile.onclick = () => onTap(name);
    return tile;
  });
  return el("div", { class: "deck", role: "group", ...attrs }, ...tiles);
}

// The cards a reveal slot may name: every kind of `table`, in kind order (a grid of them
// keeps each in its place), with its copies `left` (0: used up), as
// [{name, left, label, element()}] (see js/games/index.js).
export function revealChoices(table, left, label, element) {
  return table.cards
    .map(({ name }) => ({ name, left: left[name], label: label(name), element: () => element(name) }));
}

// `text` in words by the first of `rules` ([pattern, words(match)]) that matches it; as it
// is when none does.
export function inWords(rules, text) {
  for (const [pattern, words] of rules) {
    const m = text.match(pattern);
    if (m) return words(m);
  }
  return text;
}
