// A refusal in the page's language. The service sends each refusal as an English template
// and its parameters (engine/errors.py, beside the English text); the catalogues translate
// the template (key "refusal.<template>", or a game's own "<game>.refusal.<template>") and
// the page words each parameter: a seat as P1..Pn, a card by the game's names, a move as
// the page words moves, a game by its title, anything else as the game's paramWords says,
// else as it came.
import { has, seat, t } from "./i18n.js";

const SEAT = /^\d+$/;
// The parameter that holds an inner template (engine/errors.py's REASON_PARAM).
const REASON = "reason";

// One parameter in words: `game` is the page's game module, `position` the observation the
// refused request was about (null when there is none).
export function paramWords(name, value, game = null, position = null) {
  if (name === "player" || name.endsWith("_player")) return SEAT.test(value) ? seat(Number(value)) : value;
  const own = game && game.paramWords ? game.paramWords(name, value, position) : undefined;
  if (own !== undefined && own !== null) return own;
  if (game && (name === "card" || name.endsWith("_card"))) return game.cardWords(value) || value;
  if (game && position && name === "move") return game.describeMove(value, position);
  if (name === "game" && has(`${value}.title`)) return t(`${value}.title`);
  return value;
}

// The catalogue key of a template: the game's own, else the page's, else null.
export function refusalKey(template, game = null) {
  const own = game ? `${game.id}.refusal.${template}` : null;
  if (own && has(own)) return own;
  return has(`refusal.${template}`) ? `refusal.${template}` : null;
}

// The words of a refusal's wording ({template, params}), or null when it has none or the
// catalogues do not know its template (the page then shows the service's English text).
// A `reason` parameter is itself a template, worded from the same parameters.
export function refusalWords(wording, game = null, position = null, inner = true) {
  if (!wording || !wording.template) return null;
  const key = refusalKey(wording.template, game);
  if (!key) return null;
  const params = wording.params || {};
  const words = {};
  for (const [name, value] of Object.entries(params)) {
    if (name !== REASON) words[name] = paramWords(name, String(value), game, position);
    else if (inner) words[name] = refusalWords({ template: String(value), params }, game, position, false) ?? String(value);
  }
  return t(key, words);
}
