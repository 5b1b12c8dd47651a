// The current question and the Hint button in reach on a phone, however long the page: a
// bar fixed to the bottom of the screen (css/app.css, .dock: shown on narrow screens only)
// says what the page asks now (what the table showed, what another player did, a position
// to fix, your decision) with a button that goes to it, and the Hint button, which asks
// for a hint from anywhere and shows it. It reads the page's own elements, so it follows
// every state app.js draws without being told; it also keeps the log's newest step in view.
import { el } from "./ui.js";

const $ = (id) => document.getElementById(id);
const shown = (node) => node && !node.classList.contains("hidden");

// What the page asks now: [words, the element to go to], the first that applies.
function question() {
  const reveal = $("reveal");
  if (shown(reveal) && reveal.firstElementChild) return [reveal.firstElementChild.textContent, reveal];
  if (shown($("follow"))) return [$("follow-title").textContent, $("follow")];
  if (shown($("problem"))) return ["This position cannot happen: see what is wrong.", $("problem")];
  if (!$("hint").disabled) return ["Your decision: ask for a hint.", $("hint-panel")];
  return [$("legal").textContent, $("legal")];
}

function make() {
  const words = el("p", { id: "dock-text" });
  const go = el("button", { type: "button", id: "dock-go" }, "Show");
  const hint = el("button", { type: "button", id: "dock-hint", class: "primary" }, "Hint");
  let target = null;
  go.onclick = () => target && target.scrollIntoView({ block: "start" });
  hint.onclick = () => {
    $("hint").click();
    $("hint-panel").scrollIntoView({ block: "start" });
  };
  const dock = el("div", { id: "dock", class: "dock", role: "region", "aria-label": "the current question" }, words, go, hint);
  const draw = () => {
    const [text, place] = question();
    target = place;
    if (words.textContent !== text) words.textContent = text;
    hint.disabled = $("hint").disabled;
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
