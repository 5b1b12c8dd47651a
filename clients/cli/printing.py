"""A game as `regent play`, `watch` and `hint` print it: the position in the game's own terms
(its terminal text module, clients/<game>_text.py), an event of a hosted match, the final
scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.cli.shared import BadInput
from clients.text import GameText, player_name, text_of
from regent.v1 import advisor_pb2, matches_pb2


def game_text(observation: advisor_pb2.Observation) -> tuple[GameText, Any]:
    """(the game's text module, the oneof's message) of an observation."""
    found = text_of(observation)
    if found is None:
        raise BadInput("the observation sets no game that has a terminal text")
    return found


def board(observation: advisor_pb2.Observation, me: int | None = None) -> str:
    """The position as `me` sees it, in the game's own terms."""
    text, obs = game_text(observation)
    return text.board(obs, me)


def summary(observation: advisor_pb2.Observation) -> str:
    """One line: where the game is and who decides what."""
    text, obs = game_text(observation)
    return text.summary(obs)


def event_text(event: matches_pb2.MatchEvent, me: int | None) -> str:
    """`p1: play hand red-3`, `p2: (secret choice made)` or `p0 resigned`."""
    if event.HasField("resigned_seat"):
        return f"{player_name(event.resigned_seat, me)} resigned"
    actor = player_name(event.seat, me) if event.HasField("seat") else "game"
    return f"{actor}: {event.move.text}"


def result_line(scores: Sequence[int], returns: Sequence[float], me: int | None = None) -> str:
    """Final scores and who won; in the solo mode the last score is the Regent's."""
    names = [player_name(i, me) for i in range(len(returns))]
    if len(scores) > len(returns):
        names.append("the Regent")
    shown = " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
    if len(returns) == 1:
        outcome = {1.0: f"{names[0]} beat the Regent", 0.0: "the Regent wins"}
        verdict = outcome.get(returns[0], "a tie with the Regent")
    else:
        best = max(returns)
        winners = [n for n, r in zip(names, returns, strict=True) if r == best and r > 0]
        verdict = (
            f"{winners[0]} won" if len(winners) == 1 else " and ".join(winners) + " share victory"
        )
    return f"Final scores: {shown}; {verdict}."
