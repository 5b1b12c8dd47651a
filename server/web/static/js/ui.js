// Small DOM helpers shared by the page and the game modules.

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

// A number with − and + buttons, kept within [low, high]; onChange gets the new value.
export function stepper(id, value, low, high, onChange) {
  const output = el("output", { id, "aria-live": "polite" }, value);
  const step = (delta) => {
    const next = Math.min(high, Math.max(low, value + delta));
    if (next !== value) onChange(next);
  };
  const minus = el("button", { type: "button", "aria-label": `${id} minus`, "data-step": `${id}-` }, "−");
  const plus = el("button", { type: "button", "aria-label": `${id} plus`, "data-step": `${id}+` }, "+");
  minus.onclick = () => step(-1);
  plus.onclick = () => step(1);
  minus.disabled = value <= low;
  plus.disabled = value >= high;
  return el("span", { class: "stepper" }, minus, output, plus);
}
