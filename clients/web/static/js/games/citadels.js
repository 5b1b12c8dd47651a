// Citadels: the table drawn (the draft's characters, each seat's gold, hand, crown, known
// characters and city; a tap on a place chooses where tapped districts go), the districts to
// tap, the characters of the draft and of the round, steppers, the pending decision, move
// texts in plain words, and error paths in words. The position is the `citadels` branch of a
// regent.v1.Observation in protobuf JSON; the engine, not this page, decides whether it can
// happen and what is legal. The districts (colour, cost, copies) and the rules options come
// from the service's description of the game.
import { addCatalogues, seat, t } from "../i18n.js";
import { CardTable, defaultRules } from "../table.js";
import { checkbox, inWords, counterRow, deckTiles, el, faceDown, otherHand, picker, placedCard, replaceKeepingFocus, revealChoices as choices, rulesEditor, seatPanel, stepper, targetLine, zoneBox } from "../ui.js";

const CHARACTERS = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"];
// The card colour class (the page's palette) of each district colour.
const PALETTE = { noble: "yellow", religious: "blue", trade: "green", military: "red", unique: "purple" };
const D_PREFIX = "CITADELS_DISTRICT_";
const C_PREFIX = "CITADELS_CHARACTER_";
const P_PREFIX = "CITADELS_PHASE_";
// The decisions; each one's label is the text "citadels.phase.<PHASE>".
const PHASES = ["MAIN", "RESOURCE", "KEEP", "PICK", "DISCARD", "REDRAW", "GRAVEYARD", "END"];

// The game's words, in its rulebook's own names (citadels-classic.fr.md: the characters and
// the unique districts; the other districts as the French edition's cards name them).
export const CATALOGUE = {
  en: {
    "citadels.title": "Citadels",
    "citadels.points": "points",
    "citadels.first_player": "P1 holds the crown and picks first.",
    "citadels.district.manor": "Manor",
    "citadels.district.castle": "Castle",
    "citadels.district.palace": "Palace",
    "citadels.district.temple": "Temple",
    "citadels.district.church": "Church",
    "citadels.district.monastery": "Monastery",
    "citadels.district.cathedral": "Cathedral",
    "citadels.district.tavern": "Tavern",
    "citadels.district.market": "Market",
    "citadels.district.trading-post": "Trading Post",
    "citadels.district.docks": "Docks",
    "citadels.district.harbor": "Harbor",
    "citadels.district.town-hall": "Town Hall",
    "citadels.district.watchtower": "Watchtower",
    "citadels.district.prison": "Prison",
    "citadels.district.barracks": "Barracks",
    "citadels.district.fortress": "Fortress",
    "citadels.district.haunted-quarter": "Haunted Quarter",
    "citadels.district.keep": "Keep",
    "citadels.district.observatory": "Observatory",
    "citadels.district.laboratory": "Laboratory",
    "citadels.district.smithy": "Smithy",
    "citadels.district.graveyard": "Graveyard",
    "citadels.district.imperial-treasury": "Imperial Treasury",
    "citadels.district.map-room": "Map Room",
    "citadels.district.library": "Library",
    "citadels.district.great-wall": "Great Wall",
    "citadels.district.school-of-magic": "School of Magic",
    "citadels.district.university": "University",
    "citadels.district.dragon-gate": "Dragon Gate",
    "citadels.character.assassin": "Assassin",
    "citadels.character.the.assassin": "the Assassin",
    "citadels.character.thief": "Thief",
    "citadels.character.the.thief": "the Thief",
    "citadels.character.magician": "Magician",
    "citadels.character.the.magician": "the Magician",
    "citadels.character.king": "King",
    "citadels.character.the.king": "the King",
    "citadels.character.bishop": "Bishop",
    "citadels.character.the.bishop": "the Bishop",
    "citadels.character.merchant": "Merchant",
    "citadels.character.the.merchant": "the Merchant",
    "citadels.character.architect": "Architect",
    "citadels.character.the.architect": "the Architect",
    "citadels.character.warlord": "Warlord",
    "citadels.character.the.warlord": "the Warlord",
    "citadels.phase.MAIN": "Turn: build, income, power, end the turn",
    "citadels.phase.RESOURCE": "Turn start: take 2 gold or draw",
    "citadels.phase.KEEP": "Choose the drawn district to keep",
    "citadels.phase.PICK": "Draft: pick a character",
    "citadels.phase.DISCARD": "Draft: put a character face down",
    "citadels.phase.REDRAW": "Magician: cards under the deck",
    "citadels.phase.GRAVEYARD": "Graveyard: take the destroyed district?",
    "citadels.phase.END": "The game is over",
    "citadels.district.unknown": "a district",
    "citadels.district.title": "{name}, cost {cost}",
    "citadels.reason.face_up_shown": "{character} is face up, so it cannot be shown at your pick {n}",
    "citadels.reason.face_up_pick": "{character} is face up, so it cannot be your pick",
    "citadels.reason.first_shown": "you pick first, so you were shown {want} characters at your pick 1 (all but the face-up and the face-down ones), not {have}",
    "citadels.you_are": "You are",
    "citadels.round": "Round",
    "citadels.crown": "Crown",
    "citadels.first_picker": "First to pick",
    "citadels.deck": "Deck: {count} (what the rest leaves)",
    "citadels.city": "City",
    "citadels.mark.killed": "killed",
    "citadels.mark.robbed": "robbed",
    "citadels.seat.characters": "Characters:",
    "citadels.seat.unknown": "not revealed yet",
    "citadels.draft.face_up": "Face up:",
    "citadels.draft.face_down": "Face down:",
    "citadels.draft.yours": "yours:",
    "citadels.zone.hand": "Your hand",
    "citadels.zone.drawn": "Drawn, to keep or put back",
    "citadels.zone.city": "{who}: city",
    "citadels.districts": "the districts",
    "citadels.gold": "Gold",
    "citadels.heading.districts": "Districts",
    "citadels.districts_help": "Tap a place on the table (your hand, the drawn districts, a player's city), then tap districts here to put them there; tap a placed district to take it back. Cities list districts in the order built.",
    "citadels.heading.characters": "Characters",
    "citadels.heading.pending": "Pending decision",
    "citadels.face_up": "Face up ({count})",
    "citadels.shown_at": "Shown at your pick {n}",
    "citadels.picks": "Your picks",
    "citadels.discards": "You put face down",
    "citadels.revealed": "Revealed this round",
    "citadels.nobody": "nobody",
    "citadels.killed": "Killed",
    "citadels.robbed": "Robbed",
    "citadels.decision": "Decision",
    "citadels.draft_step": "Draft step",
    "citadels.to_act": "To act",
    "citadels.whose_turn": "Whose turn",
    "citadels.turn_of": "{character} ({who})",
    "citadels.builds_left": "Builds left",
    "citadels.keep": "Keep",
    "citadels.income_done": "income collected",
    "citadels.power_done": "power used",
    "citadels.before_resources": "before gold or cards",
    "citadels.cost": " ({cost} gold)",
    "citadels.move.pick": "Pick {character}",
    "citadels.move.discard": "Put {character} face down",
    "citadels.move.gold": "Take 2 gold",
    "citadels.move.cards": "Draw districts",
    "citadels.move.keep": "Keep {district}",
    "citadels.move.return": "Put {district} back under the deck (keep the others)",
    "citadels.move.build": "Build {district}{cost}",
    "citadels.move.income": "Collect income",
    "citadels.move.kill": "Kill {character}",
    "citadels.move.rob": "Rob {character}",
    "citadels.move.swap": "Swap hands with {who}",
    "citadels.move.redraw_done": "Draw as many as put under",
    "citadels.move.redraw": "Put {district} under the deck",
    "citadels.move.destroy_own": "Destroy your {district}",
    "citadels.move.destroy": "Destroy {who}'s {district}",
    "citadels.move.laboratory": "Laboratory: discard {district} for 2 gold",
    "citadels.move.smithy": "Smithy: pay 2 gold, draw 3",
    "citadels.move.graveyard_take": "Graveyard: pay 1 gold to take the district",
    "citadels.move.graveyard_leave": "Graveyard: let it go",
    "citadels.move.end": "End the turn",
    "citadels.field.revealed": "the district you named ({n})",
    "citadels.field.city": "{who}'s city, district {n}",
    "citadels.field.built_rounds": "{who}'s city (the rounds built)",
    "citadels.field.hand_card": "{who}'s hand, district {n}",
    "citadels.field.hand": "{who}'s hand",
    "citadels.field.gold": "{who}'s gold",
    "citadels.field.characters": "{who}'s characters",
    "citadels.field.face_up": "the face-up characters",
    "citadels.field.shown_n": "the characters shown at your pick {n}",
    "citadels.field.shown": "the characters shown at your picks",
    "citadels.field.picks": "your picks",
    "citadels.field.discards": "the characters you put face down",
    "citadels.field.step": "the draft step",
    "citadels.field.draft": "the character draft",
    "citadels.field.revealed_characters": "the revealed characters",
    "citadels.field.killed": "the killed character",
    "citadels.field.robbed": "the robbed character",
    "citadels.field.crown": "the crown",
    "citadels.field.first_picker": "who picked first",
    "citadels.field.called": "whose turn it is",
    "citadels.field.drawn": "the drawn districts",
    "citadels.field.decision": "the pending decision",
    "citadels.field.deck": "the deck (what the other counts leave)",
    "citadels.field.round": "the round",
    "citadels.field.observer": "who you are",
    "citadels.field.reasons": "{place} ({reasons})",
    "citadels.deal.hand": "the districts you were dealt",
    "citadels.deal.face_up_where": "Face up (under Characters)",
    "citadels.deal.face_up": "the characters laid face up",
    "citadels.deal.shown_where": "Shown at your pick 1 (under Characters)",
    "citadels.deal.shown": "the characters you were handed to pick from",
    "citadels.slot.drawn": "a district you drew, to keep or put back",
    "citadels.slot.hand": "the district drawn into your hand",
    "citadels.slot.built": "the district {who} built",
    "citadels.outcome.round": "round {n}",
    "citadels.outcome.is": "{who} is {character}",
    "citadels.outcome.you_are": "you are {character}",
    "citadels.outcome.crown": "the crown to {who}",
    "citadels.outcome.face_up": "face up: {characters}",
    "citadels.outcome.handed": "you are handed: {characters}",
    "citadels.rule.eight_districts": "eight districts",
    "citadels.rule.eight_districts.help": "4-7 players: a city is complete at 8 districts, as in the original edition",
    "citadels.rule.powers_before_resources": "powers before resources",
    "citadels.rule.powers_before_resources.help": "character powers and unique districts' actions may also be used before the resource step (not building, not income), as many tables play",
    // The engine's refusals, by their English templates (engine/errors.py): for a person at the table.
    "citadels.refusal.must be from 0 to {most}, less the {count} drawn cards listed": "must be from 0 to {most}, less the {count} drawn districts listed",
    "citadels.refusal.no action has id {id}": "no move has number {id}",
    "citadels.refusal.cannot read action '{text}'": "cannot read the move “{text}”",
    "citadels.refusal.unknown district '{name}'": "unknown district “{name}”",
    "citadels.refusal.unknown character '{name}' (one of {characters})": "unknown character “{name}” (one of {characters})",
    "citadels.refusal.expected 'citadels', got '{game}'": "expected a Citadels position, not {game}",
    "citadels.refusal.must be [character, player]": "must be a character and its player",
    "citadels.refusal.must be [position, card]": "must be a position in the deck and its district",
    "citadels.refusal.must be a list of characters": "must be a list of characters",
    "citadels.refusal.unknown phase '{phase}'": "unknown decision “{phase}”",
    "citadels.refusal.the Assassin cannot kill itself": "the Assassin cannot kill itself",
    "citadels.refusal.only the Thief robs, in its turn: it has not played this round": "only the Thief robs, in its turn: it has not played this round",
    "citadels.refusal.the Thief may not rob the Assassin, itself, or the killed character": "the Thief may not rob the Assassin, itself, or the killed character",
    "citadels.refusal.the Graveyard's offer comes in the Warlord's turn": "the Graveyard's offer comes in the Warlord's turn",
    "citadels.refusal.the Graveyard's offer goes to its owner, who is not the Warlord": "the Graveyard's offer goes to its owner, who is not the Warlord",
    "citadels.refusal.the Graveyard's owner needs 1 gold to be offered it": "the Graveyard's owner needs 1 gold to be offered the district",
    "citadels.refusal.Citadels is for 2 to 7 players, not {count}": "Citadels is for 2 to 7 players, not {count}",
    "citadels.refusal.{card} appears in more places than the deck has copies of it": "{card} is in more places than the game has copies of it",
    "citadels.refusal.must be a character name": "must be a character's name",
    "citadels.refusal.must be a player from 0 to {last}": "must be a player from 0 to {last}",
    "citadels.refusal.must be a citadels Observation or its JSON": "must be a Citadels position",
    "citadels.refusal.Citadels is for 2 to 7 players": "Citadels is for 2 to 7 players",
    "citadels.refusal.must list {count} players": "must list {count} players",
    "citadels.refusal.must be from 1 to 200": "must be from 1 to 200",
    "citadels.refusal.inconsistent (invariant {code})": "is inconsistent (invariant {code})",
    "citadels.refusal.leaves the player to act no legal move": "leaves the player to act no possible move",
    "citadels.refusal.is inconsistent with the rest: no game reaches it as written": "does not fit the rest: no game reaches it as entered",
    "citadels.refusal.must be from 0 to {most}": "must be from 0 to {most}",
    "citadels.refusal.must give a round per district": "must give the round each district was built in",
    "citadels.refusal.a city holds one {card} at most": "a city has one {card} at most",
    "citadels.refusal.must be from 1 to {round}": "must be from 1 to {round}",
    "citadels.refusal.must be from 0 to 68": "must be from 0 to 68",
    "citadels.refusal.lists {count} cards for a hand of {size}": "lists {count} districts for a hand of {size}",
    "citadels.refusal.is for opponents": "is for your opponents only",
    "citadels.refusal.is not a card of the observer's hand": "is not a district of your hand",
    "citadels.refusal.must name a distinct position inside the deck": "must be a position in the deck, each one only once",
    "citadels.refusal.the deck holds only {count} cards": "the deck holds only {count} districts",
    "citadels.refusal.the observer knows that card is {card}": "you know that card is {card}",
    "citadels.refusal.the hands, deck, cities and drawn cards hold {count} districts, not 68": "the hands, the deck, the cities and the drawn districts hold {count} districts, not 68",
    "citadels.refusal.must be a position of deck_known": "must be a position of the deck you know",
    "citadels.refusal.at most 3 cards are drawn at once": "at most 3 districts are drawn at once",
    "citadels.refusal.the King is never face up, and no character twice": "the King is never face up, and no character is twice",
    "citadels.refusal.{count} players have {face_up} face up": "with {count} players, {face_up} characters are face up",
    "citadels.refusal.must be below {steps} during the draft and {steps} after it": "must be below {steps} during the draft and {steps} after it",
    "citadels.refusal.must list the kept character": "must name the character you kept",
    "citadels.refusal.misses a face-down discard": "misses a character you put face down",
    "citadels.refusal.misses a pick": "misses one of your picks",
    "citadels.refusal.lists more characters than were picked": "lists more characters than you picked",
    "citadels.refusal.the observer was shown characters {count} times": "you were shown characters {count} times",
    "citadels.refusal.the revealed King has taken the crown": "the revealed King has taken the crown",
    "citadels.refusal.names the character whose turn it is": "must name the character whose turn it is",
    "citadels.refusal.no deal of the characters fits what was shown, picked and revealed": "no deal of the characters fits what was shown, picked and revealed",
    "citadels.refusal.names the player to act": "must name the player to act",
    "citadels.refusal.draft step {step} is a discard by {player}": "draft step {step} is {player} putting a character face down",
    "citadels.refusal.draft step {step} is a pick by {player}": "draft step {step} is {player}'s pick",
    "citadels.refusal.draft step {step} is your pick": "draft step {step} is your pick",
    "citadels.refusal.draft step {step} is your discard": "draft step {step} is you putting a character face down",
    "citadels.refusal.must be from 0 to 3": "must be from 0 to 3",
    "citadels.refusal.must be from 0 to 2": "must be from 0 to 2",
    "citadels.refusal.names the Warlord's player": "must name the Warlord's player",
    "citadels.refusal.must be a character revealed by the player whose turn it is": "must be a character revealed by the player whose turn it is",
    "citadels.refusal.is for the Magician's redraw and the Graveyard only": "is for the Magician's cards under the deck and the Graveyard only",
    "citadels.refusal.needs the rules option powers_before_resources": "needs the option “powers before resources”",
    "citadels.refusal.income is collected after the resource step": "income is collected after taking gold or districts",
    "citadels.refusal.powers and districts come after the resource step (rules option powers_before_resources allows them before)": "powers and districts' actions come after taking gold or districts (the option “powers before resources” allows them before)",
    "citadels.refusal.no district has number {number}": "no district has number {number}",
    "citadels.refusal.no character has number {number}": "no character has number {number}",
    "citadels.refusal.no phase has number {number}": "no decision has number {number}",
    "citadels.refusal.must be a position inside the deck of {size}": "must be a position in the deck of {size}",
    "citadels.refusal.you have built {card} already: a city has one of each district": "you have built {card} already: a city has one of each district",
    "citadels.refusal.{player} has built {card} already: a city has one of each district": "{player} has built {card} already: a city has one of each district",
    "citadels.refusal.you have no build left this turn": "you have no build left this turn",
    "citadels.refusal.{player} has no build left this turn": "{player} has no build left this turn",
    "citadels.refusal.you have {gold} gold; {card} costs {cost}": "you have {gold} gold; {card} costs {cost}",
    "citadels.refusal.{player} has {gold} gold; {card} costs {cost}": "{player} has {gold} gold; {card} costs {cost}",
  },
  fr: {
    "citadels.title": "Citadelles",
    "citadels.points": "points",
    "citadels.first_player": "J1 a la Couronne et choisit en premier.",
    "citadels.district.manor": "Manoir",
    "citadels.district.castle": "Château",
    "citadels.district.palace": "Palais",
    "citadels.district.temple": "Temple",
    "citadels.district.church": "Église",
    "citadels.district.monastery": "Monastère",
    "citadels.district.cathedral": "Cathédrale",
    "citadels.district.tavern": "Taverne",
    "citadels.district.market": "Marché",
    "citadels.district.trading-post": "Échoppe",
    "citadels.district.docks": "Comptoir",
    "citadels.district.harbor": "Port",
    "citadels.district.town-hall": "Hôtel de ville",
    "citadels.district.watchtower": "Tour de guet",
    "citadels.district.prison": "Prison",
    "citadels.district.barracks": "Caserne",
    "citadels.district.fortress": "Forteresse",
    "citadels.district.haunted-quarter": "Cour des Miracles",
    "citadels.district.keep": "Donjon",
    "citadels.district.observatory": "Observatoire",
    "citadels.district.laboratory": "Laboratoire",
    "citadels.district.smithy": "Forge",
    "citadels.district.graveyard": "Cimetière",
    "citadels.district.imperial-treasury": "Trésor Impérial",
    "citadels.district.map-room": "Salle des Cartes",
    "citadels.district.library": "Bibliothèque",
    "citadels.district.great-wall": "Grande Muraille",
    "citadels.district.school-of-magic": "École de Magie",
    "citadels.district.university": "Université",
    "citadels.district.dragon-gate": "Dracoport",
    "citadels.character.assassin": "Assassin",
    "citadels.character.the.assassin": "l'Assassin",
    "citadels.character.thief": "Voleur",
    "citadels.character.the.thief": "le Voleur",
    "citadels.character.magician": "Magicien",
    "citadels.character.the.magician": "le Magicien",
    "citadels.character.king": "Roi",
    "citadels.character.the.king": "le Roi",
    "citadels.character.bishop": "Évêque",
    "citadels.character.the.bishop": "l'Évêque",
    "citadels.character.merchant": "Marchand",
    "citadels.character.the.merchant": "le Marchand",
    "citadels.character.architect": "Architecte",
    "citadels.character.the.architect": "l'Architecte",
    "citadels.character.warlord": "Condottiere",
    "citadels.character.the.warlord": "le Condottiere",
    "citadels.phase.MAIN": "Tour : bâtir, revenus, pouvoir, fin du tour",
    "citadels.phase.RESOURCE": "Début du tour : prendre 2 pièces d'or ou piocher",
    "citadels.phase.KEEP": "Choisir le quartier pioché à garder",
    "citadels.phase.PICK": "Choix des personnages : en choisir un",
    "citadels.phase.DISCARD": "Choix des personnages : en écarter un face cachée",
    "citadels.phase.REDRAW": "Magicien : cartes sous la pioche",
    "citadels.phase.GRAVEYARD": "Cimetière : reprendre le quartier détruit ?",
    "citadels.phase.END": "La partie est finie",
    "citadels.district.unknown": "un quartier",
    "citadels.district.title": "{name}, coût {cost}",
    "citadels.reason.face_up_shown": "{character} est face visible : il ne peut pas vous être montré à votre choix {n}",
    "citadels.reason.face_up_pick": "{character} est face visible : il ne peut pas être votre choix",
    "citadels.reason.first_shown": "vous choisissez en premier : on vous a montré {want} personnages à votre choix 1 (tous sauf ceux écartés face visible et face cachée), pas {have}",
    "citadels.you_are": "Vous êtes",
    "citadels.round": "Tour de jeu",
    "citadels.crown": "Couronne",
    "citadels.first_picker": "Premier à choisir",
    "citadels.deck": "Pioche : {count} (ce que le reste laisse)",
    "citadels.city": "Cité",
    "citadels.mark.killed": "assassiné",
    "citadels.mark.robbed": "volé",
    "citadels.seat.characters": "Personnages :",
    "citadels.seat.unknown": "pas encore révélés",
    "citadels.draft.face_up": "Face visible :",
    "citadels.draft.face_down": "Face cachée :",
    "citadels.draft.yours": "les vôtres :",
    "citadels.zone.hand": "Votre main",
    "citadels.zone.drawn": "Piochés, à garder ou remettre",
    "citadels.zone.city": "{who} : cité",
    "citadels.districts": "les quartiers",
    "citadels.gold": "Or",
    "citadels.heading.districts": "Quartiers",
    "citadels.districts_help": "Touchez un endroit de la table (votre main, les quartiers piochés, la cité d'un joueur), puis touchez ici les quartiers pour les y mettre ; touchez un quartier placé pour le reprendre. Les cités listent les quartiers dans l'ordre où ils ont été bâtis.",
    "citadels.heading.characters": "Personnages",
    "citadels.heading.pending": "Décision en attente",
    "citadels.face_up": "Face visible ({count})",
    "citadels.shown_at": "Montrés à votre choix {n}",
    "citadels.picks": "Vos choix",
    "citadels.discards": "Vous avez écarté face cachée",
    "citadels.revealed": "Révélés à ce tour",
    "citadels.nobody": "personne",
    "citadels.killed": "Assassiné",
    "citadels.robbed": "Volé",
    "citadels.decision": "Décision",
    "citadels.draft_step": "Étape du choix",
    "citadels.to_act": "À jouer",
    "citadels.whose_turn": "Au tour de",
    "citadels.turn_of": "{character} ({who})",
    "citadels.builds_left": "Constructions restantes",
    "citadels.keep": "Garder",
    "citadels.income_done": "revenus perçus",
    "citadels.power_done": "pouvoir utilisé",
    "citadels.before_resources": "avant l'or ou les cartes",
    "citadels.cost": " ({cost} pièces d'or)",
    "citadels.move.pick": "Choisir {character}",
    "citadels.move.discard": "Écarter {character} face cachée",
    "citadels.move.gold": "Prendre 2 pièces d'or",
    "citadels.move.cards": "Piocher des quartiers",
    "citadels.move.keep": "Garder {district}",
    "citadels.move.return": "Remettre {district} sous la pioche (garder les autres)",
    "citadels.move.build": "Bâtir {district}{cost}",
    "citadels.move.income": "Percevoir les revenus",
    "citadels.move.kill": "Assassiner {character}",
    "citadels.move.rob": "Voler {character}",
    "citadels.move.swap": "Échanger sa main avec {who}",
    "citadels.move.redraw_done": "Piocher autant que remis dessous",
    "citadels.move.redraw": "Mettre {district} sous la pioche",
    "citadels.move.destroy_own": "Détruire votre {district}",
    "citadels.move.destroy": "Détruire le quartier {district} de {who}",
    "citadels.move.laboratory": "Laboratoire : défausser {district} pour 2 pièces d'or",
    "citadels.move.smithy": "Forge : payer 2 pièces d'or, piocher 3 cartes",
    "citadels.move.graveyard_take": "Cimetière : payer 1 pièce d'or pour reprendre le quartier",
    "citadels.move.graveyard_leave": "Cimetière : le laisser",
    "citadels.move.end": "Finir le tour",
    "citadels.field.revealed": "le quartier que vous avez nommé ({n})",
    "citadels.field.city": "cité de {who}, quartier {n}",
    "citadels.field.built_rounds": "cité de {who} (les tours de construction)",
    "citadels.field.hand_card": "main de {who}, quartier {n}",
    "citadels.field.hand": "main de {who}",
    "citadels.field.gold": "or de {who}",
    "citadels.field.characters": "personnages de {who}",
    "citadels.field.face_up": "les personnages face visible",
    "citadels.field.shown_n": "les personnages montrés à votre choix {n}",
    "citadels.field.shown": "les personnages montrés à vos choix",
    "citadels.field.picks": "vos choix",
    "citadels.field.discards": "les personnages que vous avez écartés face cachée",
    "citadels.field.step": "l'étape du choix des personnages",
    "citadels.field.draft": "le choix des personnages",
    "citadels.field.revealed_characters": "les personnages révélés",
    "citadels.field.killed": "le personnage assassiné",
    "citadels.field.robbed": "le personnage volé",
    "citadels.field.crown": "la Couronne",
    "citadels.field.first_picker": "qui a choisi en premier",
    "citadels.field.called": "à qui c'est le tour",
    "citadels.field.drawn": "les quartiers piochés",
    "citadels.field.decision": "la décision en attente",
    "citadels.field.deck": "la pioche (ce que les autres nombres laissent)",
    "citadels.field.round": "le tour de jeu",
    "citadels.field.observer": "qui vous êtes",
    "citadels.field.reasons": "{place} ({reasons})",
    "citadels.deal.hand": "les quartiers qui vous ont été distribués",
    "citadels.deal.face_up_where": "Face visible (sous Personnages)",
    "citadels.deal.face_up": "les personnages écartés face visible",
    "citadels.deal.shown_where": "Montrés à votre choix 1 (sous Personnages)",
    "citadels.deal.shown": "les personnages qu'on vous a passés pour choisir",
    "citadels.slot.drawn": "un quartier que vous avez pioché, à garder ou remettre",
    "citadels.slot.hand": "le quartier pioché dans votre main",
    "citadels.slot.built": "le quartier que {who} a bâti",
    "citadels.outcome.round": "tour de jeu {n}",
    "citadels.outcome.is": "{who} est {character}",
    "citadels.outcome.you_are": "vous êtes {character}",
    "citadels.outcome.crown": "la Couronne à {who}",
    "citadels.outcome.face_up": "face visible : {characters}",
    "citadels.outcome.handed": "on vous passe : {characters}",
    "citadels.rule.eight_districts": "huit quartiers",
    "citadels.rule.eight_districts.help": "4 à 7 joueurs : une cité est complète à 8 quartiers, comme dans l'édition originale",
    "citadels.rule.powers_before_resources": "pouvoirs avant les ressources",
    "citadels.rule.powers_before_resources.help": "les pouvoirs des personnages et des Merveilles peuvent aussi servir avant de prendre or ou cartes (ni bâtir, ni revenus), comme beaucoup de tables jouent",
    // Les refus du moteur, par leurs modèles anglais (engine/errors.py).
    "citadels.refusal.must be from 0 to {most}, less the {count} drawn cards listed": "doit être entre 0 et {most}, moins les {count} quartiers piochés indiqués",
    "citadels.refusal.no action has id {id}": "aucun coup n'a le numéro {id}",
    "citadels.refusal.cannot read action '{text}'": "impossible de lire le coup « {text} »",
    "citadels.refusal.unknown district '{name}'": "quartier inconnu : « {name} »",
    "citadels.refusal.unknown character '{name}' (one of {characters})": "personnage inconnu : « {name} » (l'un de ceux-ci : {characters})",
    "citadels.refusal.expected 'citadels', got '{game}'": "une position de Citadelles est attendue, pas {game}",
    "citadels.refusal.must be [character, player]": "doit être un personnage et son joueur",
    "citadels.refusal.must be [position, card]": "doit être une position dans la pioche et son quartier",
    "citadels.refusal.must be a list of characters": "doit être une liste de personnages",
    "citadels.refusal.unknown phase '{phase}'": "décision inconnue : « {phase} »",
    "citadels.refusal.the Assassin cannot kill itself": "l'Assassin ne peut pas s'assassiner lui-même",
    "citadels.refusal.only the Thief robs, in its turn: it has not played this round": "seul le Voleur vole, pendant son tour : il n'a pas joué à ce tour de jeu",
    "citadels.refusal.the Thief may not rob the Assassin, itself, or the killed character": "le Voleur ne peut voler ni l'Assassin, ni lui-même, ni le personnage assassiné",
    "citadels.refusal.the Graveyard's offer comes in the Warlord's turn": "l'offre du Cimetière n'a lieu que pendant le tour du Condottiere",
    "citadels.refusal.the Graveyard's offer goes to its owner, who is not the Warlord": "l'offre du Cimetière va à son propriétaire, qui n'est pas le Condottiere",
    "citadels.refusal.the Graveyard's owner needs 1 gold to be offered it": "le propriétaire du Cimetière doit avoir 1 pièce d'or pour que le quartier lui soit proposé",
    "citadels.refusal.Citadels is for 2 to 7 players, not {count}": "Citadelles se joue de 2 à 7 joueurs, pas {count}",
    "citadels.refusal.{card} appears in more places than the deck has copies of it": "{card} apparaît à plus d'endroits que le jeu n'en compte d'exemplaires",
    "citadels.refusal.must be a character name": "doit être un nom de personnage",
    "citadels.refusal.must be a player from 0 to {last}": "doit être un joueur de 0 à {last}",
    "citadels.refusal.must be a citadels Observation or its JSON": "doit être une position de Citadelles",
    "citadels.refusal.Citadels is for 2 to 7 players": "Citadelles se joue de 2 à 7 joueurs",
    "citadels.refusal.must list {count} players": "doit compter {count} joueurs",
    "citadels.refusal.must be from 1 to 200": "doit être entre 1 et 200",
    "citadels.refusal.inconsistent (invariant {code})": "incohérence (invariant {code})",
    "citadels.refusal.leaves the player to act no legal move": "ne laisse aucun coup possible au joueur qui doit jouer",
    "citadels.refusal.is inconsistent with the rest: no game reaches it as written": "ne s'accorde pas avec le reste : aucune partie n'y mène telle que la position est saisie",
    "citadels.refusal.must be from 0 to {most}": "doit être entre 0 et {most}",
    "citadels.refusal.must give a round per district": "doit indiquer le tour de jeu où chaque quartier a été bâti",
    "citadels.refusal.a city holds one {card} at most": "une cité ne peut avoir qu'un exemplaire de chaque quartier ({card})",
    "citadels.refusal.must be from 1 to {round}": "doit être entre 1 et {round}",
    "citadels.refusal.must be from 0 to 68": "doit être entre 0 et 68",
    "citadels.refusal.lists {count} cards for a hand of {size}": "indique {count} quartiers pour une main de {size}",
    "citadels.refusal.is for opponents": "ne concerne que vos adversaires",
    "citadels.refusal.is not a card of the observer's hand": "n'est pas un quartier de votre main",
    "citadels.refusal.must name a distinct position inside the deck": "doit être une position dans la pioche, chacune une seule fois",
    "citadels.refusal.the deck holds only {count} cards": "la pioche ne compte que {count} quartiers",
    "citadels.refusal.the observer knows that card is {card}": "vous savez que cette carte est : {card}",
    "citadels.refusal.the hands, deck, cities and drawn cards hold {count} districts, not 68": "les mains, la pioche, les cités et les quartiers piochés comptent {count} quartiers, pas 68",
    "citadels.refusal.must be a position of deck_known": "doit être une position de la pioche que vous connaissez",
    "citadels.refusal.at most 3 cards are drawn at once": "on pioche au plus 3 quartiers à la fois",
    "citadels.refusal.the King is never face up, and no character twice": "le Roi n'est jamais écarté face visible, et aucun personnage ne l'est deux fois",
    "citadels.refusal.{count} players have {face_up} face up": "à {count} joueurs, {face_up} personnages sont écartés face visible",
    "citadels.refusal.must be below {steps} during the draft and {steps} after it": "doit être inférieure à {steps} pendant le choix des personnages, et {steps} après",
    "citadels.refusal.must list the kept character": "doit indiquer le personnage que vous avez gardé",
    "citadels.refusal.misses a face-down discard": "il manque un personnage que vous avez écarté face cachée",
    "citadels.refusal.misses a pick": "il manque un de vos choix",
    "citadels.refusal.lists more characters than were picked": "indique plus de personnages que vous n'en avez choisi",
    "citadels.refusal.the observer was shown characters {count} times": "on vous a montré des personnages {count} fois",
    "citadels.refusal.the revealed King has taken the crown": "le Roi révélé a pris la Couronne",
    "citadels.refusal.names the character whose turn it is": "doit indiquer le personnage dont c'est le tour",
    "citadels.refusal.no deal of the characters fits what was shown, picked and revealed": "aucune distribution des personnages ne s'accorde avec ce qui a été montré, choisi et révélé",
    "citadels.refusal.names the player to act": "doit indiquer le joueur qui doit jouer",
    "citadels.refusal.draft step {step} is a discard by {player}": "à l'étape {step} du choix des personnages, {player} écarte un personnage face cachée",
    "citadels.refusal.draft step {step} is a pick by {player}": "à l'étape {step} du choix des personnages, c'est {player} qui choisit",
    "citadels.refusal.draft step {step} is your pick": "à l'étape {step} du choix des personnages, c'est vous qui choisissez",
    "citadels.refusal.draft step {step} is your discard": "à l'étape {step} du choix des personnages, vous écartez un personnage face cachée",
    "citadels.refusal.must be from 0 to 3": "doit être entre 0 et 3",
    "citadels.refusal.must be from 0 to 2": "doit être entre 0 et 2",
    "citadels.refusal.names the Warlord's player": "doit indiquer le joueur du Condottiere",
    "citadels.refusal.must be a character revealed by the player whose turn it is": "doit être un personnage révélé par le joueur dont c'est le tour",
    "citadels.refusal.is for the Magician's redraw and the Graveyard only": "ne vaut que pour les cartes que le Magicien met sous la pioche et pour le Cimetière",
    "citadels.refusal.needs the rules option powers_before_resources": "demande l'option « pouvoirs avant les ressources »",
    "citadels.refusal.income is collected after the resource step": "les revenus se perçoivent après avoir pris l'or ou les cartes",
    "citadels.refusal.powers and districts come after the resource step (rules option powers_before_resources allows them before)": "les pouvoirs et les actions des quartiers viennent après avoir pris l'or ou les cartes (l'option « pouvoirs avant les ressources » les permet avant)",
    "citadels.refusal.no district has number {number}": "aucun quartier n'a le numéro {number}",
    "citadels.refusal.no character has number {number}": "aucun personnage n'a le numéro {number}",
    "citadels.refusal.no phase has number {number}": "aucune décision n'a le numéro {number}",
    "citadels.refusal.must be a position inside the deck of {size}": "doit être une position dans la pioche de {size} cartes",
    "citadels.refusal.you have built {card} already: a city has one of each district": "vous avez déjà bâti {card} : une cité ne peut avoir deux quartiers identiques",
    "citadels.refusal.{player} has built {card} already: a city has one of each district": "{player} a déjà bâti {card} : une cité ne peut avoir deux quartiers identiques",
    "citadels.refusal.you have no build left this turn": "vous ne pouvez plus bâtir à ce tour",
    "citadels.refusal.{player} has no build left this turn": "{player} ne peut plus bâtir à ce tour",
    "citadels.refusal.you have {gold} gold; {card} costs {cost}": "vous avez {gold} or ; {card} en coûte {cost}",
    "citadels.refusal.{player} has {gold} gold; {card} costs {cost}": "{player} a {gold} or ; {card} en coûte {cost}",
  },
};
addCatalogues(CATALOGUE);
const T = (key, params) => t(`citadels.${key}`, params);


// Set by make() from the service's description: the districts and the rules options.
let districts = new CardTable([]);
let RULES = [];

// Where tapped districts go: "hand", "drawn" or "city:Q"; the position the editor drew last
// (a refusal of its draft is explained from it).
const ui = { zone: "hand", drawn: null };

// A district in words ("?": one not known); the name as it is for no district.
const words = (name) => (name === "?" ? T("district.unknown") : districts.kind(name) < 0 ? name : T(`district.${name}`));
// A character's name ("King", "Roi"), and with its article ("the King", "le Roi").
const character = (name) => T(`character.${name}`);
const theCharacter = (name) => T(`character.the.${name}`);
const districtName = (value) => String(value || "").replace(D_PREFIX, "").toLowerCase().replace(/_/g, "-");
const toDistrict = (name) => D_PREFIX + name.toUpperCase().replace(/-/g, "_");
const characterName = (value) => String(value || "").replace(C_PREFIX, "").toLowerCase();
const toCharacter = (name) => C_PREFIX + name.toUpperCase();
const costOf = (name) => districts.attribute(name, "cost");
const byKind = (a, b) => districts.kind(districtName(a)) - districts.kind(districtName(b));
const byCharacter = (a, b) => CHARACTERS.indexOf(characterName(a)) - CHARACTERS.indexOf(characterName(b));
const phaseOf = (obs) => String((obs.decision && obs.decision.phase) || "").replace(P_PREFIX, "");
const draftSteps = (n) => (n <= 3 ? 6 : n);
const picksOf = (n) => (n <= 3 ? 2 : 1);
const faceUpOf = (n) => (n >= 4 && n <= 6 ? 6 - n : 0);

function playerName(obs, q) {
  return q === (obs.observer || 0) ? t("you.capital") : seat(q);
}

function districtElement(name, extra = "") {
  const colour = PALETTE[districts.attribute(name, "colour")] || "white";
  return el(
    "span",
    { class: `card district c-${colour}`, title: T("district.title", { name: words(name), cost: costOf(name) }) },
    el("span", { class: "value" }, costOf(name)),
    el("span", { class: "name" }, words(name)),
    extra ? el("span", { class: "left" }, extra) : null,
  );
}

function blank(numPlayers) {
  const players = [];
  for (let q = 0; q < numPlayers; q++) {
    players.push({ gold: 2, hand_size: q === 0 ? 0 : 4, hand: [], city: [], built_rounds: [], characters: [] });
  }
  // The first pick of round 1: the face-up characters and the ones shown are an example the
  // player changes to what the table shows.
  const up = CHARACTERS.filter((c) => c !== "king").slice(0, faceUpOf(numPlayers));
  const shown = CHARACTERS.filter((c) => !up.includes(c)).slice(0, 7 - up.length);
  return normalize({
    observer: 0,
    num_players: numPlayers,
    rules: defaultRules(RULES),
    round: 1,
    crown: 0,
    first_picker: 0,
    players,
    draft: { step: 0, face_up: up.map(toCharacter), shown: [{ characters: shown.map(toCharacter) }], picks: [], discards: [] },
    revealed: [],
    deck_size: 0,
    deck_known: [],
    decision: { phase: P_PREFIX + "PICK", player: 0 },
  });
}

// Fill what protobuf JSON leaves out, sort what the engine keeps sorted, and count the deck:
// what no other place holds.
function normalize(obs) {
  obs.players = obs.players || [];
  for (const view of obs.players) {
    view.gold = view.gold || 0;
    view.hand_size = view.hand_size || 0;
    view.hand = (view.hand || []).slice().sort(byKind);
    view.city = view.city || [];
    view.built_rounds = view.built_rounds || [];
    view.characters = (view.characters || []).slice().sort(byCharacter);
  }
  obs.rules = obs.rules || {};
  obs.round = obs.round || 1;
  obs.crown = obs.crown || 0;
  obs.first_picker = obs.first_picker || 0;
  obs.draft = obs.draft || {};
  for (const key of ["face_up", "picks", "discards", "shown"]) obs.draft[key] = obs.draft[key] || [];
  obs.draft.step = obs.draft.step || 0;
  obs.revealed = (obs.revealed || []).slice().sort((a, b) => byCharacter(a.character, b.character));
  obs.deck_known = obs.deck_known || [];
  obs.decision = obs.decision || { phase: P_PREFIX + "MAIN", player: 0 };
  obs.decision.drawn = (obs.decision.drawn || []).slice().sort(byKind);
  const me = obs.observer || 0;
  if (obs.players[me]) {
    obs.players[me].hand_size = obs.players[me].hand.length;
    // The observer holds its picks: its characters are its picks.
    obs.players[me].characters = obs.draft.picks.slice().sort(byCharacter);
  }
  const phase = phaseOf(obs);
  if (phase !== "PICK" && phase !== "DISCARD") obs.draft.step = draftSteps(obs.players.length);
  obs.deck_size = deckSize(obs);
  return obs;
}

function placed(obs) {
  const names = [];
  const add = (list) => list.forEach((d) => names.push(districtName(d)));
  for (const view of obs.players) {
    add(view.hand);
    add(view.city);
  }
  add(obs.decision.drawn || []);
  if (obs.decision.destroyed) add([obs.decision.destroyed]);
  add(obs.deck_known.map((card) => card.district));
  return names;
}

function deckSize(obs) {
  const me = obs.observer || 0;
  let hidden = obs.decision.drawn_hidden || 0;
  obs.players.forEach((view, q) => {
    if (q !== me) hidden += Math.max(0, view.hand_size - view.hand.length);
  });
  return districts.size - placed(obs).length - hidden + obs.deck_known.length;
}

const left = (obs) => districts.left(placed(obs));

// -- the setup editor --------------------------------------------------------------------

function select(id, label, options, value, onChange) {
  const box = el(
    "select",
    { id, "aria-label": label },
    ...options.map(([v, text]) => el("option", { value: v, selected: String(v) === String(value) }, text)),
  );
  box.onchange = () => onChange(box.value);
  return el("label", {}, label, box);
}

function chip(name, on, attrs, onClick) {
  const button = el("button", { type: "button", class: "chip", "aria-pressed": on, ...attrs }, character(name));
  button.onclick = onClick;
  return button;
}

function toggleIn(list, value) {
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
  else list.push(value);
}

// How many characters the first to pick is shown: all but the face-up ones and the one put
// face down (2 and 3 players: all but the one face down).
const firstShown = (obs) => 7 - obs.draft.face_up.length;
const firstPicksFirst = (obs) => (obs.first_picker || 0) === (obs.observer || 0);

// A character turned face up or back: a face-up character is shown to nobody, so it leaves
// every row of what you were shown; one turned back joins what the first to pick is shown,
// when that is you and the row has room for it.
function toggleFaceUp(obs, character) {
  const dr = obs.draft;
  toggleIn(dr.face_up, character);
  const up = dr.face_up.includes(character);
  for (const row of dr.shown) row.characters = (row.characters || []).filter((c) => !up || c !== character);
  const first = dr.shown[0];
  if (!up && first && firstPicksFirst(obs) && first.characters.length < firstShown(obs)) {
    first.characters.push(character);
    first.characters.sort(byCharacter);
  }
}

// Why no deal of the characters fits the draft as entered, as far as the page can tell:
// the sentences for a refusal of the draft.
function draftReasons(obs) {
  const dr = obs.draft;
  const reasons = [];
  dr.shown.forEach((row, k) => {
    for (const c of row.characters || []) {
      if (dr.face_up.includes(c)) reasons.push(T("reason.face_up_shown", { character: theCharacter(characterName(c)), n: k + 1 }));
    }
  });
  for (const c of dr.picks) {
    if (dr.face_up.includes(c)) reasons.push(T("reason.face_up_pick", { character: theCharacter(characterName(c)) }));
  }
  const first = dr.shown[0] && (dr.shown[0].characters || []).length;
  if (first && firstPicksFirst(obs) && first !== firstShown(obs)) {
    reasons.push(T("reason.first_shown", { want: firstShown(obs), have: first }));
  }
  return reasons;
}

function renderSetup(root, obs, changed) {
  normalize(obs);
  ui.drawn = obs;
  const edit = (fn) => () => {
    fn();
    changed(normalize(obs));
  };
  const me = obs.observer || 0;
  const counts = left(obs);
  const who = obs.players.map((_, q) => [q, playerName(obs, q)]);

  const general = el(
    "div",
    { class: "row" },
    select("observer", T("you_are"), obs.players.map((_, q) => [q, seat(q)]), me, (v) =>
      edit(() => {
        const next = Number(v);
        [obs.players[me].hand, obs.players[next].hand] = [obs.players[next].hand, obs.players[me].hand];
        obs.players[me].hand_size = obs.players[me].hand.length;
        obs.observer = next;
      })(),
    ),
  );

  const pick = (id) => {
    ui.zone = id;
    changed(obs);
  };
  const tiles = deckTiles({ class: "deck districts", "aria-label": T("districts") }, districts, counts, districtElement, (name) =>
    edit(() => place(obs, name))(),
  );

  const removable = (list, index, onRemove) => {
    const name = districtName(list[index]);
    return placedCard(name, districtElement(name), edit(onRemove || (() => list.splice(index, 1))));
  };
  const unbuild = (view, i) => () => {
    view.city.splice(i, 1);
    view.built_rounds.splice(i, 1);
  };
  const cardsBox = (id, label, list, view = null) =>
    zoneBox({ id, active: ui.zone === id, heading: label, count: list.length, onPick: pick },
      el("div", { class: "cards" }, ...list.map((_, i) => removable(list, i, view && unbuild(view, i)))));

  // Each seat: its name and the crown (a tap gives it the crown), gold and hand size, the
  // characters known to be its own (your picks; another's once revealed), your hand face up
  // or another's face down, its city in the order built.
  const seats = obs.players.map((view, q) => {
    const crown = el("button", { type: "button", class: "crown", "data-crown": q, "aria-pressed": obs.crown === q }, T("crown"));
    crown.onclick = edit(() => (obs.crown = q));
    return seatPanel(
      q,
      playerName(obs, q),
      counterRow({ name: playerName(obs, q), id: q, label: T("gold"), view, field: "gold", edit, mine: q === me, handMax: 40 }, crown),
      seatCharacters(obs, q),
      q === me ? cardsBox("hand", T("zone.hand"), view.hand) : otherHand((view.hand || []).map(districtName), view.hand_size || 0, districtElement),
      cardsBox(`city:${q}`, T("city"), view.city, view),
    );
  });

  // The middle of the table: the round, who picked first, the deck, the draft's characters
  // (face up, and face down), the districts drawn and not placed yet.
  const middle = el(
    "div",
    { class: "table-middle" },
    el(
      "div",
      { class: "row" },
      el("label", {}, T("round"), stepper("round", obs.round, 1, 60, (v) => edit(() => {
        obs.round = v;
        for (const view of obs.players) view.built_rounds = view.built_rounds.map((r) => Math.min(r, v));
      })(), T("round"))),
      select("first-picker", T("first_picker"), who, obs.first_picker, (v) => edit(() => (obs.first_picker = Number(v)))()),
      el("span", { class: "muted", id: "deck" }, T("deck", { count: obs.deck_size })),
    ),
    draftPicture(obs),
    cardsBox("drawn", T("zone.drawn"), obs.decision.drawn),
  );

  replaceKeepingFocus(
    root,
    general,
    rulesEditor(RULES, obs.rules, edit, rulesWords),
    el("div", { class: "table", role: "group", "aria-label": t("setup.table") }, middle, el("div", { class: "seats" }, ...seats)),
    picker(
      el("h2", {}, T("heading.districts")),
      el("p", { class: "muted" }, T("districts_help")),
      targetLine(ui.zone === "hand" ? T("zone.hand") : ui.zone === "drawn" ? T("zone.drawn") : T("zone.city", { who: playerName(obs, Number(ui.zone.split(":")[1])) })),
      tiles,
    ),
    el("h2", {}, T("heading.characters")),
    characterEditor(obs, edit),
    el("h2", {}, T("heading.pending")),
    decisionEditor(obs, edit),
  );
}

// A character as the table shows it: its name, and whether it was killed or robbed.
function characterCard(obs, value) {
  const marks = [obs.killed === value ? T("mark.killed") : null, obs.robbed === value ? T("mark.robbed") : null].filter(Boolean);
  return el("span", { class: "character", "data-character": characterName(value) },
    character(characterName(value)), marks.length ? ` (${marks.join(", ")})` : null);
}

// The characters known to be player q's: the observer's picks, another's revealed ones.
function seatCharacters(obs, q) {
  const own = q === (obs.observer || 0) ? obs.draft.picks : obs.players[q].characters;
  return el("div", { class: "row characters-held" }, el("span", { class: "muted" }, T("seat.characters")),
    ...(own.length ? own.slice().sort(byCharacter).map((c) => characterCard(obs, c)) : [el("span", { class: "muted" }, T("seat.unknown"))]));
}

// The draft as the table shows it: the characters face up, the one put aside face down at
// the start, and those you put face down.
function draftPicture(obs) {
  const dr = obs.draft;
  return el("div", { class: "draft", "data-draft": "" },
    dr.face_up.length ? el("div", { class: "row" }, el("span", { class: "muted" }, T("draft.face_up")), ...dr.face_up.map((c) => characterCard(obs, c))) : null,
    el("div", { class: "row" }, el("span", { class: "muted" }, T("draft.face_down")), faceDown(1),
      dr.discards.length ? el("span", {}, T("draft.yours"), " ", ...dr.discards.map((c) => characterCard(obs, c))) : null));
}

function place(obs, name) {
  const card = toDistrict(name);
  if (ui.zone === "hand") obs.players[obs.observer || 0].hand.push(card);
  else if (ui.zone === "drawn") obs.decision.drawn.push(card);
  else {
    const view = obs.players[Number(ui.zone.split(":")[1])];
    view.city.push(card);
    view.built_rounds.push(obs.round);
  }
}

// The draft as the observer saw it (face-up characters, what it was shown at each pick, its
// picks and face-down discards), then who revealed what this round.
function characterEditor(obs, edit) {
  const n = obs.players.length;
  const dr = obs.draft;
  const has = (list, c) => list.includes(toCharacter(c));
  const rows = [];
  if (faceUpOf(n)) {
    rows.push(el("div", { class: "row", "data-row": "face-up" }, el("strong", {}, T("face_up", { count: faceUpOf(n) })),
      ...CHARACTERS.filter((c) => c !== "king").map((c) =>
        chip(c, has(dr.face_up, c), { "data-face-up": c }, edit(() => toggleFaceUp(obs, toCharacter(c)))))));
  }
  for (let k = 0; k < Math.max(picksOf(n), dr.shown.length); k++) {
    const shown = dr.shown[k] ? dr.shown[k].characters || [] : [];
    rows.push(el("div", { class: "row", "data-row": `shown-${k}` }, el("strong", {}, T("shown_at", { n: k + 1 })),
      ...CHARACTERS.map((c) => chip(c, shown.includes(toCharacter(c)), { "data-shown": `${k}-${c}` }, edit(() => {
        while (dr.shown.length <= k) dr.shown.push({ characters: [] });
        dr.shown[k].characters = dr.shown[k].characters || [];
        toggleIn(dr.shown[k].characters, toCharacter(c));
        dr.shown[k].characters.sort(byCharacter);
        dr.shown = dr.shown.filter((row, i) => i <= k || (row.characters || []).length);
        while (dr.shown.length && !(dr.shown[dr.shown.length - 1].characters || []).length) dr.shown.pop();
      })))));
  }
  rows.push(el("div", { class: "row", "data-row": "picks" }, el("strong", {}, T("picks")),
    ...CHARACTERS.map((c) => chip(c, has(dr.picks, c), { "data-pick": c }, edit(() => toggleIn(dr.picks, toCharacter(c)))))));
  if (n <= 3 || n === 7) {
    rows.push(el("div", { class: "row", "data-row": "discards" }, el("strong", {}, T("discards")),
      ...CHARACTERS.map((c) => chip(c, has(dr.discards, c), { "data-discard": c }, edit(() => toggleIn(dr.discards, toCharacter(c)))))));
  }
  const holder = {};
  for (const r of obs.revealed) holder[characterName(r.character)] = r.player || 0;
  const players = obs.players.map((_, q) => [q, playerName(obs, q)]);
  const revealed = el("div", { class: "row", "data-row": "revealed" }, el("strong", {}, T("revealed")),
    ...CHARACTERS.map((c) => select(`revealed-${c}`, character(c), [["", "—"], ...players], holder[c] ?? "", (v) => edit(() => {
      obs.revealed = obs.revealed.filter((r) => characterName(r.character) !== c);
      if (v !== "") obs.revealed.push({ character: toCharacter(c), player: Number(v) });
      if (c === "king" && v !== "") obs.crown = Number(v);
      obs.players.forEach((view, q) => {
        if (q !== (obs.observer || 0)) view.characters = obs.revealed.filter((r) => (r.player || 0) === q).map((r) => r.character);
      });
    })())));
  const none = [["", T("nobody")], ...CHARACTERS.map((c) => [toCharacter(c), character(c)])];
  const struck = el("div", { class: "row" },
    select("killed", T("killed"), none, obs.killed || "", (v) => edit(() => (v ? (obs.killed = v) : delete obs.killed))()),
    select("robbed", T("robbed"), none, obs.robbed || "", (v) => edit(() => (v ? (obs.robbed = v) : delete obs.robbed))()));
  return el("div", { class: "characters" }, ...rows, revealed, struck);
}

// The decision: a turn belongs to a revealed character, so the choices are the revealed ones
// and the player to act follows from the character chosen.
function decisionEditor(obs, edit) {
  const d = obs.decision;
  const phase = phaseOf(obs);
  const parts = [
    select("phase", T("decision"), PHASES.map((p) => [p, T(`phase.${p}`)]), phase, (v) => edit(() => {
      obs.decision = { phase: P_PREFIX + v, player: d.player || 0, drawn: d.drawn };
      if (v === "END") delete obs.decision.player;
      if (v === "PICK" || v === "DISCARD") obs.draft.step = 0;
      else if (v !== "END") obs.decision.builds_left = 1;
      if (v === "KEEP") obs.decision.keep_left = 1;
    })()),
  ];
  if (phase === "PICK" || phase === "DISCARD") {
    const steps = draftSteps(obs.players.length);
    parts.push(el("label", {}, T("draft_step"), stepper("draft-step", obs.draft.step, 0, steps - 1, (v) => edit(() => (obs.draft.step = v))(), T("draft_step"))));
    parts.push(select("to-act", T("to_act"), obs.players.map((_, q) => [q, playerName(obs, q)]), d.player || 0, (v) => edit(() => (d.player = Number(v)))()));
  } else if (phase !== "END") {
    const turns = obs.revealed.map((r) => [r.character, T("turn_of", { character: character(characterName(r.character)), who: playerName(obs, r.player || 0) })]);
    parts.push(select("called", T("whose_turn"), [["", "—"], ...turns], d.called || "", (v) => edit(() => {
      d.called = v || undefined;
      const r = obs.revealed.find((x) => x.character === v);
      if (r) d.player = r.player || 0;
    })()));
    parts.push(el("label", {}, T("builds_left"), stepper("builds-left", d.builds_left || 0, 0, 3, (v) => edit(() => (d.builds_left = v))(), T("builds_left"))));
    if (phase === "KEEP") parts.push(el("label", {}, T("keep"), stepper("keep-left", d.keep_left || 0, 1, 2, (v) => edit(() => (d.keep_left = v))(), T("keep"))));
    parts.push(checkbox("income-done", T("income_done"), d, "income_done", edit));
    parts.push(checkbox("power-done", T("power_done"), d, "power_done", edit));
    if ((phase === "REDRAW" || phase === "GRAVEYARD") && obs.rules.powers_before_resources) {
      parts.push(checkbox("before-resources", T("before_resources"), d, "before_resources", edit));
    }
  }
  return el("div", { class: "row" }, ...parts);
}

// -- words -------------------------------------------------------------------------------

function cost(name) {
  return costOf(name) ? T("cost", { cost: costOf(name) }) : "";
}

function describeMove(text, obs) {
  const [verb, a, b] = text.split(" ");
  const player = (p) => (p ? playerName(obs, Number(p.slice(1))) : "");
  switch (verb) {
    case "pick":
      return T("move.pick", { character: theCharacter(a) });
    case "discard":
      return T("move.discard", { character: theCharacter(a) });
    case "gold":
      return T("move.gold");
    case "cards":
      return T("move.cards");
    case "keep":
      return T("move.keep", { district: words(a) });
    case "return":
      return T("move.return", { district: words(a) });
    case "build":
      return T("move.build", { district: words(a), cost: cost(a) });
    case "income":
      return T("move.income");
    case "kill":
      return T("move.kill", { character: theCharacter(a) });
    case "rob":
      return T("move.rob", { character: theCharacter(a) });
    case "swap":
      return T("move.swap", { who: player(a) });
    case "redraw":
      return a === "done" ? T("move.redraw_done") : T("move.redraw", { district: words(a) });
    case "destroy":
      return Number(a.slice(1)) === (obs.observer || 0) ? T("move.destroy_own", { district: words(b) }) : T("move.destroy", { who: player(a), district: words(b) });
    case "laboratory":
      return T("move.laboratory", { district: words(a) });
    case "smithy":
      return T("move.smithy");
    case "graveyard":
      return a === "take" ? T("move.graveyard_take") : T("move.graveyard_leave");
    case "end":
      return T("move.end");
    default:
      return text;
  }
}

function describeField(path) {
  if (/^revealed\[(\d+)\]/.test(path)) return T("field.revealed", { n: Number(path.match(/\d+/)[0]) + 1 });
  const p = path.replace(/^observation\./, "").replace(/^citadels\./, "");
  const who = (q) => seat(Number(q));
  const rules = [
    [/^players\[(\d)\]\.city\[(\d+)\]/, (m) => T("field.city", { who: who(m[1]), n: Number(m[2]) + 1 })],
    [/^players\[(\d)\]\.built_rounds/, (m) => T("field.built_rounds", { who: who(m[1]) })],
    [/^players\[(\d)\]\.hand\[(\d+)\]/, (m) => T("field.hand_card", { who: who(m[1]), n: Number(m[2]) + 1 })],
    [/^players\[(\d)\]\.hand/, (m) => T("field.hand", { who: who(m[1]) })],
    [/^players\[(\d)\]\.gold/, (m) => T("field.gold", { who: who(m[1]) })],
    [/^players\[(\d)\]\.characters/, (m) => T("field.characters", { who: who(m[1]) })],
    [/^players\[(\d)\]/, (m) => who(m[1])],
    [/^draft\.face_up/, () => T("field.face_up")],
    [/^draft\.shown\[(\d+)\]/, (m) => T("field.shown_n", { n: Number(m[1]) + 1 })],
    [/^draft\.shown/, () => T("field.shown")],
    [/^draft\.picks/, () => T("field.picks")],
    [/^draft\.discards/, () => T("field.discards")],
    [/^draft\.step/, () => T("field.step")],
    [/^draft/, () => T("field.draft")],
    [/^revealed\[(\d+)\]/, () => T("field.revealed_characters")],
    [/^(killed|robbed)/, (m) => T(`field.${m[1]}`)],
    [/^crown/, () => T("field.crown")],
    [/^first_picker/, () => T("field.first_picker")],
    [/^decision\.called/, () => T("field.called")],
    [/^decision\.drawn/, () => T("field.drawn")],
    [/^decision/, () => T("field.decision")],
    [/^deck_size/, () => T("field.deck")],
    [/^round/, () => T("field.round")],
    [/^observer/, () => T("field.observer")],
  ];
  const place = inWords(rules, p);
  // A refused draft: what the page sees wrong in it, when it sees something.
  const reasons = p.startsWith("draft") && ui.drawn ? draftReasons(ui.drawn) : [];
  return reasons.length ? T("field.reasons", { place, reasons: reasons.join("; ") }) : place;
}

// A rules option's name and description: the game's words, else the service's.
function rulesWords(option) {
  const key = `citadels.rule.${option.name}`;
  return key in CATALOGUE.en ? { name: T(`rule.${option.name}`), help: T(`rule.${option.name}.help`) } : { name: option.name, help: option.description };
}

// What a reveal slot asks, where the game words it: the districts drawn, the one built.
function describeSlot(slot, move, obs) {
  const place = slot.place || "";
  if (slot.kind === "REVEAL_KIND_DRAWN_CARD") return T(place.includes("decision.drawn") ? "slot.drawn" : "slot.hand");
  if (slot.kind === "REVEAL_KIND_MOVE_CARD" && move.startsWith("build ")) {
    return T("slot.built", { who: slot.player === (obs.observer || 0) ? t("you") : seat(slot.player) });
  }
  return null;
}

// A part of what the table showed (the service's words, "P2 is the merchant", "the crown to
// you", "face up: thief, bishop", "round 3"), in words; as it is when it is none of them.
function describeOption(option) {
  const seatOf = (who) => (who === "you" ? t("you") : seat(Number(who.slice(1)) - 1));
  const characters = (list) => list.split(", ").map(character).join(", ");
  return option.split("; ").map((part) => {
    let m;
    if (part === "nothing more") return t("option.nothing_more");
    if ((m = /^round (\d+)$/.exec(part))) return T("outcome.round", { n: m[1] });
    if ((m = /^you are the (\w+)$/.exec(part)) && CHARACTERS.includes(m[1])) return T("outcome.you_are", { character: theCharacter(m[1]) });
    if ((m = /^(P\d+) is the (\w+)$/.exec(part)) && CHARACTERS.includes(m[2])) return T("outcome.is", { who: seatOf(m[1]), character: theCharacter(m[2]) });
    if ((m = /^the crown to (you|P\d+)$/.exec(part))) return T("outcome.crown", { who: seatOf(m[1]) });
    if ((m = /^face up: ([\w, ]+)$/.exec(part))) return T("outcome.face_up", { characters: characters(m[1]) });
    if ((m = /^you are handed: ([\w, ]+)$/.exec(part))) return T("outcome.handed", { characters: characters(m[1]) });
    return part;
  }).join("; ");
}

// A refusal's parameter in words (js/refusal.js), or undefined for the page's own: the
// characters a name is not one of ("assassin, thief, ...").
function paramWords(name, value) {
  if (name === "characters") return value.split(", ").map((c) => (CHARACTERS.includes(c) ? character(c) : c)).join(", ");
  return undefined;
}

// A reason's item in words (js/reasons.js): the score unit, the character feared ("the
// Assassin"), a character of the beliefs' table ("Assassin").
function reasonItem(kind, item) {
  if (kind === "expects") return T("points");
  if (!CHARACTERS.includes(item)) return item;
  return kind === "fears" ? theCharacter(item) : character(item);
}

// The places of the deal the player sees (js/games/index.js's dealPlaces): 2-3 players have
// no face-up characters, and a seat that does not pick first is shown none yet.
const mine = (obs) => obs.players[obs.observer || 0];
const DEAL_PLACES = [
  { key: "hand", where: () => T("zone.hand"), what: () => T("deal.hand"), list: (o) => mine(o).hand || [], clear: (o) => (mine(o).hand = []), exact: true },
  {
    key: "face_up",
    where: () => T("deal.face_up_where"),
    what: () => T("deal.face_up"),
    list: (o) => (o.draft && o.draft.face_up) || [],
    clear: (o) => (o.draft.face_up = []),
    exact: true,
  },
  {
    key: "shown",
    where: () => T("deal.shown_where"),
    what: () => T("deal.shown"),
    list: (o) => (o.draft && o.draft.shown && o.draft.shown[0] && o.draft.shown[0].characters) || [],
    clear: (o) => (o.draft.shown = []),
    exact: true,
  },
];

export default function make(info) {
  districts = new CardTable(info.cards);
  RULES = info.rules_options || [];
  const revealChoices = (obs) => choices(districts, left(normalize(obs)), words, districtElement);
  const cardWords = (name) => (name === "?" || districts.kind(name) >= 0 ? words(name) : null);
  return {
    blank, renderSetup, describeMove, describeField, revealChoices, cardWords, describeSlot, describeOption, rulesWords, reasonItem, paramWords,
    dealPlaces: DEAL_PLACES, firstPlayer: () => T("first_player"),
  };
}
