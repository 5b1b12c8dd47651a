// The games the page can set up: those the service lists (GET /api/games) for which this
// folder has a module, js/games/<name>.js, where <name> is the game's Observation field.
// A game the page has no module for is not offered. Beside its module, a game has its
// styles, css/games/<name>.css, in force before it is offered.
//
// A game module's words are in French and English: it adds its names (cards, characters,
// places, its title as "<name>.title") with js/i18n.js's addCatalogues, and words everything
// with t(). Its default export is make(info), where `info` is the service's GameInfo in
// protobuf JSON (title, player counts, score unit, rules options, card table); it returns:
//   blank(numPlayers)             a new position: the oneof's content in protobuf JSON
//   renderSetup(root, position, changed)
//                                 draw the setup editor into `root`; call changed(position)
//                                 after every edit (the page saves it and asks the engine)
//   describeMove(text, position, mover)  a move's text in plain words (mover: who makes it,
//                                  by default the player to act in position)
//   describeField(path)           a field path of an error ("players[1].hand[0]") in words
//   revealChoices(position)       the cards a reveal slot may name: every kind, with the
//                                 copies the observer cannot see (`left`, 0 when none),
//                                 as [{name, left, label, element()}]
//   cardWords(name)               a card's name in words ("?": a card not known), or null
//                                 for a name that is no card
//   cityOf(name)                  (optional) the City a built card goes to: a name, or the
//                                 names to choose from (a reveal slot of a player's builds)
// and may replace the defaults below of
//   numPlayers(position)          how many players a position has
//   observer(position), toAct(position)
//                                 the observer, and the player to act (or null at the end)
//   dealPlaces                    the places of a deal the player sees, where the page asks
//                                 for the table's cards after POST /api/deal (js/deal.js):
//                                 [{key, where (the place's name on the page), what (its
//                                 cards, in words), list(position) (its cards), clear(position),
//                                 exact (as many cards at every deal: asked with a count,
//                                 not at all when the deal left it empty), present(position)
//                                 (optional: whether the deal has a place that is not exact)}];
//                                 none by default (the deal's position is taken as it is)
//   firstPlayer()                 a line on who P1 is, after the first screen's seat help;
//                                 none ("") by default
//   cityWords(city)               a City's name in words (the builds of a reveal slot)
//   describeSlot(slot, move, position)
//                                 what a reveal slot asks, in words, or null for the default
//                                 (from its kind and player: the catalogues' slot.* texts)
//   describeOption(option, position)
//                                 an option of a slot of what the table settled, in words
//                                 (by default "nothing more", else the service's words)
//   describeAnswer(answer, position)
//                                 an answer given to a slot (a card, the cards built with
//                                 their Cities, "none", an option), in words
//   rulesWords(option)            a rules option's {name, help} (by default the service's)
//   paramWords(name, value, position)
//                                 a refusal's parameter in words (js/refusal.js), or
//                                 undefined for the page's own: a seat, a card (cardWords),
//                                 a move (describeMove), else the value as it came
//   reasonItem(kind, item)        a hint's reason's item in words (js/reasons.js): the score
//                                 unit of "expects", the thing of "secures" or "fears", a
//                                 row of the beliefs ("belief"); by default the service's text
// The page adds id (the Observation field), title and playerCounts from `info`.

import { has, seat, t } from "../i18n.js";

const NAME = /^[a-z][a-z0-9_]*$/;
const NOTHING_MORE = "nothing more";

// A player a slot names: "you" or P1..Pn.
const whose = (slot, position) => (slot.player === undefined || slot.player === (position.observer || 0) ? t("you") : seat(slot.player));

// What a slot asks, by its kind.
function slotWords(slot, position) {
  const who = whose(slot, position);
  switch (slot.kind) {
    case "REVEAL_KIND_DRAWN_CARD":
      return t("slot.drawn");
    case "REVEAL_KIND_MOVE_CARD":
      return t("slot.move_card", { who });
    case "REVEAL_KIND_HELD_CARD":
      return t("slot.held", { who });
    case "REVEAL_KIND_SECRET_CHOICE":
      return (slot.place || "").endsWith(".cities") ? t("slot.built", { who }) : t("slot.passed", { who });
    default:
      return t("slot.outcome");
  }
}

const defaults = {
  numPlayers: (position) => position.num_players || (position.players || []).length,
  observer: (position) => position.observer || 0,
  toAct: (position) => (position.decision && position.decision.player !== undefined ? position.decision.player : null),
  dealPlaces: [],
  firstPlayer: () => "",
  cityWords: (city) => city,
  describeOption: (option) => (option === NOTHING_MORE ? t("option.nothing_more") : option),
  rulesWords: (option) => ({ name: option.name.replace(/_/g, " "), help: option.description }),
  reasonItem: (kind, item) => item,
};

// An answer to a slot in words: "none", a card, the cards built each with its City
// ("red-2 red, white-5 red"), else an option.
function answerWords(game, answer, position) {
  if (answer === "none") return t("answer.none");
  const card = game.cardWords(answer);
  if (card) return card;
  const parts = answer.split(", ").map((part) => part.split(" "));
  if (parts.every((p) => p.length === 2 && game.cardWords(p[0]))) {
    return parts.map(([name, city]) => t("answer.built", { card: game.cardWords(name), city: game.cityWords(city) })).join(", ");
  }
  return game.describeOption(answer, position);
}

// A game's stylesheet linked into the page; resolves once it is loaded (or failed to).
function loadStyles(name) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL(`../../css/games/${name}.css`, import.meta.url).href;
  const settled = new Promise((resolve) => {
    link.onload = link.onerror = resolve;
  });
  document.head.append(link);
  return settled;
}

async function loadGame(info) {
  if (!NAME.test(info.name || "")) return null;
  let module;
  try {
    module = await import(`./${info.name}.js`);
  } catch (err) {
    console.warn(`no page module for the game ${info.name}: ${err.message}`);
    return null;
  }
  await loadStyles(info.name);
  const game = { ...defaults, ...module.default(info), id: info.name, playerCounts: info.player_counts || [] };
  // The title in the current language: the game's own, else the service's.
  const key = `${info.name}.title`;
  Object.defineProperty(game, "title", { get: () => (has(key) ? t(key) : info.title || info.name) });
  if (!game.describeAnswer) game.describeAnswer = (answer, position) => answerWords(game, answer, position);
  const own = game.describeSlot;
  game.describeSlot = (slot, move, position) => (own && own(slot, move, position)) || slotWords(slot, position);
  return game;
}

// The games of `infos` (ListGamesResponse.games) that the page can set up, in their order.
export async function loadGames(infos) {
  const games = await Promise.all(infos.map(loadGame));
  return games.filter(Boolean);
}
