// The page's own confirmation (a modal <dialog>, keyboard-usable: Tab between its buttons,
// Enter to press one, Escape to keep the game) before an action that leaves a game.
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// Resolves true when the player chose to go on (`ok`, the button's words), false otherwise.
export function ask(text, ok = t("confirm.leave")) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = ok;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
    $("confirm-cancel").focus(); // the safe answer first
  });
}
