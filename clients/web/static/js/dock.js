// The current question and the Hint button in reach on a phone, however long the page: a
// bar fixed to the bottom of the screen (css/app.css, .dock: shown on narrow screens only)
// says what the page asks now (what the table showed, what another player did, a position
// to fix, your decision) with a button that goes to it, and the Hint button, which asks
// for a hint from anywhere and shows it. It reads the page's own elements, so it follows
// every state app.js draws without being told; it also keeps the log's newest step in view.
// The question's answers (another player's moves, the cards or words the table showed, Done
// and Cancel) are in the bar too, a scrolling row of buttons that press the page's own: a
// person answers from the bar without scrolling to the question.
import { onLanguage, t } from "./i18n.js";
import { el } from "./ui.js";

const $ = (id) => document.getElementById(id);
const shown = (node) => node && !node.classList.contains("hidden");

// What the page asks now: [words, the element to go to, the buttons that answer it], the
// first that applies.
function question() {
  const reveal = $("reveal");
  if (shown(reveal) && reveal.firstElementChild) return [reveal.firstElementChild.textContent, reveal, answers(reveal)];
  if (shown($("follow"))) return [$("follow-title").textContent, $("follow"), answers($("follow-moves"))];
  if (shown($("problem"))) return [t("dock.problem"), $("problem"), []];
  if (!$("hint").disabled) return [t("notice.your_decision"), $("hint-panel"), []];
  return [$("legal").textContent, $("legal"), []];
}

// The buttons of `root` a person can press now, in their order (none in a hidden part).
const answers = (root) => [...root.querySelectorAll("button")].filter((b) => !b.closest(".hidden"));

// A button of the bar that presses `original`: its look and words, none of its ids or data
// attributes (the page's own stays the one the page knows).
function proxy(original) {
  const button = el("button", { type: "button", class: `${original.className} proxy`.trim(), disabled: original.disabled });
  for (const name of ["aria-pressed", "aria-label", "title"]) {
    if (original.hasAttribute(name)) button.setAttribute(name, original.getAttribute(name));
  }
  const copy = original.cloneNode(true);
  copy.querySelectorAll("[id]").forEach((node) => node.removeAttribute("id"));
  button.append(...copy.childNodes);
  button.onclick = () => original.click();
  return button;
}

// What the answers look like now: the row is drawn again only when it changed.
const signature = (buttons) => buttons.map((b) => `${b.disabled ? "-" : "+"}${b.outerHTML}`).join("");

function make() {
  const words = el("p", { id: "dock-text" });
  const go = el("button", { type: "button", id: "dock-go" }, t("dock.show"));
  const row = el("div", { id: "dock-answers", class: "dock-answers hidden", role: "group", "aria-label": t("dock.answers") });
  let drawn = "";
  const hint = el("button", { type: "button", id: "dock-hint", class: "primary" }, t("hint.button"));
  let target = null;
  go.onclick = () => target && target.scrollIntoView({ block: "start" });
  hint.onclick = () => {
    $("hint").click();
    $("hint-panel").scrollIntoView({ block: "start" });
  };
  const bar = el("div", { class: "dock-bar" }, words, go, hint);
  const dock = el("div", { id: "dock", class: "dock", role: "region", "aria-label": t("dock.label") }, row, bar);
  onLanguage(() => {
    go.textContent = t("dock.show");
    hint.textContent = t("hint.button");
    row.setAttribute("aria-label", t("dock.answers"));
    dock.setAttribute("aria-label", t("dock.label"));
  });
  const draw = () => {
    const [text, place, buttons] = question();
    target = place;
    if (words.textContent !== text) words.textContent = text;
    hint.disabled = $("hint").disabled;
    const now = signature(buttons);
    if (now !== drawn) {
      drawn = now;
      row.replaceChildren(...buttons.map(proxy));
      row.classList.toggle("hidden", !buttons.length);
      row.scrollLeft = 0;
    }
  };
  return { dock, draw };
}

function start() {
  const main = document.querySelector("main");
  if (!main || !$("hint")) return;
  const { dock, draw } = make();
  document.body.append(dock);
  // The dock is outside <main>: drawing it does not wake the observer again.
  new MutationObserver(draw).observe(main, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["class", "disabled"] });
  draw();
  // The log's box of steps keeps its newest step in view.
  const log = $("log");
  if (log) new MutationObserver(() => (log.scrollTop = log.scrollHeight)).observe(log, { childList: true });
}

start();
