"""Conversions between the engine's observations and the service's protobuf messages, for
every game that has a converter module, `convert/<game>.py` (found by the game's name, of the
shape `convert.adapter.Converter`): the service serves exactly those games. The service and
the client library both use them.

Reading a message (`observation_from_proto`) checks only its shape: enum numbers, card values,
list lengths and the few strings. Whether the position can happen is left to the engine's
`state_from_observation`, which raises `InvalidObservationError` with the engine's own paths.

Every error raised here is an `InvalidObservationError` whose `.field` is the path of the bad
field in the `regent.v1.Observation` message, written with the proto's snake_case field names,
dots between messages and `[i]` for the i-th entry of a repeated field, e.g.
`<game>.players[1].hand[0]`; a bad card names the card itself (not its parts). The one
exception is `game`: the oneof left unset.

Lists the engine keeps sorted are sorted when read, so a client may send them in any order;
lists whose order means something keep it (each game's module says which).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, cast

import engine
from convert.adapter import Converter
from engine.errors import InvalidObservationError
from engine.registry import GameSpec, layer_module
from regent.v1 import advisor_pb2, common_pb2

__all__ = [
    "Converter",
    "converter",
    "game_name",
    "game_number",
    "game_of_oneof",
    "observation_from_proto",
    "observation_to_proto",
    "observer_of",
    "rules_of_request",
    "served_games",
]

#: The package of the games' converter modules: this one.
_LAYER = __name__


@functools.cache
def converter(game: str) -> Converter | None:
    """The converter module of the game called `game`, `convert/<game>.py`; None for a game
    the service does not serve (it has none). ValueError for a name no game has."""
    return cast("Converter | None", layer_module(_LAYER, game))


def served_games() -> Sequence[GameSpec]:
    """Every game that has a converter, by name: the games the service serves."""
    return [spec for spec in engine.games() if converter(spec.name) is not None]


def _served(game: str) -> Converter:
    found = converter(game)
    if found is None:
        raise ValueError(f"the service does not serve {game}: it has no converter")
    return found


@functools.cache
def _by_oneof() -> dict[str, tuple[str, Converter]]:
    """The Observation oneof field -> (the game's name, its converter)."""
    return {c.ONEOF: (spec.name, c) for spec in served_games() if (c := converter(spec.name))}


def game_number(game: str) -> common_pb2.Game:
    """The `regent.v1.Game` enum number of a served game."""
    return _served(game).GAME


def game_of_oneof(field: str) -> str | None:
    """The engine's name of the served game whose Observation oneof field is `field`, or None."""
    found = _by_oneof().get(field)
    return found[0] if found is not None else None


def game_name(number: int) -> str | None:
    """The engine's name of the served game with enum number `number`, or None."""
    return next((name for name, c in _by_oneof().values() if number == c.GAME), None)


def observation_to_proto(obs: Any) -> advisor_pb2.Observation:
    """The message for an engine observation (of any game the service serves)."""
    found = converter(obs.game)
    if found is None:
        raise ValueError(f"no protobuf conversion for the game {obs.game!r}")
    msg = advisor_pb2.Observation()
    getattr(msg, found.ONEOF).CopyFrom(found.observation_to_proto(obs))
    return msg


def observation_from_proto(msg: advisor_pb2.Observation) -> Any:
    """The engine observation in a message, equal to the engine's own for the same position.

    Raises only InvalidObservationError, whatever the message holds; `.field` is the
    snake_case path of the bad field (see the module docstring). TypeError if `msg` is not
    a `regent.v1.Observation` at all: that is a bug in the caller, not a bad request.
    """
    if not isinstance(msg, advisor_pb2.Observation):
        raise TypeError(f"expected a regent.v1.Observation, got {type(msg).__name__}")
    which = msg.WhichOneof("game")
    if which is None:
        raise _no_game()
    found = _by_oneof().get(which)
    if found is None:  # a game the proto knows and this server does not yet
        raise InvalidObservationError("game", "the game '{game}' is not supported", game=which)
    return found[1].observation_from_proto(getattr(msg, which), which)


def observer_of(msg: advisor_pb2.Observation) -> tuple[str, int]:
    """(the oneof field set, its observer) of an Observation that has a game."""
    which = msg.WhichOneof("game")
    if which is None:
        raise _no_game()
    return which, getattr(msg, which).observer


def _no_game() -> InvalidObservationError:
    """The error of an Observation that sets none of its games, naming the served ones."""
    served = ", ".join(_by_oneof())
    return InvalidObservationError("game", "no game is set: set one of {games}", games=served)


def rules_of_request(game: str, request: Any) -> Any:
    """The engine RulesConfig a request (CreateMatchRequest) sets for `game`;
    InvalidObservationError whose field is the request's field path."""
    found = _served(game)
    try:
        return found.rules_from_proto(getattr(request, found.RULES_FIELD))
    except InvalidObservationError as err:
        raise InvalidObservationError(f"{found.RULES_FIELD}.{err.field}", err.reason) from None
