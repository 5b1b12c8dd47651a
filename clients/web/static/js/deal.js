// A game started at the deal: the engine deals a seeded game (POST /api/deal) for the
// structure (whose decision, how many cards each place gets, what the seat is shown); the
// page takes the seeded cards off the places the player sees and asks for the table's own,
// one line of help per place, until each holds as many as the deal gave it. Pure
// functions, no DOM: clients/web/test/ runs them in Node.
import { t } from "./i18n.js";

// `places` is the game's dealPlaces (js/games/index.js): {key, where, what, list, clear,
// exact, present}, `where` and `what` functions that word the place and its cards. An exact
// place gets as many cards at every deal (one the deal leaves empty is not asked); the
// others vary with the cards turned up, so they are asked always (when present), with no
// count.

// The deal (the game's observation at the deal, the oneof's content) with the seeded cards
// of the places the player sees taken off: {position, steps}, where steps are [{key, want}]
// (how many cards an exact place gets, null for one that varies).
export function clearDeal(places, dealt) {
  const position = JSON.parse(JSON.stringify(dealt));
  const steps = [];
  for (const { key, list, clear, exact, present } of places) {
    const want = list(position).length;
    if (exact ? !want : present && !present(position)) continue;
    steps.push({ key, want: exact ? want : null });
    clear(position);
  }
  return { position, steps };
}

// The deal's steps with what `position` holds now: [{key, want, have, done, text}], `text`
// the step's line of help (a place with no count is done with whatever it holds).
export function dealProgress(places, steps, position) {
  const byKey = new Map(places.map((p) => [p.key, p]));
  return steps.map(({ key, want }) => {
    const { where, what, list } = byKey.get(key);
    const have = list(position).length;
    const count = want === null ? t("deal.so_far", { have }) : t("deal.of", { have, want });
    return { key, want, have, done: want === null || have === want, text: t("deal.line", { where: where(), what: what(), count }) };
  });
}

// Whether every place of the deal holds its cards.
export const dealEntered = (places, steps, position) => dealProgress(places, steps, position).every((s) => s.done);

