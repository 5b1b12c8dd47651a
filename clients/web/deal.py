"""The hint page's position at the deal (`POST /api/deal`): a new game of one of the served
games dealt by the engine from an explicit seed, as one seat sees it.

The page's first screen starts a game here, at the deal (the game's first decision, e.g. a
setup pass or a first pick): the engine, not the page, knows how many cards each place
gets, whose decision comes first and what the seat is shown. The page then takes the seeded
cards off the places the player sees (its game module's dealPlaces) and asks for the
table's own (js/deal.js). Computed in the gateway's process, as the `regent` command does:
the observation at the deal is no call of the service, and it hides nothing the seat cannot
see (the engine's own observation).
"""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

import engine
from convert import game_of_oneof, observation_to_proto
from engine.errors import FieldError

#: The largest seed taken: a uint64, as the service's seeds are.
MAX_SEED = 2**64 - 1


class BadDeal(FieldError):
    """A deal request with a wrong `field` (the gateway answers it as INVALID_ARGUMENT)."""


def deal(body: dict[str, Any]) -> dict[str, Any]:
    """`{"observation": ...}` for `body`'s game (an Observation oneof field, as the page
    names games), num_players, seat (0-based) and seed (a number or its decimal text);
    BadDeal names the first field that is wrong."""
    field = body.get("game")
    name = game_of_oneof(field) if isinstance(field, str) else None
    if name is None:
        raise BadDeal("game", "must name a game the service serves, not {value}", value=repr(field))
    counts = engine.game(name).player_counts
    num_players = _integer(body, "num_players")
    if num_players not in counts:
        allowed = ", ".join(str(n) for n in counts)
        raise BadDeal(
            "num_players",
            "must be one of {allowed} for {game}, not {value}",
            allowed=allowed,
            game=name,
            value=num_players,
        )
    seat = _integer(body, "seat")
    if not 0 <= seat < num_players:
        raise BadDeal(
            "seat", "must be from 0 to {last}, not {value}", last=num_players - 1, value=seat
        )
    seed = _integer(body, "seed", default=0)
    if not 0 <= seed <= MAX_SEED:
        raise BadDeal("seed", "must be from 0 to {last}, not {value}", last=MAX_SEED, value=seed)
    observation = engine.new_game(name, num_players, seed).observation(seat)
    message = observation_to_proto(observation)
    return {"observation": json_format.MessageToDict(message, preserving_proto_field_name=True)}


def _integer(body: dict[str, Any], field: str, default: int | None = None) -> int:
    """The integer `field` of `body` (decimal text too, as protobuf's JSON writes 64-bit
    numbers); BadDeal when it is missing or no integer."""
    value = body.get(field, default)
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise BadDeal(field, "must be an integer, not {value}", value=repr(value))
