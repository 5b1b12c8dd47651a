"""Regent against an outside opponent: OpenSpiel's own ISMCTS (its Python `ISMCTSBot`, "adapted
from the C++ implementation"), playing our games through OpenSpiel's Python-game interface.
OpenSpiel is not a dependency of the package: `pip install open_spiel`.

    python -m bench.openspiel_match --game GAME --players 2 --games 20 --seconds 0.25
    python -m bench.openspiel_match --game GAME --players 2 --games 20 --iterations 500

Game g is dealt from `--seed + g` with our bot (the game's default at that player count, or
`--ours`) in seat g mod players and OpenSpiel's ISMCTS in every other seat. Both get the same
budget: `--iterations` N each a move, or `--seconds` S, which our search keeps itself and
OpenSpiel's (which counts simulations only) is given as the simulations its recent rate
fits into S; the summary prints the seconds each side spent a move. OpenSpiel's search is
given what its own tools give it: a node per (player to move, information state string), a
uniform prior, one uniformly random rollout per leaf (`RandomRolloutEvaluator`'s policy,
played in our C core so that its rollouts cost what ours do) and the worlds it searches
drawn by our `resample` from the player's information, with seeds from its own generator.
Its exploration constant is ours (`SearchConfig.c`, for returns in [0, 1]).

The C++ `pyspiel.ISMCTSBot` is not used: in open_spiel 2.0.2 it crashes (a segmentation
fault) on the first search of any Python game, ours and OpenSpiel's own Python poker alike.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import engine
from clients.tournament.play import play_game
from clients.tournament.remote import bot_for
from clients.tournament.results import wilson
from engine.interface import State
from search.bots import Bot
from search.games import default_bot
from search.ismcts import CancelToken
from search.search import SearchConfig
from search.spec import with_options

if TYPE_CHECKING:  # OpenSpiel is imported where it is used: the module loads without it
    import pyspiel

#: The outside bot's spec: `openspiel-ismcts:iterations=N` or `openspiel-ismcts:seconds=S`.
OUTSIDE = "openspiel-ismcts"
#: An upper bound on every game's action ids (OpenSpiel's `num_distinct_actions`); a larger id
#: is refused when the game is wrapped.
MAX_ACTIONS = 4096
#: The outside bot's simulations in its first search at a time budget, which measure its rate.
FIRST_SIMULATIONS = 20


@cache
def openspiel_game(game: str, players: int) -> pyspiel.Game:
    """`game` with `players` players as an OpenSpiel game (registered once a process)."""
    import numpy as np
    import pyspiel

    name = f"python_regent_{game}_{players}p"
    info = pyspiel.GameInfo(
        num_distinct_actions=MAX_ACTIONS,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=engine.new_game(game, players).max_game_length,
    )
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Regent's {game}, {players} players",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )

    class Observer:
        """What a player knows: our observation, as JSON (no tensor)."""

        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: Wrapped, player: int) -> None:
            pass

        def string_from(self, state: Wrapped, player: int) -> str:
            return json.dumps(state.ours.observation(player).to_json(), sort_keys=True)

    class Game(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> Wrapped:
            return Wrapped(self, engine.new_game(game, players))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer()

        def wrap(self, ours: State) -> Wrapped:
            """`ours` as this game's state (not a copy)."""
            return Wrapped(self, ours)

    class Wrapped(pyspiel.State):
        """One of our states seen through OpenSpiel's State API."""

        def __init__(self, os_game: pyspiel.Game, ours: State) -> None:
            super().__init__(os_game)
            self.ours = ours

        def current_player(self) -> int:
            return (
                int(pyspiel.PlayerId.TERMINAL)
                if self.ours.is_terminal()
                else self.ours.current_player
            )

        def _legal_actions(self, player: int) -> list[int]:
            legal = self.ours.legal_actions()
            if legal and legal[-1] >= MAX_ACTIONS:
                raise ValueError(f"action {legal[-1]} is past MAX_ACTIONS ({MAX_ACTIONS})")
            return legal

        def _apply_action(self, action: int) -> None:
            self.ours.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.ours.action_to_string(action)

        def is_terminal(self) -> bool:
            return self.ours.is_terminal()

        def returns(self) -> list[float]:
            return self.ours.returns() if self.ours.is_terminal() else [0.0] * players

        def __str__(self) -> str:
            return json.dumps(self.ours.observation(max(self.ours.current_player, 0)).to_json())

        def __deepcopy__(self, memo: Any) -> Wrapped:
            return Wrapped(self.get_game(), self.ours.clone())

        def resample_from_infostate(self, player: int, sampler: Any) -> Wrapped:
            return Wrapped(self.get_game(), self.ours.resample(player, int(sampler() * 2**62)))

    pyspiel.register_game(game_type, Game)
    return pyspiel.load_game(name)


class _Rollouts:
    """OpenSpiel's `RandomRolloutEvaluator` (one uniformly random rollout a leaf, a uniform
    prior), its rollout played by our C core (`State.playout`) with seeds from `rng`."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        world = state.ours.clone()
        world.playout(int(self.rng.randint(2**62)))
        return np.array(world.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


@dataclass
class OpenSpielIsmcts:
    """OpenSpiel's ISMCTS as one of our bots, at `iterations` simulations a move or, with
    `seconds`, as many as its rate over the moves before fits in that time."""

    spec: str
    game: str
    players: int
    iterations: int
    seconds: float
    rate: float = 0.0  # simulations a second, measured on this bot's searches
    simulations: int = 0
    elapsed: float = 0.0
    searches: int = 0

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        import numpy as np
        from open_spiel.python.algorithms import ismcts

        if self.iterations:
            budget = self.iterations
        elif self.rate:
            budget = max(1, round(self.rate * self.seconds))
        else:
            budget = FIRST_SIMULATIONS
        rng = np.random.RandomState(seed % 2**32)
        game = openspiel_game(self.game, self.players)
        bot = ismcts.ISMCTSBot(game, _Rollouts(rng), SearchConfig.c, budget, random_state=rng)
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rng.uniform))
        start = time.perf_counter()
        action = int(bot.step(game.wrap(state.clone())))
        spent = time.perf_counter() - start
        self.rate = budget / max(spent, 1e-9)
        self.simulations += budget
        self.elapsed += spent
        self.searches += 1
        return action


def outside_bot(spec: str, game: str, players: int) -> OpenSpielIsmcts:
    """The bot of an `openspiel-ismcts:...` spec: one of `iterations=N` and `seconds=S`."""
    _, _, options = spec.partition(":")
    budget = dict(part.split("=", 1) for part in options.split(",") if part)
    iterations, seconds = int(budget.pop("iterations", 0)), float(budget.pop("seconds", 0))
    if budget or (iterations > 0) == (seconds > 0):
        raise ValueError(f"{spec!r}: give {OUTSIDE} iterations=N or seconds=S, nothing else")
    return OpenSpielIsmcts(spec, game, players, iterations, seconds)


@dataclass(frozen=True)
class Played:
    """One game: our seat, the returns, and each side's seconds and searches."""

    seat: int
    returns: tuple[float, ...]
    ours_seconds: float
    ours_searches: int
    theirs_seconds: float
    theirs_searches: int
    theirs_simulations: int


class _TimedBot:
    """Our bot, timed."""

    def __init__(self, bot: Bot) -> None:
        self.bot, self.spec = bot, bot.spec
        self.elapsed, self.searches = 0.0, 0

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        start = time.perf_counter()
        action = self.bot.choose(state, seed, cancel)
        self.elapsed += time.perf_counter() - start
        self.searches += 1
        return action


def play_one(game: str, players: int, ours: str, theirs: str, index: int, seed: int) -> Played:
    """Game `index`: dealt from `seed + index`, ours in seat `index` mod `players`."""
    seat = index % players
    made: list[Any] = []

    def make(spec: str, game: str, players: int) -> Bot:
        bot: Any = (
            outside_bot(spec, game, players)
            if spec.startswith(OUTSIDE)
            else _TimedBot(bot_for(spec, game, players))
        )
        made.append(bot)
        return bot

    specs = [ours if i == seat else theirs for i in range(players)]
    result = play_game(game, specs, seed + index, engine.game(game).rules_class(), players, make)
    if result.failure is not None or result.returns is None:
        raise RuntimeError(f"game {index} did not finish: {result.failure}")
    mine = made[seat]
    others = [bot for i, bot in enumerate(made) if i != seat]
    return Played(
        seat,
        result.returns,
        mine.elapsed,
        mine.searches,
        sum(bot.elapsed for bot in others),
        sum(bot.searches for bot in others),
        sum(bot.simulations for bot in others),
    )


def summary(played: Sequence[Played], players: int) -> str:
    """Our win share with its Wilson interval, by seat too, and each side's time a move."""
    won = sum(game.returns[game.seat] for game in played)
    low, high = wilson(won, len(played))
    lines = [
        f"ours won {won:g} of {len(played)}: {won / len(played):.1%} [{low:.1%}-{high:.1%}] "
        f"(an equal bot {1 / players:.1%})"
    ]
    for seat in range(players):
        games = [game for game in played if game.seat == seat]
        if games:
            lines.append(f"  seat {seat}: {sum(g.returns[seat] for g in games):g} of {len(games)}")
    ours = sum(g.ours_seconds for g in played) / max(1, sum(g.ours_searches for g in played))
    searches = sum(g.theirs_searches for g in played)
    theirs = sum(g.theirs_seconds for g in played) / max(1, searches)
    simulations = sum(g.theirs_simulations for g in played) / max(1, searches)
    lines.append(
        f"seconds a move: ours {ours:.3f}, OpenSpiel's {theirs:.3f} "
        f"({simulations:.0f} simulations a move)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.openspiel_match", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--iterations", type=int, default=0, help="each side's iterations a move")
    budget.add_argument("--seconds", type=float, default=0.0, help="each side's seconds a move")
    parser.add_argument(
        "--ours", help="our bot's spec, without its budget (default: the game's default bot)"
    )
    args = parser.parse_args(argv)
    game = engine.game(args.game).name
    part = f"iterations={args.iterations}" if args.iterations else f"seconds={args.seconds}"
    ours = with_options(args.ours or default_bot(game, args.players), part, "threads=1")
    theirs = f"{OUTSIDE}:{part}"
    print(f"{game}, {args.players} players, {args.games} games: ours {ours}, theirs {theirs}")
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        futures = [
            pool.submit(play_one, game, args.players, ours, theirs, g, args.seed)
            for g in range(args.games)
        ]
        played = []
        for g, future in enumerate(futures):
            game_played = future.result()
            played.append(game_played)
            print(
                f"game {g}: ours in seat {game_played.seat}, returns {list(game_played.returns)}",
                flush=True,
            )
    print(summary(played, args.players))
    return 0


if __name__ == "__main__":
    sys.exit(main())
