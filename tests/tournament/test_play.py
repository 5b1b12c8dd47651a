"""One tournament game (`clients.tournament.play.play_game`): a move with no choice is played
without asking the bot, and the game is the one the bots would have played anyway."""

from __future__ import annotations

import pytest

import engine
from clients.tournament.play import play_game
from search.bots import Bot, make_bot
from search.ismcts import CancelToken


class Counting:
    """A bot that plays as `inner` and keeps how many legal moves each call offered."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.choices: list[int] = []

    def choose(self, state: engine.State, seed: int, cancel: CancelToken | None = None) -> int:
        self.choices.append(len(state.legal_actions()))
        return self.inner.choose(state, seed, cancel)


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("royal_cities", 2)])
def test_a_move_with_no_choice_is_not_asked_of_the_bot(game: str, players: int) -> None:
    bots: list[Counting] = []

    def make(spec: str, game: str, players: int) -> Bot:
        bots.append(Counting(make_bot(spec, game, players)))
        return bots[-1]

    result = play_game(game, ["heuristic"] * players, 5, None, players, make)
    asked = [n for bot in bots for n in bot.choices]
    assert asked and min(asked) >= 2

    # The same seeded game, each bot asked at every move, forced ones included.
    state = engine.new_game(game, players, seed=5)
    heuristic = make_bot("heuristic", game, players)
    forced = 0
    for number, move in enumerate(result.moves):
        forced += len(state.legal_actions()) == 1
        action = heuristic.choose(state, 5 * 100_003 + number)
        assert state.action_to_string(action) == move
        state.apply_action(action)
    assert forced > 0 and len(asked) + forced == len(result.moves)
    assert tuple(state.returns()) == result.returns
