"""Citadels observations to and from `regent.v1.CitadelsObservation`, and what ApplyMove needs
of its districts: the game's converter module (see `convert.adapter.Converter`; the field path
conventions are `convert`'s).

Districts and characters are enums whose names spell the engine's (`trading-post` is
CITADELS_DISTRICT_TRADING_POST); UNSPECIFIED stands for None where the engine allows one (the
killed or robbed character, the character called, the Magician's `min_card`, the destroyed
district) and is refused in a list. Lists the engine keeps sorted are sorted when read: hands,
`seen_of_mine`, drawn cards, the characters of a player, the face-up characters, each set of
characters shown, the reveals (by character) and the known deck cards (by position). Cities,
their `built_rounds`, and the draft's picks and discards keep their order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from convert.adapter import (
    Place,
    TableRules,
    add_places,
    enum_numbers,
    rules_message,
    rules_of_message,
    seat_is,
    seat_words,
)
from engine.citadels.cards import CHARACTERS, DISTRICT_NAMES, DISTRICTS, parse_district
from engine.citadels.observation import PHASES, Decision, Draft, Observation, PlayerView
from engine.citadels.rules import RulesConfig
from engine.errors import InvalidObservationError, Wording, worded
from regent.v1 import citadels_pb2, common_pb2

_pb = citadels_pb2
GAME = common_pb2.GAME_CITADELS
ONEOF = "citadels"
RULES_FIELD = "citadels_rules"
RULES_MESSAGE = citadels_pb2.CitadelsRules


_DISTRICT_NUMBER = enum_numbers(_pb.CitadelsDistrict, "CITADELS_DISTRICT_", DISTRICT_NAMES)
#: Number -> (kind, name): the kind is the engine's sort key.
_DISTRICT: dict[int, tuple[int, str]] = {
    n: (DISTRICT_NAMES.index(d), d) for d, n in _DISTRICT_NUMBER.items()
}
_CHARACTER_NUMBER = enum_numbers(_pb.CitadelsCharacter, "CITADELS_CHARACTER_", CHARACTERS)
_CHARACTER: dict[int, tuple[int, str]] = {
    n: (CHARACTERS.index(c), c) for c, n in _CHARACTER_NUMBER.items()
}
_PHASE_NUMBER = enum_numbers(_pb.CitadelsPhase, "CITADELS_PHASE_", PHASES)
_PHASE_NAME = {n: p for p, n in _PHASE_NUMBER.items()}


def rules_to_proto(rules: RulesConfig) -> citadels_pb2.CitadelsRules:
    return rules_message(rules, RULES_MESSAGE)


def rules_from_proto(msg: citadels_pb2.CitadelsRules) -> RulesConfig:
    """The options (every one defaults to false, as in the engine)."""
    return rules_of_message(msg, RulesConfig)


# -- engine -> proto ---------------------------------------------------------------


def _districts(names: Iterable[str]) -> list[citadels_pb2.CitadelsDistrict]:
    return [_DISTRICT_NUMBER[n] for n in names]


def _characters(names: Iterable[str]) -> list[citadels_pb2.CitadelsCharacter]:
    return [_CHARACTER_NUMBER[c] for c in names]


def _opt_district(name: str | None) -> citadels_pb2.CitadelsDistrict:
    return _pb.CITADELS_DISTRICT_UNSPECIFIED if name is None else _DISTRICT_NUMBER[name]


def _opt_character(name: str | None) -> citadels_pb2.CitadelsCharacter:
    return _pb.CITADELS_CHARACTER_UNSPECIFIED if name is None else _CHARACTER_NUMBER[name]


def observation_to_proto(obs: Observation) -> citadels_pb2.CitadelsObservation:
    """The Citadels branch of the oneof; unset optional fields stand for None."""
    d = obs.decision
    decision = _pb.CitadelsDecision(
        phase=_PHASE_NUMBER[d.phase],
        player=d.player,
        called=_opt_character(d.called),
        builds_left=d.builds_left,
        income_done=d.income_done,
        power_done=d.power_done,
        laboratory_done=d.laboratory_done,
        smithy_done=d.smithy_done,
        drawn=_districts(d.drawn),
        drawn_hidden=d.drawn_hidden,
        keep_left=d.keep_left,
        min_card=_opt_district(d.min_card),
        redraw_count=d.redraw_count,
        before_resources=d.before_resources,
        destroyed=_opt_district(d.destroyed),
        warlord=d.warlord,
    )
    return _pb.CitadelsObservation(
        observer=obs.observer,
        num_players=obs.num_players,
        rules=rules_to_proto(obs.rules),
        round=obs.round,
        crown=obs.crown,
        first_picker=obs.first_picker,
        players=[
            _pb.CitadelsPlayer(
                gold=v.gold,
                hand_size=v.hand_size,
                hand=_districts(v.hand),
                seen_of_mine=_districts(v.seen_of_mine),
                city=_districts(v.city),
                built_rounds=v.built_rounds,
                characters=_characters(v.characters),
            )
            for v in obs.players
        ],
        draft=_pb.CitadelsDraft(
            step=obs.draft.step,
            face_up=_characters(obs.draft.face_up),
            shown=[_pb.CitadelsCharacterSet(characters=_characters(s)) for s in obs.draft.shown],
            picks=_characters(obs.draft.picks),
            discards=_characters(obs.draft.discards),
        ),
        revealed=[
            _pb.CitadelsReveal(character=_CHARACTER_NUMBER[c], player=q) for c, q in obs.revealed
        ],
        killed=_opt_character(obs.killed),
        robbed=_opt_character(obs.robbed),
        deck_size=obs.deck_size,
        deck_known=[
            _pb.CitadelsDeckCard(
                position=i, district=_DISTRICT_NUMBER[name], public=i in obs.deck_public
            )
            for i, name in obs.deck_known
        ],
        first_complete=obs.first_complete,
        decision=decision,
    )


# -- proto -> engine; `path` is the field path of the message being read -----------------


def _unknown(what: str, path: str, number: int) -> InvalidObservationError:
    """The refusal of an enum number no `what` ("district", "character", "phase") has."""
    if what == "district":
        return InvalidObservationError(path, "no district has number {number}", number=number)
    if what == "character":
        return InvalidObservationError(path, "no character has number {number}", number=number)
    return InvalidObservationError(path, "no phase has number {number}", number=number)


def _read(numbers: Sequence[int], table: dict[int, tuple[int, str]], what: str, path: str):
    """(index, name) of each enum value, in the message's order; an unknown or UNSPECIFIED
    number is an InvalidObservationError at its own index."""
    out = []
    for i, number in enumerate(numbers):
        found = table.get(number)
        if found is None:
            raise _unknown(what, f"{path}[{i}]", number)
        out.append(found)
    return out


def _district_list(numbers: Sequence[int], path: str, *, keep_order: bool = False):
    read = _read(numbers, _DISTRICT, "district", path)
    return tuple(name for _, name in (read if keep_order else sorted(read)))


def _character_list(numbers: Sequence[int], path: str, *, keep_order: bool = False):
    read = _read(numbers, _CHARACTER, "character", path)
    return tuple(name for _, name in (read if keep_order else sorted(read)))


def _one(number: int, table: dict[int, tuple[int, str]], what: str, path: str) -> str | None:
    """A single optional enum: None for UNSPECIFIED."""
    if number == 0:
        return None
    found = table.get(number)
    if found is None:
        raise _unknown(what, path, number)
    return found[1]


def _player(msg: citadels_pb2.CitadelsPlayer, path: str) -> PlayerView:
    return PlayerView(
        gold=msg.gold,
        hand_size=msg.hand_size,
        hand=_district_list(msg.hand, f"{path}.hand"),
        seen_of_mine=_district_list(msg.seen_of_mine, f"{path}.seen_of_mine"),
        city=_district_list(msg.city, f"{path}.city", keep_order=True),
        built_rounds=tuple(msg.built_rounds),
        characters=_character_list(msg.characters, f"{path}.characters"),
    )


def _decision(msg: citadels_pb2.CitadelsDecision, path: str) -> Decision:
    phase = _PHASE_NAME.get(msg.phase)
    if phase is None:
        raise _unknown("phase", f"{path}.phase", msg.phase)
    return Decision(
        phase=phase,
        player=msg.player if msg.HasField("player") else None,
        called=_one(msg.called, _CHARACTER, "character", f"{path}.called"),
        builds_left=msg.builds_left,
        income_done=msg.income_done,
        power_done=msg.power_done,
        laboratory_done=msg.laboratory_done,
        smithy_done=msg.smithy_done,
        drawn=_district_list(msg.drawn, f"{path}.drawn"),
        drawn_hidden=msg.drawn_hidden,
        keep_left=msg.keep_left,
        min_card=_one(msg.min_card, _DISTRICT, "district", f"{path}.min_card"),
        redraw_count=msg.redraw_count,
        before_resources=msg.before_resources,
        destroyed=_one(msg.destroyed, _DISTRICT, "district", f"{path}.destroyed"),
        warlord=msg.warlord if msg.HasField("warlord") else None,
    )


def observation_from_proto(msg: citadels_pb2.CitadelsObservation, path: str) -> Observation:
    """The Citadels branch of the oneof, its shape checked (the engine checks the rest)."""
    draft = msg.draft
    revealed = []
    for i, reveal in enumerate(msg.revealed):
        found = _CHARACTER.get(reveal.character)
        if found is None:
            raise _unknown("character", f"{path}.revealed[{i}].character", reveal.character)
        if msg.num_players > 0 and not 0 <= reveal.player < msg.num_players:
            raise InvalidObservationError(  # here: the engine's path is the sorted pair's
                f"{path}.revealed[{i}].player",
                "must be a player from 0 to {last}",
                last=msg.num_players - 1,
            )
        revealed.append((found[0], found[1], reveal.player))
    deck_known = []
    for i, card in enumerate(msg.deck_known):
        found = _DISTRICT.get(card.district)
        if found is None:
            raise _unknown("district", f"{path}.deck_known[{i}].district", card.district)
        if msg.deck_size >= 0 and not 0 <= card.position < msg.deck_size:
            raise InvalidObservationError(
                f"{path}.deck_known[{i}].position",
                "must be a position inside the deck of {size}",
                size=msg.deck_size,
            )
        deck_known.append((card.position, found[1], card.public))
    return Observation(
        observer=msg.observer,
        num_players=msg.num_players,
        rules=rules_from_proto(msg.rules),
        round=msg.round,
        crown=msg.crown,
        first_picker=msg.first_picker,
        players=tuple(_player(p, f"{path}.players[{i}]") for i, p in enumerate(msg.players)),
        draft=Draft(
            step=draft.step,
            face_up=_character_list(draft.face_up, f"{path}.draft.face_up"),
            shown=tuple(
                _character_list(s.characters, f"{path}.draft.shown[{i}].characters")
                for i, s in enumerate(draft.shown)
            ),
            picks=_character_list(draft.picks, f"{path}.draft.picks", keep_order=True),
            discards=_character_list(draft.discards, f"{path}.draft.discards", keep_order=True),
        ),
        revealed=tuple((name, player) for _, name, player in sorted(revealed)),
        killed=_one(msg.killed, _CHARACTER, "character", f"{path}.killed"),
        robbed=_one(msg.robbed, _CHARACTER, "character", f"{path}.robbed"),
        deck_size=msg.deck_size,
        deck_known=tuple((position, name) for position, name, _ in sorted(deck_known)),
        deck_public=tuple(sorted(position for position, _, public in deck_known if public)),
        first_complete=msg.first_complete if msg.HasField("first_complete") else None,
        decision=_decision(msg.decision, f"{path}.decision"),
    )


# -- ApplyMove ----------------------------------------------------------------------


def _places(obs: Observation) -> Counter[Place]:
    """Every district a Citadels observation names, with its field."""
    places: Counter[Place] = Counter()
    add_places(places, "decision.drawn", obs.decision.drawn)
    if obs.decision.destroyed is not None:
        add_places(places, "decision.destroyed", [obs.decision.destroyed])
    add_places(places, "deck_known", [card for _, card in obs.deck_known])
    for q, view in enumerate(obs.players):
        add_places(places, f"players[{q}].hand", view.hand)
        add_places(places, f"players[{q}].city", view.city)
    return places


def _known_draws(obs: Observation) -> dict[int, str]:
    """The deck cards the observer put under it, by draw index (positions count from the
    bottom, draws from the top)."""
    return {obs.deck_size - 1 - position: card for position, card in obs.deck_known}


def _drawn(
    before: Observation, after: Observation, draws: list[str], new_cards: Counter[str]
) -> list[tuple[int, str]]:
    """Cards go under the deck as others come off its top, so the sizes do not tell how many
    were drawn; but every card the observer's own move draws lands in its sight (its hand or
    the cards to keep): the draws are the top cards up to the last new one it sees. Another
    player's draws land in its own hand, out of the observer's sight."""
    if before.decision.player != before.observer:
        return []  # another player's draws go to its own hand
    left = Counter(new_cards)
    known = _known_draws(before)
    taken = []
    for index, card in enumerate(draws):
        if not +left:
            break
        taken.append((index, card))
        if index not in known:
            if left[card] <= 0:
                break
            left[card] -= 1
    return taken


def _outcome(before: Observation, after: Observation) -> str:
    """What the table showed after a move, in words: who revealed the characters called, the
    crown, a new round's face-up characters, the characters the observer is handed."""
    words = []
    new_round = after.round != before.round
    if new_round:
        words.append(f"round {after.round}")
    earlier = set() if new_round else set(before.revealed)
    me = before.observer
    words += [f"{seat_is(q, me)} the {c}" for c, q in after.revealed if (c, q) not in earlier]
    if after.crown != before.crown:
        words.append(f"the crown to {seat_words(after.crown, me)}")
    if after.draft.face_up and (new_round or after.draft.face_up != before.draft.face_up):
        words.append("face up: " + ", ".join(after.draft.face_up))  # each round's, even the same
    if after.draft.shown != before.draft.shown and after.draft.shown:
        words.append("you are handed: " + ", ".join(after.draft.shown[-1]))
    return "; ".join(words)


def _district_name(text: str) -> str:
    return DISTRICTS[parse_district(text)][0]


def _why_not(obs: Observation, player: int, move: str) -> Wording | str:
    """Why `player` cannot build the district a move names, from what everyone sees: its
    gold, its city, the builds its character has left ("" when none of them forbids it)."""
    words = move.split()
    if len(words) != 2 or words[0] != "build" or words[1] not in DISTRICT_NAMES:
        return ""
    view, card, you = obs.players[player], words[1], player == obs.observer
    cost = DISTRICTS[DISTRICT_NAMES.index(card)][2]
    if card in view.city:
        if you:
            return worded(
                "you have built {card} already: a city has one of each district", card=card
            )
        return worded(
            "{player} has built {card} already: a city has one of each district",
            player=player,
            card=card,
        )
    if obs.decision.builds_left <= 0:
        if you:
            return worded("you have no build left this turn")
        return worded("{player} has no build left this turn", player=player)
    if cost > view.gold:
        if you:
            return worded(
                "you have {gold} gold; {card} costs {cost}", gold=view.gold, card=card, cost=cost
            )
        return worded(
            "{player} has {gold} gold; {card} costs {cost}",
            player=player,
            gold=view.gold,
            card=card,
            cost=cost,
        )
    return ""


#: The deck is drawn from the top and fed at the bottom; every card the observer's own move
#: draws lands in its sight, and the cards it put under the deck stay where it knows they
#: are. A round's end shows who held a character among few players (the killed King takes
#: the crown), which a few worlds could agree on by chance: hence many worlds.
TABLE = TableRules(
    places=_places,
    deck=Counter({name: n for name, _, _, n in DISTRICTS}),
    questions={
        "decision.drawn": "a district you drew, to keep or put back",
        "players[": "the district drawn into your hand",
    },
    parse=_district_name,
    pile_size=lambda obs: obs.deck_size,
    drawn=_drawn,
    worlds=16,
    known_draws=_known_draws,
    outcome=_outcome,
    why_not=_why_not,
)
