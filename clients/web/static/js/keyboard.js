// The keyboard in an open dialog: Tab from its last control goes to its first, Shift+Tab
// from the first to the last, so the focus never leaves a modal dialog for the page behind
// it or the browser's own bar (Chromium lets it out past the last control). Every dialog of
// the page, whoever opens it.
const FOCUSABLE = "button, select, input, textarea, summary, a[href], [tabindex]:not([tabindex='-1'])";

function controls(dialog) {
  return [...dialog.querySelectorAll(FOCUSABLE)].filter((node) => !node.disabled && node.checkVisibility());
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Tab") return;
  const dialog = document.querySelector("dialog:modal");
  if (!dialog) return;
  const inside = controls(dialog);
  if (!inside.length) return;
  const [first, last] = [inside[0], inside[inside.length - 1]];
  const here = document.activeElement;
  const out = !dialog.contains(here);
  if (event.shiftKey && (here === first || out)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (here === last || out)) {
    event.preventDefault();
    first.focus();
  }
});
