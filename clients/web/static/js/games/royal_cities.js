// Royal Cities: the setup editor (a picture of the deck, places to tap cards into, steppers),
// move texts in plain words, and error paths in words. The position is the
// `royal_cities` branch of a regent.v1.Observation in protobuf JSON; the engine, not this
// page, decides whether it can happen and what is legal. The cards (colour, value, effect,
// copies) and the rules options come from the service's description of the game.
import { CardTable, defaultRules } from "../table.js";
import { capital as title, checkbox, inWords, counterRow, deckTiles, el, placedCard, replaceKeepingFocus, revealChoices as choices, rulesEditor, stepper, zoneBox, zoneTabs } from "../ui.js";

// The colour of the cards that have no City of their own: a white card joins a coloured one.
const WHITE = "white";
const PREFIX = "ROYAL_CITIES_COLOUR_";
const PHASE_PREFIX = "ROYAL_CITIES_PHASE_";
// [phase, label, who plays it: "table" (2-4 players), "solo" (1 player) or "" (both)]
const PHASES = [
  ["TURN", "Turn: play a card, then buy or add", ""],
  ["EFFECT", "Choose a played card's effect target", ""],
  ["KNIGHT_DESTINATION", "Knight: choose the destination City", ""],
  ["PURCHASE", "Buying from the Market", ""],
  ["HERO_KEEP", "Hero: choose the card to add", "table"],
  ["CONSTRUCT", "Season's end: secret construction", ""],
  ["PASS", "Setup: pass cards", "table"],
  ["FIRST_BUILD", "Setup: first build", "table"],
  ["SOLO_OWN", "Solo setup: your first build", "solo"],
  ["SOLO_REGENT", "Solo setup: the Regent's card", "solo"],
  ["SOLO_ADD", "Solo: a card for the Regent", "solo"],
  ["REGENT_WHITE", "Solo: the Regent's white card", "solo"],
  ["TAX", "Solo: Royal Taxes", "solo"],
  ["SOLO_TRIM", "Solo: trim the Market to four", "solo"],
  ["END", "The game is over", ""],
];

// Set by make() from the service's description: the card table, the Cities' colours (the
// colours of the kinds but white, in kind order: the proto's City order), the effect of
// each value, the rules options, and what the scores count.
let deck = new CardTable([]);
let CITIES = [];
let EFFECTS = [];
let RULES = [];
let SCORE_UNIT = "";

// The place cards go when tapped in the deck, and a white card waiting for its City.
const ui = { zone: "hand", white: null };

const colourOf = (name) => deck.attribute(name, "colour");
const valueOf = (name) => deck.attribute(name, "value");
const cardName = (card) => `${(card.colour || "").replace(PREFIX, "").toLowerCase()}-${card.value || 0}`;
const toCard = (name) => ({ colour: PREFIX + colourOf(name).toUpperCase(), value: Number(valueOf(name)) });
const byKind = (a, b) => deck.kind(cardName(a)) - deck.kind(cardName(b));
const phaseOf = (obs) => ((obs.decision && obs.decision.phase) || "").replace(PHASE_PREFIX, "");

function playerName(obs, q) {
  if (q === "regent") return "the Regent";
  return q === (obs.observer || 0) ? "You" : `P${q + 1}`;
}

function cardElement(name, extra = "") {
  const [colour, value] = [colourOf(name), valueOf(name)];
  return el(
    "span",
    { class: `card c-${colour}`, title: `${title(colour)} ${value}` },
    el("span", { class: "value" }, value),
    el("span", { class: "name" }, colour),
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

function zones(obs) {
  const list = [
    ["hand", "Your hand"],
    ["market", "Market"],
    ["discard", "Discard pile"],
    ["drawn", "Drawn, not placed yet"],
  ];
  obs.players.forEach((_, q) => list.push([`cities:${q}`, `${playerName(obs, q)}: Cities`]));
  if (obs.regent) list.push(["cities:regent", "The Regent: Cities"]);
  return list;
}

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
    { id: "observer", "aria-label": "you are" },
    ...obs.players.map((_, q) => el("option", { value: q, selected: q === me }, `P${q + 1}`)),
  );
  observer.onchange = edit(() => {
    const was = obs.players[me];
    const now = obs.players[Number(observer.value)];
    [was.hand, now.hand] = [now.hand, was.hand];
    obs.observer = Number(observer.value);
  });

  const tabs = zoneTabs("where tapped cards go", zones(obs), ui.zone, (id) => {
    ui.zone = id;
    ui.white = null;
    changed(obs);
  });

  const tiles = deckTiles({ "aria-label": "the deck" }, deck, counts, cardElement, (name) => {
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
        `Which City does ${ui.white} go to? `,
        ...CITIES.map((city, c) => {
          const button = el("button", { type: "button", "data-city": city }, title(city));
          button.onclick = edit(() => {
            place(obs, ui.white, c);
            ui.white = null;
          });
          return button;
        }),
      )
    : null;

  const removable = (list, index) => {
    const name = cardName(list[index]);
    return placedCard(name, cardElement(name), edit(() => list.splice(index, 1)));
  };
  const cardsBox = (id, label, list) =>
    zoneBox(id, ui.zone === id, label, list.length, el("div", { class: "cards" }, ...list.map((_, i) => removable(list, i))));
  const cityBox = (owner, label) =>
    zoneBox(
      `cities:${owner}`,
      ui.zone === `cities:${owner}`,
      label,
      null,
      el(
        "div",
        { class: "cities" },
        ...citiesOf(obs, owner).map((city, c) =>
          el(
            "div",
            { class: `city city-${CITIES[c]}`, title: `${title(CITIES[c])} City`, "data-city": CITIES[c] },
            ...city.cards.map((_, i) => removable(city.cards, i)),
          ),
        ),
      ),
    );

  const counters = el(
    "div",
    { class: "counters" },
    ...obs.players.map((view, q) =>
      counterRow(
        { name: playerName(obs, q), id: q, label: SCORE_UNIT, view, field: "vp", edit, mine: q === me, handMax: 30 },
        solo ? null : checkbox(`hero-${q}`, "Hero up", view, "hero_up", edit),
        checkbox(`purchased-${q}`, "Bought this Season", view, "purchased", edit),
      ),
    ),
    solo ? counterRow({ name: "The Regent", id: "regent", label: SCORE_UNIT, view: obs.regent, field: "vp", edit }) : null,
  );

  const general = el(
    "div",
    { class: "row" },
    el("label", {}, "You are", observer),
    el("label", {}, "Season", stepper("season", obs.season, 1, obs.num_seasons, (v) => edit(() => (obs.season = v))())),
    el("label", {}, "Reserve", stepper("reserve", obs.reserve_size, 0, 4, (v) => edit(() => (obs.reserve_size = v))())),
    el("span", { class: "muted", id: "pile" }, `Draw pile: ${obs.pile_size} (what the rest leaves)`),
  );

  const parts = [
    general,
    rulesEditor(RULES, obs.rules, edit),
    el("h2", {}, "Cards"),
    el("p", { class: "muted" }, "Choose a place, then tap cards in the deck to put them there; tap a placed card to take it back. Cities fill from the bottom."),
    tabs,
    chooser,
    tiles,
    cardsBox("hand", "Your hand", obs.players[me].hand),
    cardsBox("market", "Market (face up)", obs.market),
    ...obs.players.map((_, q) => cityBox(q, `${playerName(obs, q)}: Cities`)),
    obs.regent ? cityBox("regent", "The Regent: Cities") : null,
    cardsBox("discard", "Discard pile", obs.discard),
    cardsBox("drawn", "Drawn, not placed yet", obs.decision.drawn),
    el("h2", {}, "Scores and hands"),
    counters,
    el("h2", {}, "Pending decision"),
    decisionEditor(obs, edit),
  ];
  replaceKeepingFocus(root, ...parts.filter(Boolean));
}

function decisionEditor(obs, edit) {
  const d = obs.decision;
  const solo = obs.num_players === 1;
  const who = el(
    "select",
    { id: "to-act", "aria-label": "to act" },
    ...obs.players.map((_, q) => el("option", { value: q, selected: d.player === q }, playerName(obs, q))),
  );
  who.onchange = edit(() => (d.player = Number(who.value)));
  const phase = el(
    "select",
    { id: "phase", "aria-label": "decision" },
    ...PHASES.filter(([, , mode]) => !mode || mode === (solo ? "solo" : "table")).map(([value, label]) =>
      el("option", { value, selected: phaseOf(obs) === value }, label),
    ),
  );
  phase.onchange = edit(() => {
    obs.decision = { phase: PHASE_PREFIX + phase.value, player: d.player || 0, drawn: d.drawn };
    if (phase.value === "EFFECT") obs.decision.effect = 2;
    if (phase.value === "END") delete obs.decision.player;
  });
  const parts = [el("label", {}, "To act", who), el("label", {}, "Decision", phase)];
  if (phaseOf(obs) === "EFFECT") {
    const effect = el(
      "select",
      { id: "effect", "aria-label": "effect" },
      ...EFFECTS.map((name, value) => el("option", { value, selected: (d.effect || 0) === value }, `${value} ${name}`)),
    );
    effect.onchange = edit(() => (d.effect = Number(effect.value)));
    parts.push(el("label", {}, "Effect", effect));
  }
  if (phaseOf(obs) === "TURN") parts.push(checkbox("turn-played", "already played a card", d, "turn_played", edit));
  return el("div", { class: "row" }, ...parts);
}

// -- words -------------------------------------------------------------------------------

function cardWords(name) {
  return `${title(colourOf(name))} ${valueOf(name)}`;
}

function describeMove(text, obs) {
  const words = text.split(" ");
  const [verb, a, b, c] = words;
  const effect = (name) => deck.attribute(name, "effect");
  switch (verb) {
    case "play":
      if (a === "hand") return `Play ${cardWords(b)} from your hand (${effect(b)})`;
      return `Play the top card of your ${title(b)} City`;
    case "purchase":
      return "Buy from the Market";
    case "add":
      return a === "hero" ? "Add a card to the Market with your Hero (draw two, keep one)" : "Add a card to the Market";
    case "buy":
      return `Buy ${cardWords(a)}`;
    case "build":
      return `Build ${cardWords(a)} in ${phaseOf(obs) === "SOLO_REGENT" ? "the" : "your"} ${title(b)} City`;
    case "stop":
      return "Stop: nothing more";
    case "pass":
      return `Pass ${cardWords(a)}`;
    case "keep":
      return `Keep ${cardWords(a)} for the Market`;
    case "discard":
      return `Discard ${cardWords(b)} from the Market`;
    case "take":
      return `Take ${cardWords(b)} from the Market`;
    case "city":
      return `Your ${title(a)} City`;
    case "target":
      return `The top card of ${a === "regent" ? "the Regent's" : `${playerName(obs, Number(a.slice(1)))}'s`} ${title(b)} City`.replace("You's", "your");
    case "regent":
      return `Give ${cardWords(a)} to the Regent's ${title(b)} City`;
    case "tax":
      return `Tax your ${title(a)} City`;
    default:
      return [verb, a, b, c].filter(Boolean).join(" ");
  }
}

function describeField(path) {
  const p = path.replace(/^observation\./, "").replace(/^royal_cities\./, "");
  const who = (q) => `P${Number(q) + 1}`;
  const rules = [
    [/^players\[(\d)\]\.cities\[(\d)\](?:\.cards)?\[(\d+)\]/, (m) => `${who(m[1])}'s ${title(CITIES[m[2]])} City, card ${Number(m[3]) + 1} from the bottom`],
    [/^players\[(\d)\]\.cities\[(\d)\]/, (m) => `${who(m[1])}'s ${title(CITIES[m[2]])} City`],
    [/^players\[(\d)\]\.hand\[(\d+)\]/, (m) => `${who(m[1])}'s hand, card ${Number(m[2]) + 1}`],
    [/^players\[(\d)\]\.hand_size/, (m) => `${who(m[1])}'s hand size`],
    [/^players\[(\d)\]\.vp/, (m) => `${who(m[1])}'s VP`],
    [/^players\[(\d)\]/, (m) => `${who(m[1])}`],
    [/^regent\.cities\[(\d)\](?:\.cards)?\[(\d+)\]/, (m) => `the Regent's ${title(CITIES[m[1]])} City, card ${Number(m[2]) + 1}`],
    [/^market\[(\d+)\]/, (m) => `the Market, card ${Number(m[1]) + 1}`],
    [/^discard\[(\d+)\]/, (m) => `the discard pile, card ${Number(m[1]) + 1}`],
    [/^decision\.drawn\[(\d+)\]/, (m) => `the drawn cards, card ${Number(m[1]) + 1}`],
    [/^decision/, () => "the pending decision"],
    [/^pile_size/, () => "the draw pile (what the other counts leave)"],
    [/^reserve_size/, () => "the Reserve"],
    [/^season/, () => "the Season"],
    [/^observer/, () => "who you are"],
    [/^revealed\[(\d+)\]/, (m) => `the card you named (${Number(m[1]) + 1})`],
  ];
  return inWords(rules, p);
}

// The places of the deal the player sees (js/games/index.js's dealPlaces): the Market setup
// discards the cards of a colour already laid, so the discard pile and the Regent's Cities
// (the solo game's) vary with the cards turned up.
const mine = (obs) => obs.players[obs.observer || 0];
const DEAL_PLACES = [
  { key: "hand", where: "Your hand", what: "the cards you were dealt", list: (o) => mine(o).hand || [], clear: (o) => (mine(o).hand = []), exact: true },
  { key: "market", where: "Market", what: "the cards laid face up in the Market", list: (o) => o.market || [], clear: (o) => (o.market = []), exact: true },
  { key: "discard", where: "Discard pile", what: "the cards the Market's setup discarded, if any", list: (o) => o.discard || [], clear: (o) => (o.discard = []), exact: false },
  {
    key: "regent",
    where: "The Regent: Cities",
    what: "the cards the Regent's Cities start with",
    list: (o) => (o.regent ? (o.regent.cities || []).flatMap((c) => c.cards || []) : []),
    clear: (o) => o.regent && (o.regent.cities || []).forEach((c) => (c.cards = [])),
    exact: false,
    present: (o) => Boolean(o.regent),
  },
];

export default function make(info) {
  deck = new CardTable(info.cards);
  CITIES = deck.values("colour").filter((colour) => colour !== WHITE);
  EFFECTS = [];
  for (const card of deck.cards) {
    if (card.attributes.effect) EFFECTS[Number(card.attributes.value)] = card.attributes.effect;
  }
  RULES = info.rules_options || [];
  SCORE_UNIT = info.score_unit || "";
  const revealChoices = (obs) => choices(deck, left(normalize(obs)), cardWords, cardElement);
  // A built card's City: its colour's, or a choice among them for a white card.
  const cityOf = (name) => (colourOf(name) === WHITE ? CITIES : colourOf(name));
  return { blank, renderSetup, describeMove, describeField, revealChoices, cityOf, dealPlaces: DEAL_PLACES, firstPlayer: "P1 is the starting player." };
}
