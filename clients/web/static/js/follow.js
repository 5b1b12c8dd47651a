// Following a game at the table: the moves the player to act may be making, as you see
// them (LegalMoves' observed_moves), one button each; the answers the table gives to what
// a move showed (a card, the cards a player built, who revealed a character), one tap each;
// and the log of entered steps, each with the position before it, to go back exactly.
import { el } from "./ui.js";

// The buttons of the moves the player `who` may be making; onPick(text) enters one.
export function moveButtons(moves, who, describe, onPick) {
  return moves.map((m) => {
    const text = m.text.includes("?") ? m.text.replace("?", "…") : describe(m.text);
    const button = el("button", { type: "button", "data-observed": m.text }, `${who}: ${text}`);
    button.onclick = () => onPick(m.text);
    return button;
  });
}

// What to tap for a reveal slot: its options, the cards a player built (tapped one by one,
// then Done), or one card of the deck (`choices`, see js/games/index.js): for the card of a
// move, only those its options name (the districts the player can afford); onAnswer(text).
export function slotAnswers(slot, choices, cityOf, onAnswer) {
  const options = slot.options || [];
  if (options.length && !isCardSlot(slot)) {
    return options.map((option) => {
      const button = el("button", { type: "button", "data-option": option }, option);
      button.onclick = () => onAnswer(option);
      return button;
    });
  }
  if ((slot.place || "").endsWith(".cities")) return [buildsPicker(choices, cityOf, onAnswer)];
  const possible = (c) => !options.length || options.includes(c.name);
  return choices.map((choice) => cardButton(choice, !possible(choice), () => onAnswer(choice.name)));
}

// A card to tap: every kind keeps its place in the grid, one the answer cannot be (used up,
// or not among the slot's options) shown disabled.
function cardButton(choice, impossible, onTap) {
  const button = el("button", { type: "button", "data-reveal": choice.name, disabled: impossible || choice.left <= 0 }, choice.element());
  button.onclick = onTap;
  return button;
}

// Whether a slot asks a card (its options, if any, name the possible cards), not what the
// table settled (its options are words).
export const isCardSlot = (slot) => slot.kind !== "REVEAL_KIND_OUTCOME" && Boolean(slot.place);

// Cards tapped into a list, each with its City (`cityOf(name)`: the card's own, or a list
// to choose from for a card that has none), then Done: "red-2 red, white-5 red" or "none".
function buildsPicker(choices, cityOf, onAnswer) {
  const picked = [];
  const shown = el("p", { class: "muted", id: "builds" }, "None yet.");
  const box = el("div", { class: "deck" });
  const cityRow = el("div", { class: "row hidden", id: "build-city" });
  const draw = () => (shown.textContent = picked.length ? picked.join(", ") : "None yet.");
  for (const choice of choices) {
    const button = cardButton(choice, false, () => {
      const city = cityOf(choice.name);
      if (typeof city === "string") {
        picked.push(`${choice.name} ${city}`);
        draw();
        return;
      }
      cityRow.replaceChildren(
        ...city.map((c) => {
          const b = el("button", { type: "button", "data-city": c }, c);
          b.onclick = () => {
            picked.push(`${choice.name} ${c}`);
            cityRow.classList.add("hidden");
            draw();
          };
          return b;
        }),
      );
      cityRow.classList.remove("hidden");
    });
    box.append(button);
  }
  const done = el("button", { type: "button", class: "primary", id: "builds-done" }, "Done");
  done.onclick = () => onAnswer(picked.length ? picked.join(", ") : "none");
  return el("div", {}, shown, box, cityRow, done);
}

// The log of entered steps: each with a button to go back to the position before it.
export function logList(log, onBack) {
  return log.map((step, i) => {
    const back = el("button", { type: "button", "data-back": i }, "Back to here");
    back.onclick = () => onBack(i);
    return el("li", {}, el("span", {}, step.text), " ", back);
  });
}
