// The games the page can set up: those the service lists (GET /api/games) for which this
// folder has a module, js/games/<name>.js, where <name> is the game's Observation field.
// A game the page has no module for is not offered. Beside its module, a game has its
// styles, css/games/<name>.css, in force before it is offered.
//
// A game module's default export is make(info), where `info` is the service's GameInfo in
// protobuf JSON (title, player counts, score unit, rules options, card table); it returns:
//   blank(numPlayers)             a new position: the oneof's content in protobuf JSON
//   renderSetup(root, position, changed)
//                                 draw the setup editor into `root`; call changed(position)
//                                 after every edit (the page saves it and asks the engine)
//   describeMove(text, position)  a move's text in plain words
//   describeField(path)           a field path of an error ("players[1].hand[0]") in words
//   revealChoices(position)       the cards a reveal slot may name: every kind, with the
//                                 copies the observer cannot see (`left`, 0 when none),
//                                 as [{name, left, label, element()}]
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
//   firstPlayer                   a line on who P1 is, after the first screen's seat help;
//                                 none ("") by default
// The page adds id (the Observation field), title and playerCounts from `info`.

const NAME = /^[a-z][a-z0-9_]*$/;

const defaults = {
  numPlayers: (position) => position.num_players || (position.players || []).length,
  observer: (position) => position.observer || 0,
  toAct: (position) => (position.decision && position.decision.player !== undefined ? position.decision.player : null),
  dealPlaces: [],
  firstPlayer: "",
};

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
  return {
    ...defaults,
    ...module.default(info),
    id: info.name,
    title: info.title || info.name,
    playerCounts: info.player_counts || [],
  };
}

// The games of `infos` (ListGamesResponse.games) that the page can set up, in their order.
export async function loadGames(infos) {
  const games = await Promise.all(infos.map(loadGame));
  return games.filter(Boolean);
}
