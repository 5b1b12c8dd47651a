"""Royal Cities observations to and from `regent.v1.RoyalCitiesObservation`, and what ApplyMove
needs of its cards: the game's converter module (see `convert.adapter.Converter`; the field
path conventions are `convert`'s).

Cards are messages of a colour and a value (`yellow-2`); a bad card names the card itself (not
its `colour` or `value`). Lists the engine keeps sorted are sorted when read: hands,
`seen_of_mine`, the Market, the discard, drawn cards, taxed Cities, the selection, and the
passes of a two-player game (an unordered pair). Cities keep their order (bottom card first),
and so do the passes of 3-4 players, which mean "left first, then right".
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import cast

from convert.adapter import (
    CannotApply,
    Place,
    SecretRound,
    Step,
    TableRules,
    add_places,
    enum_numbers,
    hold_in_hand,
    rules_message,
    rules_of_message,
    seat_words,
)
from engine.errors import InvalidObservationError, WordedError
from engine.interface import HIDDEN
from engine.royal_cities.actions import string_to_action
from engine.royal_cities.cards import (
    CITY_COLOURS,
    COLOURS,
    copies,
    kind_name,
    parse_colour,
    parse_kind,
)
from engine.royal_cities.observation import (
    PHASES,
    RESUMES,
    Decision,
    Observation,
    PlayerView,
    RegentView,
)
from engine.royal_cities.rules import RulesConfig
from regent.v1 import common_pb2, royal_cities_pb2

_pb = royal_cities_pb2
GAME = common_pb2.GAME_ROYAL_CITIES
ONEOF = "royal_cities"
RULES_FIELD = "royal_cities_rules"
RULES_MESSAGE = royal_cities_pb2.RoyalCitiesRules

# Enum numbers, looked up by name so that the proto's numbering is not assumed.
_COLOUR_NUMBER = enum_numbers(_pb.RoyalCitiesColour, "ROYAL_CITIES_COLOUR_", COLOURS)
_COLOUR_NAME: dict[int, str] = {n: c for c, n in _COLOUR_NUMBER.items()}
_CITY_NAME: dict[int, str] = {_COLOUR_NUMBER[c]: c for c in CITY_COLOURS}
_PHASE_NUMBER = enum_numbers(_pb.RoyalCitiesPhase, "ROYAL_CITIES_PHASE_", PHASES)
_PHASE_NAME: dict[int, str] = {n: p for p, n in _PHASE_NUMBER.items()}
#: Who may own the Knight's white card in `Decision.knight_from`.
_KNIGHT_OWNERS = ("p0", "p1", "p2", "p3", "regent")
_NUM_CITIES = len(CITY_COLOURS)
#: Every card: name -> (colour number, value), and (colour number, value) -> (kind, name).
#: Observations hold dozens of cards, so looking them up beats parsing them several times over.
_CARD_FIELDS: dict[str, tuple[royal_cities_pb2.RoyalCitiesColour, int]] = {
    f"{c}-{v}": (_COLOUR_NUMBER[c], v) for c in COLOURS for v in range(7)
}
_CARD_KIND: dict[tuple[int, int], tuple[int, str]] = {
    fv: (parse_kind(name), name) for name, fv in _CARD_FIELDS.items()
}
#: A message per card, only ever copied (repeated fields copy what they are given).
_CARD_MSG: dict[str, royal_cities_pb2.RoyalCitiesCard] = {
    name: royal_cities_pb2.RoyalCitiesCard(colour=c, value=v)
    for name, (c, v) in _CARD_FIELDS.items()
}


# -- cards and rules -----------------------------------------------------------


def card_to_proto(name: str) -> royal_cities_pb2.RoyalCitiesCard:
    """The message for a card name such as `yellow-2`; ValueError for a name that is no card."""
    msg = _pb.RoyalCitiesCard()
    msg.CopyFrom(_card_msg(name))
    return msg


def _card_msg(name: str) -> royal_cities_pb2.RoyalCitiesCard:
    """The shared message of a card: copy it, never change it."""
    msg = _CARD_MSG.get(name)
    if msg is None:
        kind = parse_kind(name)  # another spelling of a card (" Yellow-2"), or ValueError
        msg = _CARD_MSG[f"{COLOURS[kind // 7]}-{kind % 7}"]
    return msg


def card_from_proto(msg: royal_cities_pb2.RoyalCitiesCard, field: str) -> str:
    """The engine's name of a card; InvalidObservationError at `field` if it is no card."""
    return _card(msg, field)[1]


def _card(msg: royal_cities_pb2.RoyalCitiesCard, field: str) -> tuple[int, str]:
    """(kind, name) of a card message: the kind is the engine's sort key."""
    found = _CARD_KIND.get((msg.colour, msg.value))
    if found is None:
        if msg.colour not in _COLOUR_NAME:
            raise InvalidObservationError(
                field, "no card has colour number {number}", number=msg.colour
            )
        raise InvalidObservationError(
            field, "card values go from 0 to 6, not {value}", value=msg.value
        )
    return found


def rules_to_proto(rules: RulesConfig) -> royal_cities_pb2.RoyalCitiesRules:
    return rules_message(rules, RULES_MESSAGE)


def rules_from_proto(msg: royal_cities_pb2.RoyalCitiesRules) -> RulesConfig:
    """The options; an unset `optional bool` takes the engine's default (true for both)."""
    return rules_of_message(msg, RulesConfig)


# -- engine -> proto -------------------------------------------------------------


def observation_to_proto(obs: Observation) -> royal_cities_pb2.RoyalCitiesObservation:
    """The Royal Cities branch of the oneof; unset optional fields stand for None."""
    msg = _pb.RoyalCitiesObservation(
        observer=obs.observer,
        num_players=obs.num_players,
        rules=rules_to_proto(obs.rules),
        season=obs.season,
        num_seasons=obs.num_seasons,
        starter=obs.starter,
        last_purchaser=obs.last_purchaser,
        players=[_player_to_proto(v) for v in obs.players],
        market=_cards_to_proto(obs.market),
        discard=_cards_to_proto(obs.discard),
        pile_size=obs.pile_size,
        reserve_size=obs.reserve_size,
        decision=_decision_to_proto(obs.decision),
    )
    if obs.regent is not None:
        msg.regent.CopyFrom(
            _pb.RoyalCitiesRegent(vp=obs.regent.vp, cities=_cities_to_proto(obs.regent.cities))
        )
    return msg


def _cards_to_proto(names: Iterable[str]) -> list[royal_cities_pb2.RoyalCitiesCard]:
    """Shared messages, for a repeated field to copy."""
    return [_card_msg(name) for name in names]


def _cities_to_proto(
    cities: Iterable[tuple[str, ...]],
) -> list[royal_cities_pb2.RoyalCitiesCity]:
    """Shared messages, for a repeated field to copy."""
    return [_city_msg(city) for city in cities]


@functools.lru_cache(maxsize=4096)
def _city_msg(cards: tuple[str, ...]) -> royal_cities_pb2.RoyalCitiesCity:
    """The shared message of a City: games repeat the same few, so they are built once."""
    return _pb.RoyalCitiesCity(cards=_cards_to_proto(cards))


def _player_to_proto(view: PlayerView) -> royal_cities_pb2.RoyalCitiesPlayer:
    return _pb.RoyalCitiesPlayer(
        vp=view.vp,
        hero_up=view.hero_up,
        purchased=view.purchased,
        committed=view.committed,
        age_rank=view.age_rank,
        hand_size=view.hand_size,
        hand=_cards_to_proto(view.hand),
        seen_of_mine=_cards_to_proto(view.seen_of_mine),
        cities=_cities_to_proto(view.cities),
    )


def _decision_to_proto(d: Decision) -> royal_cities_pb2.RoyalCitiesDecision:
    msg = _pb.RoyalCitiesDecision(
        phase=_PHASE_NUMBER[d.phase],
        turn_played=d.turn_played,
        from_revolt=d.from_revolt,
        knight_from=d.knight_from or "",
        power=d.power,
        taken=d.taken,
        drawn=_cards_to_proto(d.drawn),
        drawn_hidden=d.drawn_hidden,
        selection=[
            _pb.RoyalCitiesSelection(card=_card_msg(card), city=_COLOUR_NUMBER[city])
            for card, city in d.selection
        ],
        passes=_cards_to_proto(d.passes),
        tax_left=d.tax_left,
        taxed=[_COLOUR_NUMBER[c] for c in d.taxed],
        season_vp=d.season_vp,
        season_influence=d.season_influence,
        regent_draws=d.regent_draws,
        resume=d.resume,
    )
    if d.player is not None:
        msg.player = d.player
    if d.effect is not None:
        msg.effect = d.effect
    if d.min_card is not None:
        msg.min_card.CopyFrom(_card_msg(d.min_card))
    if d.first_build is not None:
        msg.first_build.CopyFrom(_card_msg(d.first_build))
    return msg


# -- proto -> engine; `path` is the field path of the message being read ----------


def observation_from_proto(msg: royal_cities_pb2.RoyalCitiesObservation, path: str) -> Observation:
    """The Royal Cities branch of the oneof, its shape checked (see the module docstring)."""
    num_players = msg.num_players
    regent = None
    if msg.HasField("regent"):
        regent = RegentView(
            vp=msg.regent.vp, cities=_cities(msg.regent.cities, f"{path}.regent.cities")
        )
    return Observation(
        observer=msg.observer,
        num_players=num_players,
        rules=rules_from_proto(msg.rules),
        season=msg.season,
        num_seasons=msg.num_seasons,
        starter=msg.starter,
        last_purchaser=msg.last_purchaser,
        players=tuple(_player(p, f"{path}.players[{i}]") for i, p in enumerate(msg.players)),
        regent=regent,
        market=_sorted_cards(msg.market, f"{path}.market"),
        discard=_sorted_cards(msg.discard, f"{path}.discard"),
        pile_size=msg.pile_size,
        reserve_size=msg.reserve_size,
        decision=_decision(msg.decision, f"{path}.decision", num_players),
    )


def _read_cards(
    cards: Sequence[royal_cities_pb2.RoyalCitiesCard], path: str
) -> list[tuple[int, str]]:
    """(kind, name) of each card, in the message's order."""
    read = [_CARD_KIND.get((c.colour, c.value)) for c in cards]
    if None in read:  # name the first bad card
        i = read.index(None)
        _card(cards[i], f"{path}[{i}]")
    return cast("list[tuple[int, str]]", read)


def _sorted_cards(cards: Sequence[royal_cities_pb2.RoyalCitiesCard], path: str) -> tuple[str, ...]:
    """The cards in the engine's order: by kind (colour * 7 + value, white last)."""
    return tuple(name for _, name in sorted(_read_cards(cards, path)))


def _cards_in_order(
    cards: Sequence[royal_cities_pb2.RoyalCitiesCard], path: str
) -> tuple[str, ...]:
    """The cards as the message orders them (Cities, 3-4 player passes)."""
    return tuple(name for _, name in _read_cards(cards, path))


def _cities(
    cities: Sequence[royal_cities_pb2.RoyalCitiesCity], path: str
) -> tuple[tuple[str, ...], ...]:
    """Six Cities in colour order, bottom card first; none at all reads as six empty ones."""
    if not cities:
        return ((),) * _NUM_CITIES
    if len(cities) != _NUM_CITIES:
        raise InvalidObservationError(path, "must hold six Cities, not {count}", count=len(cities))
    return tuple(_cards_in_order(city.cards, f"{path}[{c}].cards") for c, city in enumerate(cities))


def _player(msg: royal_cities_pb2.RoyalCitiesPlayer, path: str) -> PlayerView:
    return PlayerView(
        vp=msg.vp,
        hero_up=msg.hero_up,
        purchased=msg.purchased,
        committed=msg.committed,
        age_rank=msg.age_rank,
        hand_size=msg.hand_size,
        hand=_sorted_cards(msg.hand, f"{path}.hand"),
        seen_of_mine=_sorted_cards(msg.seen_of_mine, f"{path}.seen_of_mine"),
        cities=_cities(msg.cities, f"{path}.cities"),
    )


def _city(number: int, field: str) -> tuple[int, str]:
    """(index, name) of a City colour: purple to green, never white."""
    name = _CITY_NAME.get(number)
    if name is None:
        raise InvalidObservationError(field, "no City has colour number {number}", number=number)
    return CITY_COLOURS.index(name), name


def _six_ints(values: Sequence[int], field: str) -> tuple[int, ...]:
    """One number per City; an empty list reads as six zeros."""
    if not values:
        return (0,) * _NUM_CITIES
    if len(values) != _NUM_CITIES:
        raise InvalidObservationError(field, "must list six Cities, not {count}", count=len(values))
    return tuple(values)


def _knight_from(text: str, field: str) -> str | None:
    """`p1 red` or `regent red` (any case or spacing), or None when empty."""
    if not text:
        return None
    words = text.lower().split()
    if len(words) != 2 or words[0] not in _KNIGHT_OWNERS or words[1] not in CITY_COLOURS:
        raise InvalidObservationError(
            field, "must read like 'p1 red' or 'regent red', not '{text}'", text=text[:40]
        )
    return " ".join(words)


def _decision(msg: royal_cities_pb2.RoyalCitiesDecision, path: str, num_players: int) -> Decision:
    phase = _PHASE_NAME.get(msg.phase)
    if phase is None:
        raise InvalidObservationError(
            f"{path}.phase", "no phase has number {number}", number=msg.phase
        )
    resume = msg.resume or "setup"
    if resume not in RESUMES:
        raise InvalidObservationError(
            f"{path}.resume", "must be 'setup' or 'catch_up', not '{text}'", text=resume[:40]
        )
    selection = []
    for i, sel in enumerate(msg.selection):
        field = f"{path}.selection[{i}]"
        kind, card = _card(sel.card, f"{field}.card")
        city_index, city = _city(sel.city, f"{field}.city")
        selection.append((kind, city_index, card, city))
    taxed = sorted(_city(c, f"{path}.taxed[{i}]") for i, c in enumerate(msg.taxed))
    passes = _read_cards(msg.passes, f"{path}.passes")
    if num_players == 2:  # an unordered pair, which the engine lists low kind first
        passes.sort()
    return Decision(
        phase=phase,
        player=msg.player if msg.HasField("player") else None,
        turn_played=msg.turn_played,
        effect=msg.effect if msg.HasField("effect") else None,
        from_revolt=msg.from_revolt,
        knight_from=_knight_from(msg.knight_from, f"{path}.knight_from"),
        power=msg.power,
        min_card=(_card(msg.min_card, f"{path}.min_card")[1] if msg.HasField("min_card") else None),
        taken=msg.taken,
        drawn=_sorted_cards(msg.drawn, f"{path}.drawn"),
        drawn_hidden=msg.drawn_hidden,
        selection=tuple((card, city) for _, _, card, city in sorted(selection)),
        passes=tuple(name for _, name in passes),
        first_build=(
            _card(msg.first_build, f"{path}.first_build")[1]
            if msg.HasField("first_build")
            else None
        ),
        tax_left=msg.tax_left,
        taxed=tuple(name for _, name in taxed),
        season_vp=_six_ints(msg.season_vp, f"{path}.season_vp"),
        season_influence=_six_ints(msg.season_influence, f"{path}.season_influence"),
        regent_draws=msg.regent_draws,
        resume=resume,
    )


# -- ApplyMove ----------------------------------------------------------------------


def _places(obs: Observation) -> Counter[Place]:
    """Every card a Royal Cities observation names, with its field."""
    places: Counter[Place] = Counter()
    add_places(places, "market", obs.market)
    add_places(places, "discard", obs.discard)
    add_places(places, "decision.drawn", obs.decision.drawn)
    for q, view in enumerate(obs.players):
        add_places(places, f"players[{q}].hand", view.hand)
        for c, city in enumerate(view.cities):
            add_places(places, f"players[{q}].cities[{c}]", city)
    if obs.regent is not None:
        for c, city in enumerate(obs.regent.cities):
            add_places(places, f"regent.cities[{c}]", city)
    return places


def _drawn(
    before: Observation, after: Observation, draws: list[str], new_cards: Counter[str]
) -> list[tuple[int, str]]:
    """The pile only shrinks in a move, by the cards drawn; CannotApply after a reshuffle."""
    if after.pile_size > before.pile_size or len(after.discard) < len(before.discard):
        raise CannotApply(
            "the draw pile ran out and was reshuffled during this move: "
            "set up the position after it by hand"
        )
    return list(enumerate(draws[: before.pile_size - after.pile_size]))


def _hold(obs: Observation, player: int, card: str) -> Observation:
    """The observer knows `player` holds `card`: among the cards it drew and has still to
    place (the Hero's two, the Astrologer's three), else in its hand."""
    d = obs.decision
    if d.player == player and d.drawn_hidden > 0:
        drawn = tuple(sorted((*d.drawn, card), key=parse_kind))
        decision = replace(d, drawn=drawn, drawn_hidden=d.drawn_hidden - 1)
        return replace(obs, decision=decision)
    return hold_in_hand(obs, player, card)


#: The rounds of secret choices, taken by players 0 to n-1 in turn and shown when the last
#: one chooses: what the observer is asked of each player's choice.
_SECRET_QUESTIONS = {
    "pass": "the card {who} passed you",
    "first_build": "the card {who} built first, if any",
    "construct": "the cards {who} built, each with its City",
}


def _secret_round(obs: Observation, action: int) -> SecretRound | None:
    """The Season's construction, the first builds and the passes of the setup end when the
    last player chooses; the table then shows every player's builds (or the cards passed to
    the observer) together. The round is replayed from its start, each player's choice from
    the table (the observer's from its own record), so that the engine plays it as it was."""
    d = obs.decision
    n = obs.num_players
    if d.phase not in _SECRET_QUESTIONS or d.player != n - 1 or n < 2:
        return None
    me = obs.observer
    if d.player == me and not _completes(d, action):
        return None
    if d.phase == "pass":
        givers = [1 - me] * 2 if n == 2 else [(me - 1) % n, (me + 1) % n]
    else:
        givers = [q for q in range(n) if q != me]
    questions = tuple(
        (f"players[{q}].cities" if d.phase != "pass" else f"players[{me}].hand",
         _SECRET_QUESTIONS[d.phase].format(who=seat_words(q, me)), q)
        for q in givers
    )  # fmt: skip

    def replay(answers: Sequence[str]) -> tuple[Observation, list[Step]]:
        own = _own_steps(obs, action)
        choices: dict[int, list[Step]] = {me: own}
        held: dict[int, list[str]] = {}
        if d.phase == "pass":
            cards = [kind_name(parse_kind(answer)) for answer in answers]
            for q, card in zip(givers, cards, strict=True):
                held.setdefault(q, []).append(card)
            if n == 2:  # an unordered pair, low kind first
                choices[1 - me] = [_act(f"pass {c}") for c in sorted(cards, key=parse_kind)]
            else:  # the left neighbour's first card and the right one's second come here
                choices[givers[0]] = [_act(f"pass {cards[0]}"), None]
                choices[givers[1]] = [None, _act(f"pass {cards[1]}")]
        else:
            for q, answer in zip(givers, answers, strict=True):
                builds = _builds(answer, d.phase)
                held[q] = [card for card, _ in builds]
                choices[q] = [_act(f"build {card} {city}") for card, city in builds]
                if d.phase == "construct" or not builds:
                    choices[q].append(_act("stop"))
        start = _round_start(obs, held)
        unseen: list[Step] = [None, None] if d.phase == "pass" else [None]
        steps = [step for q in range(n) for step in choices.get(q, unseen)]
        return start, steps

    return SecretRound(questions=questions, replay=replay)


def _completes(d: Decision, action: int) -> bool:
    """Whether the observer's own `action` completes its secret choice."""
    if d.phase == "pass":
        return len(d.passes) == 1
    return d.phase == "first_build" or action == _act("stop")


def _act(text: str) -> int:
    return string_to_action(text)


def _own_steps(obs: Observation, action: int) -> list[Step]:
    """The observer's own choice this round, from its record (and its move, when it is the
    last to choose)."""
    d = obs.decision
    steps: list[Step]
    if d.phase == "pass":
        steps = [_act(f"pass {card}") for card in d.passes]
    elif d.phase == "first_build":
        card = d.first_build
        steps = [_act(f"build {card} {COLOURS[parse_kind(card) // 7]}") if card else _act("stop")]
        if d.player == obs.observer:
            steps = []
    else:
        steps = [_act(f"build {card} {city}") for card, city in d.selection]
        if d.player != obs.observer:
            steps.append(_act("stop"))
    if d.player == obs.observer and action != HIDDEN:
        steps.append(action)
    return steps


def _builds(answer: str, phase: str) -> list[tuple[str, str]]:
    """(card, City) of each card an answer names, in the order the engine takes them."""
    if answer.strip().lower() == "none":
        return []
    builds = []
    for part in answer.split(","):
        words = part.split()
        card = kind_name(parse_kind(words[0])) if words else ""
        if not card or len(words) > 2:
            raise WordedError(
                "cannot read '{text}': a card and its City, e.g. 'red-2 red'", text=part.strip()
            )
        colour = COLOURS[parse_kind(card) // 7]
        city = CITY_COLOURS[parse_colour(words[1])] if len(words) == 2 else colour
        builds.append((card, city))
    if phase == "first_build" and len(builds) > 1:
        raise WordedError("a first build is one card")
    return sorted(builds, key=lambda b: (parse_kind(b[0]), CITY_COLOURS.index(b[1])))


def _round_start(obs: Observation, held: dict[int, list[str]]) -> Observation:
    """The observation when the round began (player 0 to choose, nobody committed), where
    the observer knows the cards the others chose."""
    players = []
    for q, view in enumerate(obs.players):
        hand = view.hand
        for card in held.get(q, []):
            if q != obs.observer and (card not in hand or hand.count(card) < held[q].count(card)):
                hand = (*hand, card)
        if len(hand) > view.hand_size:
            raise InvalidObservationError(f"players[{q}].hand", "holds fewer cards than that")
        hand = tuple(sorted(hand, key=parse_kind))
        players.append(replace(view, committed=False, hand=hand))
    decision = replace(obs.decision, player=0, passes=(), first_build=None, selection=())
    return replace(obs, players=tuple(players), decision=decision)


TABLE = TableRules(
    places=_places,
    deck=Counter({kind_name(k): copies(k) for k in range(len(COLOURS) * 7)}),
    questions={
        "market": "the card turned up from the draw pile for the Market",
        "discard": "the card turned up from the draw pile for the Market",
        "decision.drawn": "a card you drew",
        "players[": "the card drawn into your hand",
        "regent.": "the card drawn for the Regent",
    },
    parse=lambda text: kind_name(parse_kind(text)),
    pile_size=lambda obs: obs.pile_size,
    drawn=_drawn,
    worlds=3,
    hold=_hold,
    secret_round=_secret_round,
)
