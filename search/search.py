"""Run a search from a state and read its result (the C loop is in `search.ismcts`)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from engine.interface import State
from search.ismcts import CancelToken, Mode, SearchRun, Selection, mean_reward, win_chance

ALGORITHMS = {"mo-ismcts": Mode.MODE_MO, "so-ismcts": Mode.MODE_SO, "pimc": Mode.MODE_PIMC}
#: How a player's move is chosen at a node of the tree: "ucb", the most promising by UCB (the
#: play converges to a pure strategy); "smooth", Smooth UCT (Heinrich & Silver 2015): UCB's
#: move or, more and more often as the node's visits grow (from 10% to 90%), one drawn from the
#: node's average strategy, the shares of UCB's choices there, which is the search's policy;
#: "regret", regret matching (Lisý et al. 2013): a move drawn in proportion to its positive
#: regret mixed with `gamma` of uniform exploration, whose average strategy is the policy.
#: Both play the policy at the root and approach an equilibrium with `whole_game`.
SELECTIONS = {
    "ucb": Selection.SEL_UCB,
    "smooth": Selection.SEL_SMOOTH,
    "regret": Selection.SEL_REGRET,
}
PLAYOUTS = ("random", "heuristic")
#: The budget of a search that names neither iterations nor seconds.
DEFAULT_ITERATIONS = 2000
#: The most moves `show` may give a share of the budget (the C core's MAX_SHOW).
MAX_SHOW = 64


@dataclass(frozen=True)
class SearchConfig:
    """What to search with. A budget of 0 means no limit on that axis; one must be set."""

    algorithm: str = "mo-ismcts"
    #: Unset (`DEFAULT_ITERATIONS` when no time is set either): a time budget alone is the
    #: whole budget, never that time or a default iteration cap, whichever comes first.
    iterations: int = None  # type: ignore[assignment]  # resolved in __post_init__
    seconds: float = 0.0
    threads: int = 1
    c: float = 0.7
    #: Weight w of the score margin in the reward, which stays within [0, 1]:
    #: (1 - w) * result + w * (1/2 + 1/2 * clamp(margin / margin_scale, -1, 1)).
    margin_weight: float = 0.0
    #: Points of margin that count fully (the term is clamped to [-1, 1]).
    margin_scale: float = 20.0
    #: Weight of the player's place in the reward: the share of the others it ends ahead of
    #: on points (a tie counts half), taken from the result's share as the margin's is.
    rank_weight: float = 0.0
    #: 0: the margin and the place shape the searching player's reward alone, and the others
    #: choose by their game result (opponents that play only to win, as a plain search does);
    #: 1: every player's reward is shaped alike.
    shape_others: int = 1
    playout: str = "heuristic"
    #: With the heuristic playout, the chance of a uniformly random move instead.
    epsilon: float = 0.2
    #: PIMC: how many worlds are sampled.
    worlds: int = 8
    max_nodes: int = 4_000_000
    seed: int = 0
    pv_length: int = 12
    #: How the move is chosen from the root's visits: 0 plays the most visited move; T > 0
    #: draws a move with probability proportional to visits^(1/T), from `seed` (weaker
    #: play for difficulty levels: the higher T, the closer to uniform over visited moves).
    temperature: float = 0.0

    #: Actions one iteration may simulate; a playout still running then is scored
    #: from its position (the players ahead on points win). Random games of both
    #: games end within 800 actions, so only a position that cannot end hits it.
    max_steps: int = 10_000
    #: 1: a bot keeps its search trees from one move to its next when nothing happened in
    #: between but its own move (the subtree below that move is the next search's start);
    #: MO-ISMCTS and SO-ISMCTS only. A single search (advice) has nothing to keep.
    reuse: int = 0
    #: Actions a playout may take past the tree before the game's evaluation scores
    #: the position (its estimated share of the win per player, blended with the
    #: margin as a result is); 0 plays every playout to the end.
    playout_depth: int = 0
    #: Deals of what the player cannot see, weighed once a search by how likely they make
    #: the others' observed choices under the game's fitted model of them; each iteration's
    #: world draws one by weight. 0 deals uniformly; a game without a model at the position's
    #: player count refuses more (ValueError).
    infer: int = 0
    #: One of `SELECTIONS`. With "smooth" or "regret" the search plays its average strategy at
    #: the root: the move is drawn from it, from `seed` (`temperature` stays 0).
    selection: str = "ucb"
    #: 1: MO-ISMCTS searches the whole game from its deal, for a game that can start again
    #: (the test games; else ValueError): every world deals everything anew and each player's
    #: tree branches first on what it holds, so that the others are searched as players who do
    #: not know the root player's cards, and the root's moves are read at the root player's
    #: information set now. With "smooth" this approaches an equilibrium, which a search from
    #: the position cannot (it deals the others' cards uniformly, whatever their moves said).
    whole_game: int = 0
    #: With "regret": the share of uniform exploration in each choice, within (0, 1].
    gamma: float = 0.1
    #: K > 0: win chances worth showing for the root's K most visited moves, and the move
    #: chosen among those K by them. The last `show_share` of the budget (of its iterations, and
    #: of its time) is a final phase in which the root visits those K moves (its K most
    #: visited when the phase starts) least-visited first, so each ends with at least
    #: `show_share` / K of the budget, none overtaking the most visited. Their win chances
    #: (MO-ISMCTS) then count the player's next decision below each at the move it prefers
    #: where that move is there, not at every move it tried. The move is the one of the K
    #: with the highest win chance (alone, the highest mean reward), listed first, the others
    #: of the K after it by theirs. "ucb" selection at temperature 0 only, not with
    #: `whole_game`; with threads each worker gives its own top K their share.
    show: int = 0
    show_share: float = 0.3
    #: 1: below the root, the moves of a decision whose options hang on the player's own
    #: hidden draw (e.g. which drawn card to keep) are named in its tree by their rank
    #: by the game's heuristic, not by card, so that the worlds' different draws share one
    #: subtree rather than splitting the move's visits over one each (the game's
    #: `own_label`; no effect in a game without one).
    merge_draws: int = 0
    #: B > 0: progressive bias toward the game's heuristic (the playouts' policy) at every
    #: tree node: in each world its move there is expanded first and B / (visits + 1) is
    #: added to its UCB value, so the search looks where the heuristic would play until
    #: the visits say otherwise.
    bias: float = 0.0

    def __post_init__(self) -> None:
        if self.iterations is None:
            object.__setattr__(self, "iterations", 0 if self.seconds else DEFAULT_ITERATIONS)
        if self.algorithm not in ALGORITHMS:
            raise ValueError(
                f"unknown algorithm {self.algorithm!r}; one of {', '.join(ALGORITHMS)}"
            )
        if self.playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}")
        if self.selection not in SELECTIONS:
            raise ValueError(
                f"selection must be one of {', '.join(SELECTIONS)}, got {self.selection!r}"
            )
        for name, low, high in _INT_RANGES:
            _check_int(name, getattr(self, name), low, high)
        for name, least, most, low_open in _FLOAT_RANGES:
            _check_float(name, getattr(self, name), least, most, low_open)
        if self.margin_weight + self.rank_weight > 1.0:
            raise ValueError("margin_weight and rank_weight must add up to at most 1")
        if self.iterations == 0 and self.seconds == 0:
            raise ValueError("set an iteration budget, a time budget, or both")
        if self.reuse and self.algorithm == "pimc":
            raise ValueError("reuse: PIMC's fixed worlds cannot follow a move; "
                             "mo-ismcts and so-ismcts keep their trees")  # fmt: skip
        if self.selection != "ucb" and self.temperature:
            raise ValueError(
                f"temperature: the {self.selection} selection draws its move from its policy"
            )
        if self.show and not self.can_show:
            raise ValueError("show: only a search that picks its move, not one that draws it "
                             "from its visits, can show (ucb selection, temperature 0, not "
                             "whole_game)")  # fmt: skip
        if self.whole_game and (self.algorithm != "mo-ismcts" or self.reuse or self.infer):
            raise ValueError("whole_game: a search of the whole game is MO-ISMCTS's, "
                             "without reuse or infer")  # fmt: skip

    @property
    def can_show(self) -> bool:
        """Whether `show` may be set: the search picks its move from the root's statistics (the
        other selections and a temperature read the visits as a policy, which forcing visits
        would change)."""
        return self.selection == "ucb" and not self.temperature and not self.whole_game

    @property
    def mode(self) -> Mode:
        """The C search's mode for `algorithm` (`SearchRun` reads it)."""
        return ALGORITHMS[self.algorithm]

    @property
    def selection_mode(self) -> Selection:
        """The C search's selection for `selection` (`SearchRun` reads it)."""
        return SELECTIONS[self.selection]

    @property
    def heuristic_playout(self) -> bool:
        """Whether playouts follow the game's heuristic (`SearchRun` reads it)."""
        return self.playout == "heuristic"


#: (option, lowest, highest) for the integer options; every bound fits the C core's types.
_INT_RANGES = (
    ("iterations", 0, 1 << 62),
    ("threads", 1, 64),
    ("worlds", 1, 64),
    ("max_nodes", 1024, (1 << 31) - 1),
    ("seed", -(1 << 63), (1 << 64) - 1),
    ("pv_length", 0, 256),
    ("max_steps", 1, 1_000_000),
    ("playout_depth", 0, 1_000_000),
    ("reuse", 0, 1),
    ("shape_others", 0, 1),
    ("infer", 0, 1 << 16),
    ("whole_game", 0, 1),
    ("show", 0, MAX_SHOW),
    ("merge_draws", 0, 1),
)
#: (option, lowest, highest, whether the lowest is excluded) for the real-valued options.
_FLOAT_RANGES = (
    ("seconds", 0.0, 86_400.0, False),
    ("c", 0.0, 100.0, False),
    ("margin_weight", 0.0, 1.0, False),
    ("margin_scale", 0.0, 1e6, True),
    ("rank_weight", 0.0, 1.0, False),
    ("epsilon", 0.0, 1.0, False),
    ("temperature", 0.0, 100.0, False),
    ("gamma", 0.0, 1.0, True),
    ("show_share", 0.0, 0.9, True),
    ("bias", 0.0, 100.0, False),
)


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be within [{low}, {high}], got {value}")


def _check_float(name: str, value: object, low: float, high: float, low_open: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    if value > high or value < low or (low_open and value == low):
        bracket = "(" if low_open else "["
        raise ValueError(f"{name} must be within {bracket}{low:g}, {high:g}], got {value:g}")


@dataclass(frozen=True)
class MoveStats:
    """One move of the player to act, as the search saw it."""

    action: int
    text: str
    visits: int
    #: Mean reward for the player to act, within [0, 1].
    mean_reward: float
    #: The share of playouts through this move that the player won (shared wins split).
    win_chance: float
    availability: int
    #: The probability that the search's recommendation is this move: for "ucb", 1 for the
    #: most visited move (or visits^(1/temperature) shares); for "smooth" and "regret", its
    #: average strategy.
    policy: float


@dataclass(frozen=True)
class SearchResult:
    action: int
    text: str
    moves: tuple[MoveStats, ...]  # most visited first
    principal_variation: tuple[str, ...]
    iterations: int
    simulated_actions: int
    elapsed: float
    nodes: int
    finished: bool
    #: Iterations whose playout reached `max_steps` and was scored from its position.
    capped: int
    config: SearchConfig = field(repr=False)

    @property
    def estimated(self) -> int:
        """How many of the most visited moves have a win chance that estimates that move: the
        `show` moves the final phase gave their share of the budget, once the search has
        finished; none before, or without `show` (the values are then where the root spent
        its visits, which underrate the moves it did not settle on)."""
        return min(self.config.show, len(self.moves)) if self.finished else 0


class Search:
    """A search that can run in slices: `advance` runs it for a while, `result`
    reads it in between (an analysis reports as it goes). The state is copied
    at the start and left unchanged."""

    def __init__(
        self,
        state: State,
        config: SearchConfig,
        cancel: CancelToken | None = None,
        *,
        previous: Search | None = None,
        played: int = -1,
    ):
        """With `previous` (a search of the same player, with the same algorithm and threads,
        from the position before `state`) and `played` (the move made there), go on from its
        trees below that move; `previous` is used up."""
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        self.config = config
        kept: SearchRun | None = previous._run if previous is not None else None
        self._run: SearchRun = SearchRun(state, config, cancel, kept, played)
        self._legal = state.legal_actions()
        self._text = state.action_to_string

    @property
    def finished(self) -> bool:
        return self._run.finished

    def cancel(self) -> None:
        self._run.cancel_token.cancel()

    def stop_within(self, seconds: float) -> None:
        """Spend at most `seconds` (> 0) more from now, whatever the budget left."""
        self._run.stop_within(seconds)

    def advance(self, seconds: float = 0.0) -> bool:
        """Run for up to `seconds` more (0: to the end of the budget); True when finished."""
        return self._run.advance(seconds)

    def result(self) -> SearchResult:
        raw = self._run.stats()
        found = {action: raw["moves"].get(action, _UNSEEN) for action in self._legal}
        # The core's order (its move first; see `show`), then the moves no iteration reached.
        seen = [action for action in raw["ranked"] if action in found and found[action][0]]
        order = seen + sorted(set(self._legal) - set(seen))
        weights = _weights([found[a] for a in order], self.config)
        moves = [
            MoveStats(
                action=action,
                text=self._text(action),
                visits=found[action][0],
                mean_reward=mean_reward(found[action]),
                win_chance=win_chance(found[action]),
                availability=found[action][3],
                policy=weight / sum(weights),
            )
            for action, weight in zip(order, weights, strict=True)
        ]
        best = moves[0]
        if len([weight for weight in weights if weight]) > 1:
            best = random.Random(self.config.seed).choices(moves, weights)[0]
        pv = tuple("(hidden)" if label < 0 else self._text(label)
                   for label in raw["principal_variation"])  # fmt: skip
        return SearchResult(
            action=best.action,
            text=best.text,
            moves=tuple(moves),
            principal_variation=pv,
            iterations=raw["iterations"],
            simulated_actions=raw["actions"],
            elapsed=raw["elapsed"],
            nodes=raw["nodes"],
            finished=self._run.finished,
            capped=raw["capped"],
            config=self.config,
        )


#: A move's root statistics: visits, reward, win, availability, average strategy weight.
_Entry = tuple[int, float, float, int, float]
_UNSEEN: _Entry = (0, 0.0, 0.0, 0, 0.0)


def _weights(entries: list[_Entry], config: SearchConfig) -> list[float]:
    """The weights the move to play is drawn with, for moves by root statistics in the
    core's order (most visited first; with `show`, the shown moves first by their worth):
    for "smooth" and "regret" the average strategy (the C loop's weights), uniform before
    any. For "ucb" the first alone at temperature 0 (or before any visit), else
    visits^(1/temperature) relative to the first's."""
    visits = [entry[0] for entry in entries]
    if config.selection != "ucb":
        if any(entry[4] for entry in entries):
            return [entry[4] for entry in entries]
        return [1.0] * len(visits)
    if config.temperature == 0 or visits[0] == 0:
        return [1.0] + [0.0] * (len(visits) - 1)
    top = math.log(visits[0])
    return [math.exp((math.log(v) - top) / config.temperature) if v else 0.0 for v in visits]


def position_value(
    state: State, config: SearchConfig, observer: int, cancel: CancelToken | None = None
) -> float:
    """`observer`'s win chance at `state`, whoever is to move: an MO-ISMCTS search for it,
    dealing worlds from what it can see, that reads its own decisions at the move it prefers
    where that move is there (as `show`'s win chances do) and the others' as its trees model
    them. The position after a move, searched so, values that move apart from the search
    that chose it. ValueError for a finished game, another algorithm, `show` or
    `whole_game`."""
    if state.is_terminal():
        raise ValueError("the game is over: there is nothing to search")
    run = SearchRun(state, config, cancel, observer=observer)
    run.advance()
    return run.value()


def search(state: State, config: SearchConfig, cancel: CancelToken | None = None) -> SearchResult:
    """Search for the player to move in `state` until the budget is spent or
    `cancel` is raised; `state` is left unchanged."""
    run = Search(state, config, cancel)
    run.advance()
    return run.result()
