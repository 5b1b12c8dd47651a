// The games the page can set up: one module each, keyed by the Observation oneof field.
//
// A game module exports:
//   id, name, playerCounts        the oneof field ("royal_cities"), a title, allowed counts
//   blank(numPlayers)             a new position: the oneof's content in protobuf JSON
//   numPlayers(position)          how many players a position has
//   renderSetup(root, position, changed)
//                                 draw the setup editor into `root`; call changed(position)
//                                 after every edit (the page saves it and asks the engine)
//   describeMove(text, position)  a move's text in plain words
//   describeField(path)           a field path of an error ("players[1].hand[0]") in words
//   observer(position), toAct(position)
//                                 the observer, and the player to act (or null at the end)
//   revealChoices(position)       the cards a reveal slot may name: those the observer
//                                 cannot see, as [{name, left, label, element()}]
import citadels from "./citadels.js";
import royalCities from "./royal_cities.js";

export const GAMES = [royalCities, citadels];

export function gameById(id) {
  return GAMES.find((game) => game.id === id) || null;
}
