// Royal Cities: the table drawn (the Market, the discard pile, each seat's VP, hand and
// Cities; a tap on a place chooses where the deck's tapped cards go), the picture of the deck,
// steppers, move texts in plain words, and error paths in words. The position is the
// `royal_cities` branch of a regent.v1.Observation in protobuf JSON; the engine, not this
// page, decides whether it can happen and what is legal. The cards (colour, value, effect,
// copies) and the rules options come from the service's description of the game.
import { addCatalogues, has, seat, t } from "../i18n.js";
import { CardTable, defaultRules } from "../table.js";
import { capital as title, checkbox, inWords, counterRow, deckTiles, el, otherHand, picker, placedCard, replaceKeepingFocus, revealChoices as choices, rulesEditor, seatPanel, stepper, targetLine, zoneBox } from "../ui.js";

// The colour of the cards that have no City of their own: a white card joins a coloured one.
const WHITE = "white";
const PREFIX = "ROYAL_CITIES_COLOUR_";
const PHASE_PREFIX = "ROYAL_CITIES_PHASE_";
// [phase, who plays it: "table" (2-4 players), "solo" (1 player) or "" (both)]; its label is
// the text "royal_cities.phase.<PHASE>".
const PHASES = [
  ["TURN", ""], ["EFFECT", ""], ["KNIGHT_DESTINATION", ""], ["PURCHASE", ""], ["HERO_KEEP", "table"],
  ["CONSTRUCT", ""], ["PASS", "table"], ["FIRST_BUILD", "table"], ["SOLO_OWN", "solo"],
  ["SOLO_REGENT", "solo"], ["SOLO_ADD", "solo"], ["REGENT_WHITE", "solo"], ["TAX", "solo"],
  ["SOLO_TRIM", "solo"], ["END", ""],
];

// The game's words, in its rulebooks' own names (royal-cities.en.md, royal-cities.fr.md).
export const CATALOGUE = {
  en: {
    "royal_cities.title": "Royal Cities",
    "royal_cities.first_player": "P1 is the starting player.",
    "royal_cities.colour.purple": "purple", "royal_cities.colour.yellow": "yellow", "royal_cities.colour.pink": "pink",
    "royal_cities.colour.red": "red", "royal_cities.colour.blue": "blue", "royal_cities.colour.green": "green",
    "royal_cities.colour.white": "white",
    "royal_cities.effect.0": "Emptiness", "royal_cities.effect.1": "Villager", "royal_cities.effect.2": "Jester",
    "royal_cities.effect.3": "Assassin", "royal_cities.effect.4": "Merchant", "royal_cities.effect.5": "Knight",
    "royal_cities.effect.6": "Astrologer",
    "royal_cities.card": "{Colour} {value}",
    "royal_cities.card.unknown": "a card",
    "royal_cities.city": "{Colour} City",
    "royal_cities.city_colour.purple": "purple", "royal_cities.city_colour.yellow": "yellow", "royal_cities.city_colour.pink": "pink",
    "royal_cities.city_colour.red": "red", "royal_cities.city_colour.blue": "blue", "royal_cities.city_colour.green": "green",
    "royal_cities.vp": "VP",
    "royal_cities.phase.TURN": "Turn: play a card, then buy or add",
    "royal_cities.phase.EFFECT": "Choose a played card's effect target",
    "royal_cities.phase.KNIGHT_DESTINATION": "Knight: choose the destination City",
    "royal_cities.phase.PURCHASE": "Buying from the Market",
    "royal_cities.phase.HERO_KEEP": "Hero: choose the card to add",
    "royal_cities.phase.CONSTRUCT": "Season's end: secret construction",
    "royal_cities.phase.PASS": "Setup: pass cards",
    "royal_cities.phase.FIRST_BUILD": "Setup: first build",
    "royal_cities.phase.SOLO_OWN": "Solo setup: your first build",
    "royal_cities.phase.SOLO_REGENT": "Solo setup: the Regent's card",
    "royal_cities.phase.SOLO_ADD": "Solo: a card for the Regent",
    "royal_cities.phase.REGENT_WHITE": "Solo: the Regent's white card",
    "royal_cities.phase.TAX": "Solo: Royal Taxes",
    "royal_cities.phase.SOLO_TRIM": "Solo: trim the Market to four",
    "royal_cities.phase.END": "The game is over",
    "royal_cities.zone.hand": "Your hand",
    "royal_cities.zone.market": "Market",
    "royal_cities.zone.market_up": "Market (face up)",
    "royal_cities.zone.discard": "Discard pile",
    "royal_cities.zone.drawn": "Drawn, not placed yet",
    "royal_cities.zone.cities": "{who}: Cities",
    "royal_cities.regent": "the Regent",
    "royal_cities.regent.capital": "The Regent",
    "royal_cities.cities": "Cities",
    "royal_cities.of_seasons": "of {count}",
    "royal_cities.deck": "the deck",
    "royal_cities.you_are": "You are",
    "royal_cities.season": "Season",
    "royal_cities.reserve": "Reserve",
    "royal_cities.pile": "Draw pile: {count} (what the rest leaves)",
    "royal_cities.cards": "Cards",
    "royal_cities.cards_help": "Tap a place on the table (your hand, the Market, the discard pile, a player's Cities), then tap cards here to put them there; tap a placed card to take it back. Cities fill from the bottom.",
    "royal_cities.white_city": "Which City does {card} go to?",
    "royal_cities.hero_up": "Hero up",
    "royal_cities.bought": "Bought this Season",
    "royal_cities.pending": "Pending decision",
    "royal_cities.to_act": "To act",
    "royal_cities.decision": "Decision",
    "royal_cities.effect": "Effect",
    "royal_cities.turn_played": "already played a card",
    "royal_cities.move.play_hand": "Play {card} from your hand ({effect})",
    "royal_cities.move.play_hand_unknown": "Play a card from the hand",
    "royal_cities.move.play_city": "Play the top card of your {city}",
    "royal_cities.move.purchase": "Buy from the Market",
    "royal_cities.move.add_hero": "Add a card to the Market with your Hero (draw two, keep one)",
    "royal_cities.move.add": "Add a card to the Market",
    "royal_cities.move.buy": "Buy {card}",
    "royal_cities.move.build": "Build {card} in your {city}",
    "royal_cities.move.build_regent": "Build {card} in the Regent's {city}",
    "royal_cities.move.stop": "Stop: nothing more",
    "royal_cities.move.pass": "Pass {card}",
    "royal_cities.move.keep": "Keep {card} for the Market",
    "royal_cities.move.discard": "Discard {card} from the Market",
    "royal_cities.move.take": "Take {card} from the Market",
    "royal_cities.move.city": "Your {city}",
    "royal_cities.move.target_regent": "The top card of the Regent's {city}",
    "royal_cities.move.target_you": "The top card of your {city}",
    "royal_cities.move.target": "The top card of {who}'s {city}",
    "royal_cities.move.regent": "Give {card} to the Regent's {city}",
    "royal_cities.move.tax": "Tax your {city}",
    "royal_cities.move.play_hand_their": "Play {card} from their hand ({effect})",
    "royal_cities.move.play_city_their": "Play the top card of their {city}",
    "royal_cities.move.add_hero_their": "Add a card to the Market with their Hero (draw two, keep one)",
    "royal_cities.move.build_their": "Build {card} in their {city}",
    "royal_cities.move.city_their": "Their {city}",
    "royal_cities.move.tax_their": "Tax their {city}",
    "royal_cities.field.city_card": "{who}'s {city}, card {n} from the bottom",
    "royal_cities.field.city": "{who}'s {city}",
    "royal_cities.field.hand_card": "{who}'s hand, card {n}",
    "royal_cities.field.hand_size": "{who}'s hand size",
    "royal_cities.field.vp": "{who}'s VP",
    "royal_cities.field.regent_card": "the Regent's {city}, card {n}",
    "royal_cities.field.market": "the Market, card {n}",
    "royal_cities.field.discard": "the discard pile, card {n}",
    "royal_cities.field.drawn": "the drawn cards, card {n}",
    "royal_cities.field.decision": "the pending decision",
    "royal_cities.field.pile": "the draw pile (what the other counts leave)",
    "royal_cities.field.reserve": "the Reserve",
    "royal_cities.field.season": "the Season",
    "royal_cities.field.observer": "who you are",
    "royal_cities.field.revealed": "the card you named ({n})",
    "royal_cities.deal.hand": "the cards you were dealt",
    "royal_cities.deal.market": "the cards laid face up in the Market",
    "royal_cities.deal.discard": "the cards the Market's setup discarded, if any",
    "royal_cities.deal.regent": "the cards the Regent's Cities start with",
    "royal_cities.slot.market": "the card turned up from the draw pile for the Market",
    "royal_cities.slot.played": "the card {who} played",
    "royal_cities.slot.kept": "the card {who} kept",
    "royal_cities.slot.first_build": "the card {who} built first, if any",
    "royal_cities.rule.crown_through_white": "crown through white",
    "royal_cities.rule.crown_through_white.help": "count the top crown of the highest purple card even under a white card",
    "royal_cities.rule.hero_on_every_revolt": "Hero on every Revolt",
    "royal_cities.rule.hero_on_every_revolt.help": "a Revolt turns the Hero face up whether or not the revolter had purchased",
    "royal_cities.rule.white_with_existing_partner": "white with an existing partner",
    "royal_cities.rule.white_with_existing_partner.help": "a white card may be built with a coloured card already in that City",
    "royal_cities.rule.catch_up_upper_inclusive": "catch-up, upper bound included",
    "royal_cities.rule.catch_up_upper_inclusive.help": "catch-up bonus spaces b counted as own < b <= leader (not own <= b < leader)",
    "royal_cities.rule.expert_royal_taxes": "expert Royal Taxes",
    "royal_cities.rule.expert_royal_taxes.help": "solo: the expert Royal Taxes (1, 2, then 3 Cities)",
    "royal_cities.rule.regent_scores_revolts": "the Regent scores Revolts",
    "royal_cities.rule.regent_scores_revolts.help": "solo: a Revolt before purchasing gives the Regent its VP, as any other Noble",
    // Refusals: the engine's templates (engine/errors.py), for a person at the table.
    "royal_cities.refusal.must be from 0 to {most}": "must be from 0 to {most}",
    "royal_cities.refusal.no action has id {action}": "no move has number {action}",
    "royal_cities.refusal.cannot read action '{text}'": "cannot read the move “{text}”",
    "royal_cities.refusal.unknown card '{text}' (expected colour-value, e.g. yellow-2)": "unknown card “{text}” (write colour-value, e.g. yellow-2)",
    "royal_cities.refusal.unknown City colour '{text}'": "unknown City colour “{text}”",
    "royal_cities.refusal.expected 'royal_cities', got '{game}'": "is not a Royal Cities position (“{game}”)",
    "royal_cities.refusal.must hold six Cities": "must hold six Cities",
    "royal_cities.refusal.must be a list of card names": "must be a list of cards",
    "royal_cities.refusal.unknown phase '{text}'": "unknown decision “{text}”",
    "royal_cities.refusal.unknown value '{text}'": "unknown value “{text}”",
    "royal_cities.refusal.must be [card, city]": "must be a card and its City",
    "royal_cities.refusal.every player has purchased, yet the Season's turns go on: the Season ends as soon as its last player purchases, so one player must not have purchased yet": "every player has bought, yet the Season goes on: a Season ends as soon as its last player buys, so one player must not have bought yet",
    "royal_cities.refusal.the player purchasing now cannot have purchased already this Season": "the player buying now cannot have bought already this Season",
    "royal_cities.refusal.nobody has purchased yet at this point ({phase}): the marks are cleared at the start of every Season": "nobody has bought yet at this point ({phase}): the marks are cleared at the start of every Season",
    "royal_cities.refusal.secret choices go in seat order from P1: with {player} choosing, exactly the players before it have chosen": "secret choices go in seat order from P1: while {player} chooses, exactly the players before have chosen",
    "royal_cities.refusal.secret choices go in seat order from P1: while you choose, exactly the players before you have chosen": "secret choices go in seat order from P1: while you choose, exactly the players before you have chosen",
    "royal_cities.refusal.every player passes two cards at the start, so each hand holds at least two": "every player passes two cards at the start, so each hand holds at least two",
    "royal_cities.refusal.{count} drawn cards wait to be placed, but this decision ({phase}) has {expected}": "{count} drawn cards wait to be placed, but this decision ({phase}) has {expected}",
    "royal_cities.refusal.holds {colours}: a colour shows more than twice only through the first four cards (a card added later whose colour shows twice starts a Revolt), so at most two cards in all go beyond two of a colour": "holds {colours}: a colour shows more than twice only through the first four cards (a card added later whose colour already shows twice starts a Revolt), so at most two cards in all go beyond two of a colour",
    "royal_cities.refusal.must be a card name": "must be a card",
    "royal_cities.refusal.{card} appears in more places than the deck has copies of it": "{card} is in more places than the game has copies of it",
    "royal_cities.refusal.must be a Royal Cities Observation": "must be a Royal Cities position",
    "royal_cities.refusal.must be 1 to 4": "must be 1 to 4",
    "royal_cities.refusal.must be a player from 0 to {last}": "must be a player from 0 to {last}",
    "royal_cities.refusal.must list {count} players": "must list {count} players",
    "royal_cities.refusal.is given exactly in solo games": "is there in solo games and only there",
    "royal_cities.refusal.{phase} belongs to the solo mode": "{phase} belongs to the solo game",
    "royal_cities.refusal.{phase} belongs to games of 2 to 4 players": "{phase} belongs to games of 2 to 4 players",
    "royal_cities.refusal.is {seasons} with {count} players": "is {seasons} with {count} players",
    "royal_cities.refusal.must be 1 to {most}": "must be 1 to {most}",
    "royal_cities.refusal.out of range: {value}": "out of range: {value}",
    "royal_cities.refusal.must be 0 to {most}": "must be 0 to {most}",
    "royal_cities.refusal.the game ends after the last Season": "the game ends after the last Season",
    "royal_cities.refusal.the players' ranks must be 0 to {last}, each once": "the players' ranks must be 0 to {last}, each once",
    "royal_cities.refusal.holds at most 16 face-up cards": "holds at most 16 face-up cards",
    "royal_cities.refusal.must match the observer's hand": "must match your hand",
    "royal_cities.refusal.is for opponents": "is for the other players",
    "royal_cities.refusal.lists more cards than the hand holds": "lists more cards than the hand holds",
    "royal_cities.refusal.{card} is not in the observer's hand": "{card} is not in your hand",
    "royal_cities.refusal.must name the player to move": "must name the player to act",
    "royal_cities.refusal.at most three cards are drawn": "at most three cards are drawn",
    "royal_cities.refusal.counts do not add up to 85 cards: {placed} placed, {needed} in hidden places, {left} left to place": "the counts do not add up to 85 cards: {placed} placed, {needed} in hidden places, {left} left to place",
    "royal_cities.refusal.describes an impossible position": "describes a position no game reaches",
    "royal_cities.refusal.no legal move can follow this decision": "no move is possible after this decision",
    "royal_cities.refusal.the draw pile holds only {count} cards": "the draw pile holds only {count} cards",
    "royal_cities.refusal.{card} is not among the cards the observer cannot see": "{card} is not among the cards you cannot see",
    "royal_cities.refusal.a City holds at most seven cards": "a City holds at most seven cards",
    "royal_cities.refusal.{card} cannot stand in the {city} City": "{card} cannot stand in the {city}",
    "royal_cities.refusal.cards in a City go strictly upwards in value": "cards in a City go strictly upwards in value",
    "royal_cities.refusal.must be 0 to 6": "must be 0 to 6",
    "royal_cities.refusal.must read like 'p1 red'": "must read like “p1 red”",
    "royal_cities.refusal.must list six Cities": "must list six Cities",
    "royal_cities.refusal.at most two passes, while passing": "at most two cards passed, while passing",
    "royal_cities.refusal.{card} is not in the hand": "{card} is not in the hand",
    "royal_cities.refusal.{card} cannot be selected here": "{card} cannot be chosen here",
    "royal_cities.refusal.selections are listed in canonical order": "the cards chosen are listed in the game's order",
    "royal_cities.refusal.the Astrologer builds at most two cards": "the Astrologer builds at most two cards",
    "royal_cities.refusal.{card} cannot be built in that {city} City: a City takes each value once, going up, and a white card needs a coloured partner built with it": "{card} cannot be built in the {city}: a City takes each value once, going up, and a white card needs a coloured card built with it",
    "royal_cities.refusal.no card has colour number {number}": "no card has colour number {number}",
    "royal_cities.refusal.card values go from 0 to 6, not {value}": "card values go from 0 to 6, not {value}",
    "royal_cities.refusal.must hold six Cities, not {count}": "must hold six Cities, not {count}",
    "royal_cities.refusal.no City has colour number {number}": "no City has colour number {number}",
    "royal_cities.refusal.must list six Cities, not {count}": "must list six Cities, not {count}",
    "royal_cities.refusal.must read like 'p1 red' or 'regent red', not '{text}'": "must read like “p1 red” or “regent red”, not “{text}”",
    "royal_cities.refusal.no phase has number {number}": "no decision has number {number}",
    "royal_cities.refusal.must be 'setup' or 'catch_up', not '{text}'": "must be “setup” or “catch_up”, not “{text}”",
    "royal_cities.refusal.cannot read '{text}': a card and its City, e.g. 'red-2 red'": "cannot read “{text}”: write a card and its City, e.g. “red-2 red”",
    "royal_cities.refusal.a first build is one card": "a first build is one card",
    "royal_cities.refusal.holds fewer cards than that": "holds fewer cards than that",
    "royal_cities.refusal.is inconsistent with the rest: no game reaches it as written": "does not agree with the rest: no game reaches it as written",
    "royal_cities.refusal.cannot read action '{text}': unknown card '{word}' (expected colour-value, e.g. yellow-2)": "cannot read the move “{text}”: unknown card “{word}” (write colour-value, e.g. yellow-2)",
    "royal_cities.refusal.cannot read action '{text}': unknown City colour '{word}'": "cannot read the move “{text}”: unknown City colour “{word}”",
    "royal_cities.refusal.cannot read action '{text}': unknown City owner '{word}' (p0-p3 or regent)": "cannot read the move “{text}”: unknown owner of a City “{word}” (p0 to p3, or regent)",
    "royal_cities.refusal.the observer has passed {count} cards, but it has made its choice: two": "you have passed {count} cards, but you have made your choice: two",
    "royal_cities.refusal.the observer has passed {count} cards, but it is choosing: fewer than two": "you have passed {count} cards, but you are choosing: fewer than two",
    "royal_cities.refusal.the observer has passed {count} cards, but it has not chosen yet: none": "you have passed {count} cards, but you have not chosen yet: none",
    "royal_cities.refusal.{count} drawn cards wait to be placed, but this decision ({phase}) has {low} to {high}": "{count} drawn cards wait to be placed, but this decision ({phase}) has {low} to {high}",
    "royal_cities.refusal.Royal Cities is for 1 to 4 players, not {count}": "Royal Cities is for 1 to 4 players, not {count}",
    "royal_cities.refusal.the draw pile ran out and was reshuffled during this move: set up the position after it by hand": "the draw pile ran out and was reshuffled during this move: set up the position after it by hand",
    // A colour counted in a refusal ("3 red", paramWords).
    "royal_cities.count.purple": "{count} purple",
    "royal_cities.count.yellow": "{count} yellow",
    "royal_cities.count.pink": "{count} pink",
    "royal_cities.count.red": "{count} red",
    "royal_cities.count.blue": "{count} blue",
    "royal_cities.count.green": "{count} green",
    "royal_cities.count.white": "{count} white",
  },
  fr: {
    "royal_cities.title": "Cités Royales",
    "royal_cities.first_player": "J1 est le premier joueur ou la première joueuse.",
    "royal_cities.colour.purple": "violet", "royal_cities.colour.yellow": "jaune", "royal_cities.colour.pink": "rose",
    "royal_cities.colour.red": "rouge", "royal_cities.colour.blue": "bleu", "royal_cities.colour.green": "vert",
    "royal_cities.colour.white": "blanc",
    "royal_cities.effect.0": "Le Vide", "royal_cities.effect.1": "La Villageoise", "royal_cities.effect.2": "Le Bouffon",
    "royal_cities.effect.3": "L'Assassin", "royal_cities.effect.4": "La Marchande", "royal_cities.effect.5": "Le Chevalier",
    "royal_cities.effect.6": "L'Astrologue",
    "royal_cities.card": "{value} {colour}",
    "royal_cities.card.unknown": "une carte",
    "royal_cities.city": "Cité {colour}",
    "royal_cities.city_colour.purple": "violette", "royal_cities.city_colour.yellow": "jaune", "royal_cities.city_colour.pink": "rose",
    "royal_cities.city_colour.red": "rouge", "royal_cities.city_colour.blue": "bleue", "royal_cities.city_colour.green": "verte",
    "royal_cities.vp": "PV",
    "royal_cities.phase.TURN": "Tour : jouer une carte, puis acheter ou ajouter",
    "royal_cities.phase.EFFECT": "Choisir la cible de l'effet de la carte jouée",
    "royal_cities.phase.KNIGHT_DESTINATION": "Chevalier : choisir la Cité de destination",
    "royal_cities.phase.PURCHASE": "Achat au Marché",
    "royal_cities.phase.HERO_KEEP": "Héros : choisir la carte à ajouter",
    "royal_cities.phase.CONSTRUCT": "Fin de Saison : construction secrète",
    "royal_cities.phase.PASS": "Mise en place : passer des cartes",
    "royal_cities.phase.FIRST_BUILD": "Mise en place : première construction",
    "royal_cities.phase.SOLO_OWN": "Mise en place solo : votre première construction",
    "royal_cities.phase.SOLO_REGENT": "Mise en place solo : la carte du Régent",
    "royal_cities.phase.SOLO_ADD": "Solo : une carte pour le Régent",
    "royal_cities.phase.REGENT_WHITE": "Solo : la carte blanche du Régent",
    "royal_cities.phase.TAX": "Solo : Impôts royaux",
    "royal_cities.phase.SOLO_TRIM": "Solo : réduire le Marché à quatre cartes",
    "royal_cities.phase.END": "La partie est finie",
    "royal_cities.zone.hand": "Votre main",
    "royal_cities.zone.market": "Marché",
    "royal_cities.zone.market_up": "Marché (face visible)",
    "royal_cities.zone.discard": "Défausse",
    "royal_cities.zone.drawn": "Piochées, pas encore placées",
    "royal_cities.zone.cities": "{who} : Cités",
    "royal_cities.regent": "le Régent",
    "royal_cities.regent.capital": "Le Régent",
    "royal_cities.cities": "Cités",
    "royal_cities.of_seasons": "sur {count}",
    "royal_cities.deck": "les cartes",
    "royal_cities.you_are": "Vous êtes",
    "royal_cities.season": "Saison",
    "royal_cities.reserve": "Réserve",
    "royal_cities.pile": "Pioche : {count} (ce que le reste laisse)",
    "royal_cities.cards": "Cartes",
    "royal_cities.cards_help": "Touchez un endroit de la table (votre main, le Marché, la défausse, les Cités d'un joueur), puis touchez ici les cartes pour les y mettre ; touchez une carte placée pour la reprendre. Les Cités se remplissent par le bas.",
    "royal_cities.white_city": "Dans quelle Cité va {card} ?",
    "royal_cities.hero_up": "Héros face visible",
    "royal_cities.bought": "A acheté cette Saison",
    "royal_cities.pending": "Décision en attente",
    "royal_cities.to_act": "À jouer",
    "royal_cities.decision": "Décision",
    "royal_cities.effect": "Effet",
    "royal_cities.turn_played": "a déjà joué une carte",
    "royal_cities.move.play_hand": "Jouer {card} de votre main ({effect})",
    "royal_cities.move.play_hand_unknown": "Jouer une carte de la main",
    "royal_cities.move.play_city": "Jouer la carte la plus haute de votre {city}",
    "royal_cities.move.purchase": "Acheter au Marché",
    "royal_cities.move.add_hero": "Ajouter une carte au Marché avec votre Héros (en piocher deux, en garder une)",
    "royal_cities.move.add": "Ajouter une carte au Marché",
    "royal_cities.move.buy": "Acheter {card}",
    "royal_cities.move.build": "Construire {card} dans votre {city}",
    "royal_cities.move.build_regent": "Construire {card} dans la {city} du Régent",
    "royal_cities.move.stop": "Arrêter : rien de plus",
    "royal_cities.move.pass": "Passer {card}",
    "royal_cities.move.keep": "Garder {card} pour le Marché",
    "royal_cities.move.discard": "Défausser {card} du Marché",
    "royal_cities.move.take": "Prendre {card} au Marché",
    "royal_cities.move.city": "Votre {city}",
    "royal_cities.move.target_regent": "La carte la plus haute de la {city} du Régent",
    "royal_cities.move.target_you": "La carte la plus haute de votre {city}",
    "royal_cities.move.target": "La carte la plus haute de la {city} de {who}",
    "royal_cities.move.regent": "Donner {card} à la {city} du Régent",
    "royal_cities.move.tax": "Imposer votre {city}",
    "royal_cities.move.play_hand_their": "Jouer {card} de sa main ({effect})",
    "royal_cities.move.play_city_their": "Jouer la carte la plus haute de sa {city}",
    "royal_cities.move.add_hero_their": "Ajouter une carte au Marché avec son Héros (en piocher deux, en garder une)",
    "royal_cities.move.build_their": "Construire {card} dans sa {city}",
    "royal_cities.move.city_their": "Sa {city}",
    "royal_cities.move.tax_their": "Imposer sa {city}",
    "royal_cities.field.city_card": "{city} de {who}, carte {n} en partant du bas",
    "royal_cities.field.city": "{city} de {who}",
    "royal_cities.field.hand_card": "main de {who}, carte {n}",
    "royal_cities.field.hand_size": "taille de la main de {who}",
    "royal_cities.field.vp": "PV de {who}",
    "royal_cities.field.regent_card": "{city} du Régent, carte {n}",
    "royal_cities.field.market": "le Marché, carte {n}",
    "royal_cities.field.discard": "la défausse, carte {n}",
    "royal_cities.field.drawn": "les cartes piochées, carte {n}",
    "royal_cities.field.decision": "la décision en attente",
    "royal_cities.field.pile": "la pioche (ce que les autres nombres laissent)",
    "royal_cities.field.reserve": "la Réserve",
    "royal_cities.field.season": "la Saison",
    "royal_cities.field.observer": "qui vous êtes",
    "royal_cities.field.revealed": "la carte que vous avez nommée ({n})",
    "royal_cities.deal.hand": "les cartes qui vous ont été distribuées",
    "royal_cities.deal.market": "les cartes posées face visible au Marché",
    "royal_cities.deal.discard": "les cartes défaussées à la mise en place du Marché, s'il y en a",
    "royal_cities.deal.regent": "les cartes de départ des Cités du Régent",
    "royal_cities.slot.market": "la carte piochée pour le Marché",
    "royal_cities.slot.played": "la carte que {who} a jouée",
    "royal_cities.slot.kept": "la carte que {who} a gardée",
    "royal_cities.slot.first_build": "la carte que {who} a construite en premier, s'il y en a une",
    "royal_cities.rule.crown_through_white": "couronne sous une carte blanche",
    "royal_cities.rule.crown_through_white.help": "compter la couronne de la plus haute carte violette même sous une carte blanche",
    "royal_cities.rule.hero_on_every_revolt": "Héros à chaque Révolte",
    "royal_cities.rule.hero_on_every_revolt.help": "une Révolte retourne le Héros face visible, que la personne révoltée ait acheté ou non",
    "royal_cities.rule.white_with_existing_partner": "blanche avec une carte déjà construite",
    "royal_cities.rule.white_with_existing_partner.help": "une carte blanche peut être construite avec une carte de couleur déjà dans cette Cité",
    "royal_cities.rule.catch_up_upper_inclusive": "rattrapage, borne haute comprise",
    "royal_cities.rule.catch_up_upper_inclusive.help": "les cases Bonus de rattrapage b comptées pour soi < b <= meneur (et non soi <= b < meneur)",
    "royal_cities.rule.expert_royal_taxes": "Impôts royaux experts",
    "royal_cities.rule.expert_royal_taxes.help": "solo : les Impôts royaux experts (1, 2, puis 3 Cités)",
    "royal_cities.rule.regent_scores_revolts": "le Régent marque aux Révoltes",
    "royal_cities.rule.regent_scores_revolts.help": "solo : une Révolte avant l'achat donne ses PV au Régent, comme à tout autre Noble",
    // Refusals: the engine's templates (engine/errors.py), for a person at the table.
    "royal_cities.refusal.must be from 0 to {most}": "doit aller de 0 à {most}",
    "royal_cities.refusal.no action has id {action}": "aucun coup ne porte le numéro {action}",
    "royal_cities.refusal.cannot read action '{text}'": "impossible de lire le coup « {text} »",
    "royal_cities.refusal.unknown card '{text}' (expected colour-value, e.g. yellow-2)": "carte inconnue « {text} » (écrivez couleur-valeur, par exemple yellow-2)",
    "royal_cities.refusal.unknown City colour '{text}'": "couleur de Cité inconnue : « {text} »",
    "royal_cities.refusal.expected 'royal_cities', got '{game}'": "n'est pas une position de Cités Royales (« {game} »)",
    "royal_cities.refusal.must hold six Cities": "doit comporter six Cités",
    "royal_cities.refusal.must be a list of card names": "doit être une liste de cartes",
    "royal_cities.refusal.unknown phase '{text}'": "décision inconnue « {text} »",
    "royal_cities.refusal.unknown value '{text}'": "valeur inconnue « {text} »",
    "royal_cities.refusal.must be [card, city]": "doit être une carte et sa Cité",
    "royal_cities.refusal.every player has purchased, yet the Season's turns go on: the Season ends as soon as its last player purchases, so one player must not have purchased yet": "tout le monde a acheté, et pourtant la Saison continue : une Saison s'arrête dès que son dernier joueur achète, donc un joueur au moins n'a pas encore acheté",
    "royal_cities.refusal.the player purchasing now cannot have purchased already this Season": "le joueur qui achète maintenant ne peut pas avoir déjà acheté cette Saison",
    "royal_cities.refusal.nobody has purchased yet at this point ({phase}): the marks are cleared at the start of every Season": "personne n'a encore acheté à ce moment-là ({phase}) : les marques s'effacent au début de chaque Saison",
    "royal_cities.refusal.secret choices go in seat order from P1: with {player} choosing, exactly the players before it have chosen": "les choix secrets se font dans l'ordre des places depuis J1 : pendant que {player} choisit, exactement les joueurs d'avant ont choisi",
    "royal_cities.refusal.secret choices go in seat order from P1: while you choose, exactly the players before you have chosen": "les choix secrets se font dans l'ordre des places depuis J1 : pendant que vous choisissez, exactement les joueurs d'avant vous ont choisi",
    "royal_cities.refusal.every player passes two cards at the start, so each hand holds at least two": "chaque joueur passe deux cartes au début, donc chaque main en compte au moins deux",
    "royal_cities.refusal.{count} drawn cards wait to be placed, but this decision ({phase}) has {expected}": "{count} cartes piochées attendent d'être placées, mais cette décision ({phase}) en prévoit {expected}",
    "royal_cities.refusal.holds {colours}: a colour shows more than twice only through the first four cards (a card added later whose colour shows twice starts a Revolt), so at most two cards in all go beyond two of a colour": "contient {colours} : une couleur ne paraît plus de deux fois que par les quatre premières cartes (une carte ajoutée ensuite dont la couleur paraît déjà deux fois déclenche une Révolte), donc au plus deux cartes en tout dépassent deux d'une couleur",
    "royal_cities.refusal.must be a card name": "doit être une carte",
    "royal_cities.refusal.{card} appears in more places than the deck has copies of it": "{card} se trouve à plus d'endroits que le jeu n'en a d'exemplaires",
    "royal_cities.refusal.must be a Royal Cities Observation": "doit être une position de Cités Royales",
    "royal_cities.refusal.must be 1 to 4": "doit aller de 1 à 4",
    "royal_cities.refusal.must be a player from 0 to {last}": "doit être un joueur de 0 à {last}",
    "royal_cities.refusal.must list {count} players": "doit compter {count} joueurs",
    "royal_cities.refusal.is given exactly in solo games": "n'existe qu'en partie solo, et toujours en solo",
    "royal_cities.refusal.{phase} belongs to the solo mode": "{phase} n'existe qu'en partie solo",
    "royal_cities.refusal.{phase} belongs to games of 2 to 4 players": "{phase} n'existe qu'en partie de 2 à 4 joueurs",
    "royal_cities.refusal.is {seasons} with {count} players": "vaut {seasons} à {count} joueurs",
    "royal_cities.refusal.must be 1 to {most}": "doit aller de 1 à {most}",
    "royal_cities.refusal.out of range: {value}": "hors limites : {value}",
    "royal_cities.refusal.must be 0 to {most}": "doit aller de 0 à {most}",
    "royal_cities.refusal.the game ends after the last Season": "la partie se termine après la dernière Saison",
    "royal_cities.refusal.the players' ranks must be 0 to {last}, each once": "les rangs des joueurs doivent aller de 0 à {last}, chacun une fois",
    "royal_cities.refusal.holds at most 16 face-up cards": "compte au plus 16 cartes face visible",
    "royal_cities.refusal.must match the observer's hand": "doit correspondre à votre main",
    "royal_cities.refusal.is for opponents": "concerne les autres joueurs",
    "royal_cities.refusal.lists more cards than the hand holds": "compte plus de cartes que la main n'en contient",
    "royal_cities.refusal.{card} is not in the observer's hand": "{card} n'est pas dans votre main",
    "royal_cities.refusal.must name the player to move": "doit désigner le joueur qui doit jouer",
    "royal_cities.refusal.at most three cards are drawn": "on pioche au plus trois cartes",
    "royal_cities.refusal.counts do not add up to 85 cards: {placed} placed, {needed} in hidden places, {left} left to place": "le compte ne fait pas 85 cartes : {placed} placées, {needed} en lieux cachés, {left} restant à placer",
    "royal_cities.refusal.describes an impossible position": "décrit une position qu'aucune partie n'atteint",
    "royal_cities.refusal.no legal move can follow this decision": "aucun coup n'est possible après cette décision",
    "royal_cities.refusal.the draw pile holds only {count} cards": "la pioche ne contient que {count} cartes",
    "royal_cities.refusal.{card} is not among the cards the observer cannot see": "{card} ne fait pas partie des cartes que vous ne voyez pas",
    "royal_cities.refusal.a City holds at most seven cards": "une Cité compte au plus sept cartes",
    "royal_cities.refusal.{card} cannot stand in the {city} City": "{card} ne peut pas se trouver dans la {city}",
    "royal_cities.refusal.cards in a City go strictly upwards in value": "les cartes d'une Cité montent en valeur, chacune plus haute que celle du dessous",
    "royal_cities.refusal.must be 0 to 6": "doit aller de 0 à 6",
    "royal_cities.refusal.must read like 'p1 red'": "doit s'écrire comme « p1 red »",
    "royal_cities.refusal.must list six Cities": "doit compter six Cités",
    "royal_cities.refusal.at most two passes, while passing": "au plus deux cartes passées, pendant le passage",
    "royal_cities.refusal.{card} is not in the hand": "{card} n'est pas dans la main",
    "royal_cities.refusal.{card} cannot be selected here": "{card} ne peut pas être choisie ici",
    "royal_cities.refusal.selections are listed in canonical order": "les cartes choisies sont listées dans l'ordre du jeu",
    "royal_cities.refusal.the Astrologer builds at most two cards": "l'Astrologue construit au plus deux cartes",
    "royal_cities.refusal.{card} cannot be built in that {city} City: a City takes each value once, going up, and a white card needs a coloured partner built with it": "{card} ne peut pas être construite dans la {city} : une Cité prend chaque valeur une fois, en montant, et une carte blanche doit être construite avec une carte de couleur",
    "royal_cities.refusal.no card has colour number {number}": "aucune carte n'a la couleur numéro {number}",
    "royal_cities.refusal.card values go from 0 to 6, not {value}": "les valeurs des cartes vont de 0 à 6, pas {value}",
    "royal_cities.refusal.must hold six Cities, not {count}": "doit comporter six Cités, pas {count}",
    "royal_cities.refusal.no City has colour number {number}": "aucune Cité n'a la couleur numéro {number}",
    "royal_cities.refusal.must list six Cities, not {count}": "doit compter six Cités, pas {count}",
    "royal_cities.refusal.must read like 'p1 red' or 'regent red', not '{text}'": "doit s'écrire comme « p1 red » ou « regent red », pas « {text} »",
    "royal_cities.refusal.no phase has number {number}": "aucune décision ne porte le numéro {number}",
    "royal_cities.refusal.must be 'setup' or 'catch_up', not '{text}'": "doit valoir « setup » ou « catch_up », pas « {text} »",
    "royal_cities.refusal.cannot read '{text}': a card and its City, e.g. 'red-2 red'": "impossible de lire « {text} » : écrivez une carte et sa Cité, par exemple « red-2 red »",
    "royal_cities.refusal.a first build is one card": "une première construction est une seule carte",
    "royal_cities.refusal.holds fewer cards than that": "contient moins de cartes que cela",
    "royal_cities.refusal.is inconsistent with the rest: no game reaches it as written": "ne s'accorde pas avec le reste : aucune partie n'y mène telle qu'elle est saisie",
    "royal_cities.refusal.cannot read action '{text}': unknown card '{word}' (expected colour-value, e.g. yellow-2)": "impossible de lire le coup « {text} » : carte inconnue « {word} » (écrivez couleur-valeur, par exemple yellow-2)",
    "royal_cities.refusal.cannot read action '{text}': unknown City colour '{word}'": "impossible de lire le coup « {text} » : couleur de Cité inconnue « {word} »",
    "royal_cities.refusal.cannot read action '{text}': unknown City owner '{word}' (p0-p3 or regent)": "impossible de lire le coup « {text} » : propriétaire de Cité inconnu « {word} » (p0 à p3, ou regent)",
    "royal_cities.refusal.the observer has passed {count} cards, but it has made its choice: two": "vous avez passé {count} cartes, mais vous avez fait votre choix : deux",
    "royal_cities.refusal.the observer has passed {count} cards, but it is choosing: fewer than two": "vous avez passé {count} cartes, mais vous êtes en train de choisir : moins de deux",
    "royal_cities.refusal.the observer has passed {count} cards, but it has not chosen yet: none": "vous avez passé {count} cartes, mais vous n'avez pas encore choisi : aucune",
    "royal_cities.refusal.{count} drawn cards wait to be placed, but this decision ({phase}) has {low} to {high}": "{count} cartes piochées attendent d'être placées, mais cette décision ({phase}) en prévoit de {low} à {high}",
    "royal_cities.refusal.Royal Cities is for 1 to 4 players, not {count}": "Cités Royales se joue de 1 à 4 joueurs, pas {count}",
    "royal_cities.refusal.the draw pile ran out and was reshuffled during this move: set up the position after it by hand": "la pioche s'est vidée et a été remélangée pendant ce coup : saisissez à la main la position qui suit",
    // A colour counted in a refusal ("3 red", paramWords).
    "royal_cities.count.purple": "{count} cartes violettes",
    "royal_cities.count.yellow": "{count} cartes jaunes",
    "royal_cities.count.pink": "{count} cartes roses",
    "royal_cities.count.red": "{count} cartes rouges",
    "royal_cities.count.blue": "{count} cartes bleues",
    "royal_cities.count.green": "{count} cartes vertes",
    "royal_cities.count.white": "{count} cartes blanches",
  },
};
addCatalogues(CATALOGUE);
const T = (key, params) => t(`royal_cities.${key}`, params);

// Set by make() from the service's description: the card table, the Cities' colours (the
// colours of the kinds but white, in kind order: the proto's City order), the effect of
// each value, the rules options, and what the scores count.
let deck = new CardTable([]);
let CITIES = [];
let EFFECTS = [];
let RULES = [];

// The place cards go when tapped in the deck, and a white card waiting for its City.
const ui = { zone: "hand", white: null };

const colourOf = (name) => deck.attribute(name, "colour");
const valueOf = (name) => deck.attribute(name, "value");
const cardName = (card) => `${(card.colour || "").replace(PREFIX, "").toLowerCase()}-${card.value || 0}`;
const toCard = (name) => ({ colour: PREFIX + colourOf(name).toUpperCase(), value: Number(valueOf(name)) });
const byKind = (a, b) => deck.kind(cardName(a)) - deck.kind(cardName(b));
const phaseOf = (obs) => ((obs.decision && obs.decision.phase) || "").replace(PHASE_PREFIX, "");

function playerName(obs, q) {
  if (q === "regent") return T("regent");
  return q === (obs.observer || 0) ? t("you.capital") : seat(q);
}

const colourWords = (colour) => T(`colour.${colour}`);
// A City's name: its colour agrees with it (la Cité bleue, as the French rulebook writes).
const cityWords = (colour) => T("city", { colour: T(`city_colour.${colour}`), Colour: title(T(`city_colour.${colour}`)) });

function cardElement(name, extra = "") {
  const [colour, value] = [colourOf(name), valueOf(name)];
  return el(
    "span",
    { class: `card c-${colour}`, title: cardWords(name) },
    el("span", { class: "value" }, value),
    el("span", { class: "name" }, colourWords(colour)),
    extra ? el("span", { class: "left" }, extra) : null,
  );
}

function emptyCities() {
  return CITIES.map(() => ({ cards: [] }));
}

function blank(numPlayers) {
  const players = [];
  for (let q = 0; q < numPlayers; q++) {
    players.push({ vp: 0, age_rank: q, hand_size: 0, hand: [], cities: emptyCities() });
  }
  const obs = {
    observer: 0,
    num_players: numPlayers,
    rules: defaultRules(RULES),
    season: 1,
    num_seasons: numPlayers === 4 ? 3 : 4,
    starter: 0,
    last_purchaser: 0,
    players,
    market: [],
    discard: [],
    pile_size: 0,
    reserve_size: 4,
    decision: { phase: PHASE_PREFIX + "TURN", player: 0 },
  };
  if (numPlayers === 1) obs.regent = { vp: 0, cities: emptyCities() };
  return normalize(obs);
}

// Fill the fields protobuf JSON leaves out (zeros, empty lists), sort what the engine keeps
// sorted, and recount the draw pile: what no other place holds.
function normalize(obs) {
  obs.players = obs.players || [];
  for (const view of obs.players) {
    view.hand = (view.hand || []).slice().sort(byKind);
    view.cities = view.cities && view.cities.length ? view.cities : emptyCities();
    for (const city of view.cities) city.cards = city.cards || [];
    view.vp = view.vp || 0;
    view.hand_size = view.hand_size || 0;
  }
  if (obs.regent) {
    obs.regent.cities = obs.regent.cities && obs.regent.cities.length ? obs.regent.cities : emptyCities();
    for (const city of obs.regent.cities) city.cards = city.cards || [];
  }
  obs.rules = obs.rules || {};
  obs.market = (obs.market || []).slice().sort(byKind);
  obs.discard = (obs.discard || []).slice().sort(byKind);
  obs.decision = obs.decision || { phase: PHASE_PREFIX + "TURN", player: 0 };
  obs.decision.drawn = (obs.decision.drawn || []).slice().sort(byKind);
  const me = obs.observer || 0;
  if (obs.players[me]) obs.players[me].hand_size = obs.players[me].hand.length;
  obs.pile_size = pileSize(obs);
  return obs;
}

function placedCards(obs) {
  const names = [];
  const add = (cards) => cards.forEach((card) => names.push(cardName(card)));
  add(obs.market);
  add(obs.discard);
  add(obs.decision.drawn || []);
  for (const view of obs.players) {
    add(view.hand);
    view.cities.forEach((city) => add(city.cards));
  }
  if (obs.regent) obs.regent.cities.forEach((city) => add(city.cards));
  return names;
}

function pileSize(obs) {
  const me = obs.observer || 0;
  let hidden = (obs.reserve_size || 0) + (obs.decision.drawn_hidden || 0);
  obs.players.forEach((view, q) => {
    if (q !== me) hidden += view.hand_size - view.hand.length;
  });
  return deck.size - placedCards(obs).length - hidden;
}

const left = (obs) => deck.left(placedCards(obs));

// -- the setup editor --------------------------------------------------------------------

function citiesOf(obs, owner) {
  return owner === "regent" ? obs.regent.cities : obs.players[Number(owner)].cities;
}

function place(obs, name, city) {
  const card = toCard(name);
  if (ui.zone === "hand") obs.players[obs.observer || 0].hand.push(card);
  else if (ui.zone === "market") obs.market.push(card);
  else if (ui.zone === "discard") obs.discard.push(card);
  else if (ui.zone === "drawn") obs.decision.drawn.push(card);
  else {
    const owner = ui.zone.split(":")[1];
    const colour = city === undefined ? CITIES.indexOf(colourOf(name)) : city;
    citiesOf(obs, owner)[colour].cards.push(card);
  }
}

function renderSetup(root, obs, changed) {
  normalize(obs);
  const edit = (fn) => () => {
    fn();
    changed(normalize(obs));
  };
  const counts = left(obs);
  const me = obs.observer || 0;
  const solo = obs.num_players === 1;

  const observer = el(
    "select",
    { id: "observer", "aria-label": T("you_are") },
    ...obs.players.map((_, q) => el("option", { value: q, selected: q === me }, seat(q))),
  );
  observer.onchange = edit(() => {
    const was = obs.players[me];
    const now = obs.players[Number(observer.value)];
    [was.hand, now.hand] = [now.hand, was.hand];
    obs.observer = Number(observer.value);
  });

  const tiles = deckTiles({ "aria-label": T("deck") }, deck, counts, cardElement, (name) => {
    if (colourOf(name) === WHITE && ui.zone.startsWith("cities:")) {
      ui.white = name;
      changed(obs);
      return;
    }
    edit(() => place(obs, name))();
  });

  const chooser = ui.white
    ? el(
        "div",
        { class: "notice", id: "white-city" },
        T("white_city", { card: cardWords(ui.white) }),
        " ",
        ...CITIES.map((city, c) => {
          const button = el("button", { type: "button", "data-city": city }, title(colourWords(city)));
          button.onclick = edit(() => {
            place(obs, ui.white, c);
            ui.white = null;
          });
          return button;
        }),
      )
    : null;

  const pick = (id) => {
    ui.zone = id;
    ui.white = null;
    changed(obs);
  };
  const removable = (list, index) => {
    const name = cardName(list[index]);
    return placedCard(name, cardElement(name), edit(() => list.splice(index, 1)));
  };
  const cardsBox = (id, label, list, wide = false) =>
    zoneBox({ id, active: ui.zone === id, heading: label, count: list.length, onPick: pick },
      el("div", { class: wide ? "cards row-scroll" : "cards" }, ...list.map((_, i) => removable(list, i))));
  // A player's Cities side by side, one column a colour, each stacked upwards by value.
  const cityBox = (owner) =>
    zoneBox(
      { id: `cities:${owner}`, active: ui.zone === `cities:${owner}`, heading: T("cities"), onPick: pick },
      el(
        "div",
        { class: "cities" },
        ...citiesOf(obs, owner).map((city, c) =>
          el(
            "div",
            { class: `city city-${CITIES[c]}`, title: cityWords(CITIES[c]), "data-city": CITIES[c] },
            ...city.cards.map((_, i) => removable(city.cards, i)),
          ),
        ),
      ),
    );

  // Each seat: its name, VP and hand size, the Hero and purchase marks; your hand face up,
  // another's face down; its Cities.
  const seats = obs.players.map((view, q) =>
    seatPanel(
      q,
      playerName(obs, q),
      counterRow(
        { name: playerName(obs, q), id: q, label: T("vp"), view, field: "vp", edit, mine: q === me, handMax: 30 },
        solo ? null : checkbox(`hero-${q}`, T("hero_up"), view, "hero_up", edit),
        checkbox(`purchased-${q}`, T("bought"), view, "purchased", edit),
      ),
      q === me ? cardsBox("hand", T("zone.hand"), view.hand) : otherHand((view.hand || []).map(cardName), view.hand_size || 0, cardElement),
      cityBox(q),
    ),
  );
  if (obs.regent) {
    seats.push(
      seatPanel(
        "regent",
        T("regent.capital"),
        counterRow({ name: T("regent.capital"), id: "regent", label: T("vp"), view: obs.regent, field: "vp", edit }),
        cityBox("regent"),
      ),
    );
  }

  // The middle of the table: the Season, the Reserve and the draw pile, the Market row, the
  // discard pile, the cards drawn and not placed yet.
  const middle = el(
    "div",
    { class: "table-middle" },
    el(
      "div",
      { class: "row" },
      el("label", {}, T("season"), stepper("season", obs.season, 1, obs.num_seasons, (v) => edit(() => (obs.season = v))(), T("season")),
        el("span", { class: "muted" }, T("of_seasons", { count: obs.num_seasons }))),
      el("label", {}, T("reserve"), stepper("reserve", obs.reserve_size, 0, 4, (v) => edit(() => (obs.reserve_size = v))(), T("reserve"))),
      el("span", { class: "muted", id: "pile" }, T("pile", { count: obs.pile_size })),
    ),
    cardsBox("market", T("zone.market_up"), obs.market),
    cardsBox("discard", T("zone.discard"), obs.discard, true),
    cardsBox("drawn", T("zone.drawn"), obs.decision.drawn),
  );

  const general = el(
    "div",
    { class: "row" },
    el("label", {}, T("you_are"), observer),
  );

  const parts = [
    general,
    rulesEditor(RULES, obs.rules, edit, rulesWords),
    el("div", { class: "table", role: "group", "aria-label": t("setup.table") }, middle, el("div", { class: "seats" }, ...seats)),
    picker(el("h2", {}, T("cards")), el("p", { class: "muted" }, T("cards_help")), targetLine(zoneWords(obs, ui.zone)), chooser, tiles),
    el("h2", {}, T("pending")),
    decisionEditor(obs, edit),
  ];
  replaceKeepingFocus(root, ...parts.filter(Boolean));
}

// The place tapped cards go, in words ("Your hand", "P2: Cities").
function zoneWords(obs, zone) {
  const fixed = { hand: "zone.hand", market: "zone.market", discard: "zone.discard", drawn: "zone.drawn" };
  if (zone in fixed) return T(fixed[zone]);
  const owner = zone.split(":")[1];
  return T("zone.cities", { who: owner === "regent" ? T("regent.capital") : playerName(obs, Number(owner)) });
}

function decisionEditor(obs, edit) {
  const d = obs.decision;
  const solo = obs.num_players === 1;
  const who = el(
    "select",
    { id: "to-act", "aria-label": T("to_act") },
    ...obs.players.map((_, q) => el("option", { value: q, selected: d.player === q }, playerName(obs, q))),
  );
  who.onchange = edit(() => (d.player = Number(who.value)));
  const phase = el(
    "select",
    { id: "phase", "aria-label": T("decision") },
    ...PHASES.filter(([, mode]) => !mode || mode === (solo ? "solo" : "table")).map(([value]) =>
      el("option", { value, selected: phaseOf(obs) === value }, T(`phase.${value}`)),
    ),
  );
  phase.onchange = edit(() => {
    obs.decision = { phase: PHASE_PREFIX + phase.value, player: d.player || 0, drawn: d.drawn };
    if (phase.value === "EFFECT") obs.decision.effect = 2;
    if (phase.value === "END") delete obs.decision.player;
  });
  const parts = [el("label", {}, T("to_act"), who), el("label", {}, T("decision"), phase)];
  if (phaseOf(obs) === "EFFECT") {
    const effect = el(
      "select",
      { id: "effect", "aria-label": T("effect") },
      ...EFFECTS.map((value) => el("option", { value, selected: (d.effect || 0) === value }, `${value} ${T(`effect.${value}`)}`)),
    );
    effect.onchange = edit(() => (d.effect = Number(effect.value)));
    parts.push(el("label", {}, T("effect"), effect));
  }
  if (phaseOf(obs) === "TURN") parts.push(checkbox("turn-played", T("turn_played"), d, "turn_played", edit));
  return el("div", { class: "row" }, ...parts);
}

// -- words -------------------------------------------------------------------------------

// A card in words ("Red 2", "2 rouge"); "?" is a card not known; null for no card.
function cardWords(name) {
  if (name === "?") return T("card.unknown");
  if (deck.kind(name) < 0) return null;
  const colour = colourWords(colourOf(name));
  return T("card", { colour, Colour: title(colour), value: valueOf(name) });
}

// A refusal's parameter in words (js/refusal.js): a decision by its name on the page, a City
// by its colour, the colours a Market shows too often with their counts; undefined for the
// page's own (seats, cards, moves).
function paramWords(name, value) {
  const phase = `royal_cities.phase.${String(value).toUpperCase()}`;
  if (name === "phase" && has(phase)) return t(phase);
  if (name === "city" && CITIES.includes(value)) return cityWords(value);
  if (name === "colours") {
    // "3 red, 4 blue": each colour shown more than twice, with its count
    return String(value).split(", ").map((part) => {
      const [count, colour] = part.split(" ");
      return has(`royal_cities.count.${colour}`) ? T(`count.${colour}`, { count }) : part;
    }).join(", ");
  }
  return undefined;
}

// A reason's item in words (js/reasons.js): the score unit, or the colour whose majority
// the move keeps ("red", "rouge").
const reasonItem = (kind, item) => (kind === "expects" ? T("vp") : CITIES.includes(item) ? colourWords(item) : item);

// The moves whose words name the mover's own hand, Hero or cities.
const THEIR = new Set(["move.play_hand", "move.play_city", "move.add_hero", "move.build", "move.city", "move.tax"]);

// A move in words. `mover` makes it (default: the player to act in `obs`); the mover's own
// hand and cities are "your" when the mover is the observer, "their" otherwise.
function describeMove(text, obs, mover = (obs.decision || {}).player || 0) {
  const words = text.split(" ");
  const [verb, a, b, c] = words;
  const theirs = mover !== (obs.observer || 0);
  const say = (key, params) => T(theirs && THEIR.has(key) ? `${key}_their` : key, params);
  const card = (name) => cardWords(name) || name;
  const city = (colour) => (CITIES.includes(colour) ? cityWords(colour) : colour);
  const effect = (name) => T(`effect.${valueOf(name)}`);
  switch (verb) {
    case "play":
      if (a === "hand") return b === "?" ? say("move.play_hand_unknown") : say("move.play_hand", { card: card(b), effect: effect(b) });
      return say("move.play_city", { city: city(b) });
    case "purchase":
      return say("move.purchase");
    case "add":
      return a === "hero" ? say("move.add_hero") : say("move.add");
    case "buy":
      return say("move.buy", { card: card(a) });
    case "build":
      return say(phaseOf(obs) === "SOLO_REGENT" ? "move.build_regent" : "move.build", { card: card(a), city: city(b) });
    case "stop":
      return say("move.stop");
    case "pass":
      return say("move.pass", { card: card(a) });
    case "keep":
      return say("move.keep", { card: card(a) });
    case "discard":
      return say("move.discard", { card: card(b) });
    case "take":
      return say("move.take", { card: card(b) });
    case "city":
      return say("move.city", { city: city(a) });
    case "target": {
      if (a === "regent") return say("move.target_regent", { city: city(b) });
      const q = Number(a.slice(1));
      return q === (obs.observer || 0) ? say("move.target_you", { city: city(b) }) : say("move.target", { who: seat(q), city: city(b) });
    }
    case "regent":
      return say("move.regent", { card: card(a), city: city(b) });
    case "tax":
      return say("move.tax", { city: city(a) });
    default:
      return [verb, a, b, c].filter(Boolean).join(" ");
  }
}

// A rules option's name and description: the game's words, else the service's.
function rulesWords(option) {
  const key = `royal_cities.rule.${option.name}`;
  return key in CATALOGUE.en ? { name: T(`rule.${option.name}`), help: T(`rule.${option.name}.help`) } : { name: option.name, help: option.description };
}

// What a reveal slot asks, in the game's words where it has its own: the Market's card, the
// card of a move (played, kept), the first build of the setup; the rest as any game's.
function describeSlot(slot, move, obs) {
  const place = slot.place || "";
  const who = slot.player === undefined || slot.player === (obs.observer || 0) ? t("you") : seat(slot.player);
  if (slot.kind === "REVEAL_KIND_DRAWN_CARD" && /\.(market|discard)$/.test(place)) return T("slot.market");
  if (slot.kind === "REVEAL_KIND_MOVE_CARD") return T(move.startsWith("keep") ? "slot.kept" : "slot.played", { who });
  if (slot.kind === "REVEAL_KIND_SECRET_CHOICE" && place.endsWith(".cities") && phaseOf(obs) === "FIRST_BUILD") return T("slot.first_build", { who });
  return null;
}

function describeField(path) {
  const p = path.replace(/^observation\./, "").replace(/^royal_cities\./, "");
  const who = (q) => seat(Number(q));
  const city = (c) => cityWords(CITIES[c]);
  const n = (i) => Number(i) + 1;
  const rules = [
    [/^players\[(\d)\]\.cities\[(\d)\](?:\.cards)?\[(\d+)\]/, (m) => T("field.city_card", { who: who(m[1]), city: city(m[2]), n: n(m[3]) })],
    [/^players\[(\d)\]\.cities\[(\d)\]/, (m) => T("field.city", { who: who(m[1]), city: city(m[2]) })],
    [/^players\[(\d)\]\.hand\[(\d+)\]/, (m) => T("field.hand_card", { who: who(m[1]), n: n(m[2]) })],
    [/^players\[(\d)\]\.hand_size/, (m) => T("field.hand_size", { who: who(m[1]) })],
    [/^players\[(\d)\]\.vp/, (m) => T("field.vp", { who: who(m[1]) })],
    [/^players\[(\d)\]/, (m) => who(m[1])],
    [/^regent\.cities\[(\d)\](?:\.cards)?\[(\d+)\]/, (m) => T("field.regent_card", { city: city(m[1]), n: n(m[2]) })],
    [/^market\[(\d+)\]/, (m) => T("field.market", { n: n(m[1]) })],
    [/^discard\[(\d+)\]/, (m) => T("field.discard", { n: n(m[1]) })],
    [/^decision\.drawn\[(\d+)\]/, (m) => T("field.drawn", { n: n(m[1]) })],
    [/^decision/, () => T("field.decision")],
    [/^pile_size/, () => T("field.pile")],
    [/^reserve_size/, () => T("field.reserve")],
    [/^season/, () => T("field.season")],
    [/^observer/, () => T("field.observer")],
    [/^revealed\[(\d+)\]/, (m) => T("field.revealed", { n: n(m[1]) })],
  ];
  return inWords(rules, p);
}

// The places of the deal the player sees (js/games/index.js's dealPlaces): the Market setup
// discards the cards of a colour already laid, so the discard pile and the Regent's Cities
// (the solo game's) vary with the cards turned up.
const mine = (obs) => obs.players[obs.observer || 0];
const DEAL_PLACES = [
  { key: "hand", where: () => T("zone.hand"), what: () => T("deal.hand"), list: (o) => mine(o).hand || [], clear: (o) => (mine(o).hand = []), exact: true },
  { key: "market", where: () => T("zone.market"), what: () => T("deal.market"), list: (o) => o.market || [], clear: (o) => (o.market = []), exact: true },
  { key: "discard", where: () => T("zone.discard"), what: () => T("deal.discard"), list: (o) => o.discard || [], clear: (o) => (o.discard = []), exact: false },
  {
    key: "regent",
    where: () => T("zone.cities", { who: T("regent.capital") }),
    what: () => T("deal.regent"),
    list: (o) => (o.regent ? (o.regent.cities || []).flatMap((c) => c.cards || []) : []),
    clear: (o) => o.regent && (o.regent.cities || []).forEach((c) => (c.cards = [])),
    exact: false,
    present: (o) => Boolean(o.regent),
  },
];

export default function make(info) {
  deck = new CardTable(info.cards);
  CITIES = deck.values("colour").filter((colour) => colour !== WHITE);
  EFFECTS = [...new Set(deck.cards.filter((card) => card.attributes.effect).map((card) => Number(card.attributes.value)))].sort();
  RULES = info.rules_options || [];
  const revealChoices = (obs) => choices(deck, left(normalize(obs)), cardWords, cardElement);
  // A built card's City: its colour's, or a choice among them for a white card.
  const cityOf = (name) => (colourOf(name) === WHITE ? CITIES : colourOf(name));
  return {
    blank, renderSetup, describeMove, describeField, revealChoices, cityOf, cardWords, cityWords,
    dealPlaces: DEAL_PLACES, firstPlayer: () => T("first_player"), describeSlot, rulesWords, reasonItem, paramWords,
  };
}
