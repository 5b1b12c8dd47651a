"""A seat's decisions of a seeded game, for the tests that review them through the service."""

from __future__ import annotations

import engine
from search.bots import make_bot


def heuristic_decisions(count: int = 12) -> tuple[list[object], list[str]]:
    """Seat 0's first `count` decisions (fewer if the game ends first) of a two-player Royal
    Cities game (seed 3) between heuristic bots: its observations and the moves it made."""
    state = engine.new_game("royal_cities", 2, seed=3)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    observations: list[object] = []
    moves: list[str] = []
    while not state.is_terminal() and len(moves) < count:
        action = bots[state.current_player].choose(state, len(moves))
        if state.current_player == 0:
            observations.append(state.observation(0))
            moves.append(state.action_to_string(action))
        state.apply_action(action)
    return observations, moves
