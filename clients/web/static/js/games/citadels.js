// Citadels: the setup editor (the districts to tap into hands and cities, the characters of
// the draft and of the round, steppers, the pending decision), move texts in plain words, and
// error paths in words. The position is the `citadels` branch of a regent.v1.Observation in
// protobuf JSON; the engine, not this page, decides whether it can happen and what is legal.
// The districts (colour, cost, copies) and the rules options come from the service's
// description of the game.
import { CardTable, defaultRules } from "../table.js";
import { capital as title, checkbox, inWords, counterRow, deckTiles, el, placedCard, replaceKeepingFocus, revealChoices as choices, rulesEditor, stepper, zoneBox, zoneTabs } from "../ui.js";

const CHARACTERS = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"];
// The card colour class (the page's palette) of each district colour.
const PALETTE = { noble: "yellow", religious: "blue", trade: "green", military: "red", unique: "purple" };
const D_PREFIX = "CITADELS_DISTRICT_";
const C_PREFIX = "CITADELS_CHARACTER_";
const P_PREFIX = "CITADELS_PHASE_";
const PHASES = [
  ["MAIN", "Turn: build, income, power, end the turn"],
  ["RESOURCE", "Turn start: take 2 gold or draw"],
  ["KEEP", "Choose the drawn district to keep"],
  ["PICK", "Draft: pick a character"],
  ["DISCARD", "Draft: put a character face down"],
  ["REDRAW", "Magician: cards under the deck"],
  ["GRAVEYARD", "Graveyard: take the destroyed district?"],
  ["END", "The game is over"],
];

// Set by make() from the service's description: the districts and the rules options.
let districts = new CardTable([]);
let RULES = [];

// Where tapped districts go: "hand", "drawn" or "city:Q"; the position the editor drew last
// (a refusal of its draft is explained from it).
const ui = { zone: "hand", drawn: null };

const words = (name) => name.split("-").map(title).join(" ");
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
  return q === (obs.observer || 0) ? "You" : `P${q + 1}`;
}

function districtElement(name, extra = "") {
  const colour = PALETTE[districts.attribute(name, "colour")] || "white";
  return el(
    "span",
    { class: `card district c-${colour}`, title: `${words(name)}, cost ${costOf(name)}` },
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
  const button = el("button", { type: "button", class: "chip", "aria-pressed": on, ...attrs }, title(name));
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
      if (dr.face_up.includes(c)) reasons.push(`the ${title(characterName(c))} is face up, so it cannot be shown at your pick ${k + 1}`);
    }
  });
  for (const c of dr.picks) {
    if (dr.face_up.includes(c)) reasons.push(`the ${title(characterName(c))} is face up, so it cannot be your pick`);
  }
  const first = dr.shown[0] && (dr.shown[0].characters || []).length;
  if (first && firstPicksFirst(obs) && first !== firstShown(obs)) {
    reasons.push(`you pick first, so you were shown ${firstShown(obs)} characters at your pick 1 (all but the face-up and the face-down ones), not ${first}`);
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
    select("observer", "You are", obs.players.map((_, q) => [q, `P${q + 1}`]), me, (v) =>
      edit(() => {
        const next = Number(v);
        [obs.players[me].hand, obs.players[next].hand] = [obs.players[next].hand, obs.players[me].hand];
        obs.players[me].hand_size = obs.players[me].hand.length;
        obs.observer = next;
      })(),
    ),
    el("label", {}, "Round", stepper("round", obs.round, 1, 60, (v) => edit(() => {
      obs.round = v;
      for (const view of obs.players) view.built_rounds = view.built_rounds.map((r) => Math.min(r, v));
    })())),
    select("crown", "Crown", who, obs.crown, (v) => edit(() => (obs.crown = Number(v)))()),
    select("first-picker", "First to pick", who, obs.first_picker, (v) => edit(() => (obs.first_picker = Number(v)))()),
    el("span", { class: "muted", id: "deck" }, `Deck: ${obs.deck_size} (what the rest leaves)`),
  );

  const zones = [["hand", "Your hand"], ["drawn", "Drawn, to keep or put back"]];
  obs.players.forEach((_, q) => zones.push([`city:${q}`, `${playerName(obs, q)}: city`]));
  const tabs = zoneTabs("where tapped districts go", zones, ui.zone, (id) => {
    ui.zone = id;
    changed(obs);
  });
  const tiles = deckTiles({ class: "deck districts", "aria-label": "the districts" }, districts, counts, districtElement, (name) =>
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
    zoneBox(id, ui.zone === id, label, list.length,
      el("div", { class: "cards" }, ...list.map((_, i) => removable(list, i, view && unbuild(view, i)))));

  const players = el(
    "div",
    { class: "counters" },
    ...obs.players.map((view, q) =>
      counterRow({ name: playerName(obs, q), id: q, label: "Gold", view, field: "gold", edit, mine: q === me, handMax: 40 }),
    ),
  );

  replaceKeepingFocus(
    root,
    general,
    rulesEditor(RULES, obs.rules, edit),
    el("h2", {}, "Districts"),
    el("p", { class: "muted" }, "Choose a place, then tap districts to put them there; tap a placed district to take it back. Cities list districts in the order built."),
    tabs,
    tiles,
    cardsBox("hand", "Your hand", obs.players[me].hand),
    ...obs.players.map((view, q) => cardsBox(`city:${q}`, `${playerName(obs, q)}: city`, view.city, view)),
    cardsBox("drawn", "Drawn, to keep or put back", obs.decision.drawn),
    el("h2", {}, "Gold and hands"),
    players,
    el("h2", {}, "Characters"),
    characterEditor(obs, edit),
    el("h2", {}, "Pending decision"),
    decisionEditor(obs, edit),
  );
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
    rows.push(el("div", { class: "row", "data-row": "face-up" }, el("strong", {}, `Face up (${faceUpOf(n)})`),
      ...CHARACTERS.filter((c) => c !== "king").map((c) =>
        chip(c, has(dr.face_up, c), { "data-face-up": c }, edit(() => toggleFaceUp(obs, toCharacter(c)))))));
  }
  for (let k = 0; k < Math.max(picksOf(n), dr.shown.length); k++) {
    const shown = dr.shown[k] ? dr.shown[k].characters || [] : [];
    rows.push(el("div", { class: "row", "data-row": `shown-${k}` }, el("strong", {}, `Shown at your pick ${k + 1}`),
      ...CHARACTERS.map((c) => chip(c, shown.includes(toCharacter(c)), { "data-shown": `${k}-${c}` }, edit(() => {
        while (dr.shown.length <= k) dr.shown.push({ characters: [] });
        dr.shown[k].characters = dr.shown[k].characters || [];
        toggleIn(dr.shown[k].characters, toCharacter(c));
        dr.shown[k].characters.sort(byCharacter);
        dr.shown = dr.shown.filter((row, i) => i <= k || (row.characters || []).length);
        while (dr.shown.length && !(dr.shown[dr.shown.length - 1].characters || []).length) dr.shown.pop();
      })))));
  }
  rows.push(el("div", { class: "row", "data-row": "picks" }, el("strong", {}, "Your picks"),
    ...CHARACTERS.map((c) => chip(c, has(dr.picks, c), { "data-pick": c }, edit(() => toggleIn(dr.picks, toCharacter(c)))))));
  if (n <= 3 || n === 7) {
    rows.push(el("div", { class: "row", "data-row": "discards" }, el("strong", {}, "You put face down"),
      ...CHARACTERS.map((c) => chip(c, has(dr.discards, c), { "data-discard": c }, edit(() => toggleIn(dr.discards, toCharacter(c)))))));
  }
  const holder = {};
  for (const r of obs.revealed) holder[characterName(r.character)] = r.player || 0;
  const players = obs.players.map((_, q) => [q, playerName(obs, q)]);
  const revealed = el("div", { class: "row", "data-row": "revealed" }, el("strong", {}, "Revealed this round"),
    ...CHARACTERS.map((c) => select(`revealed-${c}`, title(c), [["", "—"], ...players], holder[c] ?? "", (v) => edit(() => {
      obs.revealed = obs.revealed.filter((r) => characterName(r.character) !== c);
      if (v !== "") obs.revealed.push({ character: toCharacter(c), player: Number(v) });
      if (c === "king" && v !== "") obs.crown = Number(v);
      obs.players.forEach((view, q) => {
        if (q !== (obs.observer || 0)) view.characters = obs.revealed.filter((r) => (r.player || 0) === q).map((r) => r.character);
      });
    })())));
  const none = [["", "nobody"], ...CHARACTERS.map((c) => [toCharacter(c), title(c)])];
  const struck = el("div", { class: "row" },
    select("killed", "Killed", none, obs.killed || "", (v) => edit(() => (v ? (obs.killed = v) : delete obs.killed))()),
    select("robbed", "Robbed", none, obs.robbed || "", (v) => edit(() => (v ? (obs.robbed = v) : delete obs.robbed))()));
  return el("div", { class: "characters" }, ...rows, revealed, struck);
}

// The decision: a turn belongs to a revealed character, so the choices are the revealed ones
// and the player to act follows from the character chosen.
function decisionEditor(obs, edit) {
  const d = obs.decision;
  const phase = phaseOf(obs);
  const parts = [
    select("phase", "Decision", PHASES, phase, (v) => edit(() => {
      obs.decision = { phase: P_PREFIX + v, player: d.player || 0, drawn: d.drawn };
      if (v === "END") delete obs.decision.player;
      if (v === "PICK" || v === "DISCARD") obs.draft.step = 0;
      else if (v !== "END") obs.decision.builds_left = 1;
      if (v === "KEEP") obs.decision.keep_left = 1;
    })()),
  ];
  if (phase === "PICK" || phase === "DISCARD") {
    const steps = draftSteps(obs.players.length);
    parts.push(el("label", {}, "Draft step", stepper("draft-step", obs.draft.step, 0, steps - 1, (v) => edit(() => (obs.draft.step = v))())));
    parts.push(select("to-act", "To act", obs.players.map((_, q) => [q, playerName(obs, q)]), d.player || 0, (v) => edit(() => (d.player = Number(v)))()));
  } else if (phase !== "END") {
    const turns = obs.revealed.map((r) => [r.character, `${title(characterName(r.character))} (${playerName(obs, r.player || 0)})`]);
    parts.push(select("called", "Whose turn", [["", "—"], ...turns], d.called || "", (v) => edit(() => {
      d.called = v || undefined;
      const r = obs.revealed.find((x) => x.character === v);
      if (r) d.player = r.player || 0;
    })()));
    parts.push(el("label", {}, "Builds left", stepper("builds-left", d.builds_left || 0, 0, 3, (v) => edit(() => (d.builds_left = v))())));
    if (phase === "KEEP") parts.push(el("label", {}, "Keep", stepper("keep-left", d.keep_left || 0, 1, 2, (v) => edit(() => (d.keep_left = v))())));
    parts.push(checkbox("income-done", "income collected", d, "income_done", edit));
    parts.push(checkbox("power-done", "power used", d, "power_done", edit));
    if ((phase === "REDRAW" || phase === "GRAVEYARD") && obs.rules.powers_before_resources) {
      parts.push(checkbox("before-resources", "before gold or cards", d, "before_resources", edit));
    }
  }
  return el("div", { class: "row" }, ...parts);
}

// -- words -------------------------------------------------------------------------------

function cost(name) {
  return costOf(name) ? ` (${costOf(name)} gold)` : "";
}

function describeMove(text, obs) {
  const [verb, a, b] = text.split(" ");
  const player = (p) => (p ? playerName(obs, Number(p.slice(1))) : "");
  switch (verb) {
    case "pick":
      return `Pick the ${title(a)}`;
    case "discard":
      return `Put the ${title(a)} face down`;
    case "gold":
      return "Take 2 gold";
    case "cards":
      return "Draw districts";
    case "keep":
      return `Keep ${words(a)}`;
    case "return":
      return `Put ${words(a)} back under the deck (keep the others)`;
    case "build":
      return `Build ${words(a)}${cost(a)}`;
    case "income":
      return "Collect income";
    case "kill":
      return `Kill the ${title(a)}`;
    case "rob":
      return `Rob the ${title(a)}`;
    case "swap":
      return `Swap hands with ${player(a)}`;
    case "redraw":
      return a === "done" ? "Draw as many as put under" : `Put ${words(a)} under the deck`;
    case "destroy":
      return `Destroy ${player(a) === "You" ? "your" : `${player(a)}'s`} ${words(b)}`;
    case "laboratory":
      return `Laboratory: discard ${words(a)} for 2 gold`;
    case "smithy":
      return "Smithy: pay 2 gold, draw 3";
    case "graveyard":
      return a === "take" ? "Graveyard: pay 1 gold to take the district" : "Graveyard: let it go";
    case "end":
      return "End the turn";
    default:
      return text;
  }
}

function describeField(path) {
  if (/^revealed\[(\d+)\]/.test(path)) return `the district you named (${Number(path.match(/\d+/)[0]) + 1})`;
  const p = path.replace(/^observation\./, "").replace(/^citadels\./, "");
  const who = (q) => `P${Number(q) + 1}`;
  const rules = [
    [/^players\[(\d)\]\.city\[(\d+)\]/, (m) => `${who(m[1])}'s city, district ${Number(m[2]) + 1}`],
    [/^players\[(\d)\]\.built_rounds/, (m) => `${who(m[1])}'s city (the rounds built)`],
    [/^players\[(\d)\]\.hand\[(\d+)\]/, (m) => `${who(m[1])}'s hand, district ${Number(m[2]) + 1}`],
    [/^players\[(\d)\]\.hand/, (m) => `${who(m[1])}'s hand`],
    [/^players\[(\d)\]\.gold/, (m) => `${who(m[1])}'s gold`],
    [/^players\[(\d)\]\.characters/, (m) => `${who(m[1])}'s characters`],
    [/^players\[(\d)\]/, (m) => who(m[1])],
    [/^draft\.face_up/, () => "the face-up characters"],
    [/^draft\.shown\[(\d+)\]/, (m) => `the characters shown at your pick ${Number(m[1]) + 1}`],
    [/^draft\.shown/, () => "the characters shown at your picks"],
    [/^draft\.picks/, () => "your picks"],
    [/^draft\.discards/, () => "the characters you put face down"],
    [/^draft\.step/, () => "the draft step"],
    [/^draft/, () => "the character draft"],
    [/^revealed\[(\d+)\]/, () => "the revealed characters"],
    [/^(killed|robbed)/, (m) => `the ${m[1]} character`],
    [/^crown/, () => "the crown"],
    [/^first_picker/, () => "who picked first"],
    [/^decision\.called/, () => "whose turn it is"],
    [/^decision\.drawn/, () => "the drawn districts"],
    [/^decision/, () => "the pending decision"],
    [/^deck_size/, () => "the deck (what the other counts leave)"],
    [/^round/, () => "the round"],
    [/^observer/, () => "who you are"],
  ];
  const place = inWords(rules, p);
  // A refused draft: what the page sees wrong in it, when it sees something.
  const reasons = p.startsWith("draft") && ui.drawn ? draftReasons(ui.drawn) : [];
  return reasons.length ? `${place} (${reasons.join("; ")})` : place;
}

// The places of the deal the player sees (js/games/index.js's dealPlaces): 2-3 players have
// no face-up characters, and a seat that does not pick first is shown none yet.
const mine = (obs) => obs.players[obs.observer || 0];
const DEAL_PLACES = [
  { key: "hand", where: "Your hand", what: "the districts you were dealt", list: (o) => mine(o).hand || [], clear: (o) => (mine(o).hand = []), exact: true },
  {
    key: "face_up",
    where: "Face up (under Characters)",
    what: "the characters laid face up",
    list: (o) => (o.draft && o.draft.face_up) || [],
    clear: (o) => (o.draft.face_up = []),
    exact: true,
  },
  {
    key: "shown",
    where: "Shown at your pick 1 (under Characters)",
    what: "the characters you were handed to pick from",
    list: (o) => (o.draft && o.draft.shown && o.draft.shown[0] && o.draft.shown[0].characters) || [],
    clear: (o) => (o.draft.shown = []),
    exact: true,
  },
];

export default function make(info) {
  districts = new CardTable(info.cards);
  RULES = info.rules_options || [];
  const revealChoices = (obs) => choices(districts, left(normalize(obs)), words, districtElement);
  return { blank, renderSetup, describeMove, describeField, revealChoices, dealPlaces: DEAL_PLACES, firstPlayer: "P1 holds the crown and picks first." };
}
