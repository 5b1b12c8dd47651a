// A game started at the deal: the engine deals a seeded game (POST /api/deal) for the
// structure (whose decision, how many cards each place gets, what the seat is shown); the
// page takes the seeded cards off the places the player sees and asks for the table's own,
// one line of help per place, until each holds as many as the deal gave it. Pure
// functions, no DOM: clients/web/test/ runs them in Node.

const me = (obs) => obs.players[obs.observer || 0];

// Per game, the places of the deal a player sees: [key, where to tap, what, list(obs) (the
// cards there), clear(obs), exact]. An exact place gets as many cards at every deal (one the
// deal leaves empty is not asked); the others vary with the cards turned up (Royal Cities'
// Market setup discards the cards of a colour already laid), so they are asked always, with
// no count.
const PLACES = {
  royal_cities: [
    ["hand", "Your hand", "the cards you were dealt", (o) => me(o).hand || [], (o) => (me(o).hand = []), true],
    ["market", "Market", "the cards laid face up in the Market", (o) => o.market || [], (o) => (o.market = []), true],
    ["discard", "Discard pile", "the cards the Market's setup discarded, if any", (o) => o.discard || [], (o) => (o.discard = []), false],
    [
      "regent",
      "The Regent: Cities",
      "the cards the Regent's Cities start with",
      (o) => (o.regent ? (o.regent.cities || []).flatMap((c) => c.cards || []) : []),
      (o) => o.regent && (o.regent.cities || []).forEach((c) => (c.cards = [])),
      false,
    ],
  ],
  citadels: [
    ["hand", "Your hand", "the districts you were dealt", (o) => me(o).hand || [], (o) => (me(o).hand = []), true],
    ["face_up", "Face up (under Characters)", "the characters laid face up", (o) => (o.draft && o.draft.face_up) || [], (o) => (o.draft.face_up = []), true],
    [
      "shown",
      "Shown at your pick 1 (under Characters)",
      "the characters you were handed to pick from",
      (o) => (o.draft && o.draft.shown && o.draft.shown[0] && o.draft.shown[0].characters) || [],
      (o) => (o.draft.shown = []),
      true,
    ],
  ],
};

// The deal of `gameId` (its observation at the deal, the oneof's content) with the seeded
// cards of the places the player sees taken off: {position, steps}, where steps are
// [{key, want}] (how many cards an exact place gets, null for one that varies).
export function clearDeal(gameId, dealt) {
  const position = JSON.parse(JSON.stringify(dealt));
  const steps = [];
  for (const [key, , , list, clear, exact] of PLACES[gameId] || []) {
    const want = list(position).length;
    if (exact && !want) continue;
    if (!exact && key === "regent" && !position.regent) continue;
    steps.push({ key, want: exact ? want : null });
    clear(position);
  }
  return { position, steps };
}

// The deal's steps with what `position` holds now: [{key, want, have, done, text}], `text`
// the step's line of help (a place with no count is done with whatever it holds).
export function dealProgress(gameId, steps, position) {
  const places = new Map((PLACES[gameId] || []).map((p) => [p[0], p]));
  return steps.map(({ key, want }) => {
    const [, where, what, list] = places.get(key);
    const have = list(position).length;
    const count = want === null ? `${have} so far` : `${have} of ${want}`;
    return { key, want, have, done: want === null || have === want, text: `${where}: tap ${what} (${count}).` };
  });
}

// Whether every place of the deal holds its cards.
export const dealEntered = (gameId, steps, position) => dealProgress(gameId, steps, position).every((s) => s.done);

// One line of help per step of the first screen, and its seat's: who P1 is in each game.
export const START_HELP = {
  game: "The game on your table.",
  players: "Everyone at the table, you included (Royal Cities' 1 is the solo game against the Regent).",
  seat: "P1 plays first; the others follow in the order of play. Everyone on the page is you or P1 to Pn.",
  deal: "The page starts at the deal, then asks for the cards you see; or set up a position by hand.",
};

export const FIRST_PLAYER = {
  royal_cities: "P1 is the starting player.",
  citadels: "P1 holds the crown and picks first.",
};
