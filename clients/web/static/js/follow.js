// Following a game at the table: the moves the player to act may be making, as you see
// them (LegalMoves' observed_moves), one button each; the answers the table gives to what
// a move showed (a card, the cards a player built, who revealed a character), one tap each;
// and the log of entered steps, each with the position before it, to go back exactly.
import { t } from "./i18n.js";
import { el } from "./ui.js";

// What the service calls another player's secret choice, as a move.
export const SECRET_CHOICE = "(a secret choice)";

// The buttons of the moves the player `who` may be making (describe(text) words a move, a
// shape's "?" too); onPick(text) enters one.
export function moveButtons(moves, who, describe, onPick) {
  return moves.map((m) => {
    const text = m.text === SECRET_CHOICE ? t("move.secret") : describe(m.text);
    const button = el("button", { type: "button", "data-observed": m.text }, t("follow.move", { who, move: text }));
    button.onclick = () => onPick(m.text);
    return button;
  });
}

// What to tap for a reveal slot: its options, the cards a player built (tapped one by one,
// then Done), or one card of the deck (`choices`, see js/games/index.js): for the card of a
// move, only those its options name (the districts the player can afford); onAnswer(text).
// `game` (js/games/index.js) words the options and the Cities of `position`.
export function slotAnswers(slot, choices, game, position, onAnswer) {
  const options = slot.options || [];
  if (options.length && !isCardSlot(slot)) {
    return options.map((option) => {
      const button = el("button", { type: "button", "data-option": option }, game.describeOption(option, position));
      button.onclick = () => onAnswer(option);
      return button;
    });
  }
  if ((slot.place || "").endsWith(".cities")) return [buildsPicker(choices, game, onAnswer)];
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
function buildsPicker(choices, game, onAnswer) {
  const picked = [];
  const cityOf = game.cityOf || (() => "");
  const shown = el("p", { class: "muted", id: "builds" }, t("builds.none"));
  const box = el("div", { class: "deck" });
  const cityRow = el("div", { class: "row hidden", id: "build-city" });
  const draw = () => (shown.textContent = picked.length ? game.describeAnswer(picked.join(", ")) : t("builds.none"));
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
          const b = el("button", { type: "button", "data-city": c }, game.cityWords(c));
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
  const done = el("button", { type: "button", class: "primary", id: "builds-done" }, t("builds.done"));
  done.onclick = () => onAnswer(picked.length ? picked.join(", ") : "none");
  return el("div", {}, shown, box, cityRow, done);
}

// The log of entered steps, each in words (`words(step)`), with a button to go back to the
// position before it.
export function logList(log, words, onBack) {
  return log.map((step, i) => {
    const back = el("button", { type: "button", "data-back": i }, t("log.back"));
    back.onclick = () => onBack(i);
    return el("li", {}, el("span", {}, words(step)), " ", back);
  });
}
