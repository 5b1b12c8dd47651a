"""The generic conversion of observations (convert.observation_from_proto): a message that
names no game is refused naming `game`, and a message of another type is the caller's bug."""

from __future__ import annotations

import pytest

from convert import observation_from_proto
from engine.errors import InvalidObservationError
from regent.v1 import advisor_pb2, royal_cities_pb2


def test_a_message_without_a_game_names_game() -> None:
    for msg in (advisor_pb2.Observation(), advisor_pb2.Observation.FromString(b"")):
        with pytest.raises(InvalidObservationError) as err:
            observation_from_proto(msg)
        assert err.value.field == "game"


def test_other_messages_are_a_type_error() -> None:
    """Passing the wrong message type is a bug in the caller, not a bad request."""
    with pytest.raises(TypeError):
        observation_from_proto(royal_cities_pb2.RoyalCitiesObservation())  # type: ignore[arg-type]
