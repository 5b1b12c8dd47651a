"""Reasons for a search's move, read from the search and the asker's own view alone: its
principal variation step by step with who moves, the score it expects, and each game's own
reasons and beliefs (`search/<game>_reasons.py`, found by the game's name).

Everything here starts from worlds dealt as the search deals them for the player to move
(`sample_worlds`, with the search's own config: weighed by its inference where it infers),
so two positions the asker cannot tell apart give the same explanation for the same seed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from engine.interface import State
from engine.registry import game as spec
from engine.registry import layer_module
from search.ismcts import heuristic_action, sample_worlds
from search.search import SearchResult

#: Worlds dealt per explanation: enough for shares to about 0.06, and a few milliseconds.
WORLDS = 64
_LAYER = "search"
_SUFFIX = "_reasons"
#: The principal variation's text for another player's secret choice (`search.search`).
_HIDDEN_TEXT = "(hidden)"


@dataclass(frozen=True)
class Step:
    """One move of the principal variation: who is expected to make it (-1: no dealt world
    follows the line to here) and its text."""

    player: int
    move: str
    hidden: bool


@dataclass(frozen=True)
class Reason:
    """Why the move: a `kind` ("expects", "secures", "fears"), its player, an item and a
    number (see proto/regent/v1/common.proto's Reason)."""

    kind: str
    player: int
    item: str
    value: float


@dataclass(frozen=True)
class Belief:
    """The chance that `player` holds `item`, a thing the asker cannot see."""

    player: int
    item: str
    chance: float


@dataclass(frozen=True)
class Explanation:
    """Why a search's move: its line step by step, its reasons, and the beliefs."""

    steps: tuple[Step, ...] = ()
    reasons: tuple[Reason, ...] = ()
    beliefs: tuple[Belief, ...] = ()


@dataclass(frozen=True)
class Played:
    """One dealt world after the recommended move: the world then, and the same world played
    on by the playout policy to the end (`checkpoint` is the first position where the game's
    `stop` held, else the end)."""

    after: State
    checkpoint: State
    final: State


class GameReasons(Protocol):
    """A game's part of an explanation (`search/<game>_reasons.py`)."""

    #: The game's reason kinds besides "expects", and whether it gives beliefs.
    KINDS: tuple[str, ...]

    def checkpoint(self, before: State, now: State) -> bool:
        """Whether a playout from `before` has reached the position its reasons read."""
        ...

    def reasons(self, state: State, played: Sequence[Played]) -> list[Reason]:
        """The game's reasons for the player to move in `state`, from the worlds played out."""
        ...

    def beliefs(self, state: State, worlds: Sequence[State]) -> list[Belief]:
        """Who holds what the player to move cannot see, counted over `worlds`."""
        ...


def reasons_module(game: str) -> GameReasons | None:
    """The game's reasons module, or None for a game that gives only the generic ones."""
    return cast("GameReasons | None", layer_module(_LAYER, game, _SUFFIX))


def play_out(world: State, seed: int, stop: Callable[[State], bool] | None = None) -> Played:
    """`world` (left unchanged) played to the end by the playout policy the search uses, from
    `seed`; the first position where `stop` holds is kept too."""
    after = world.clone()
    now = world.clone()
    checkpoint: State | None = None
    move = 0
    while not now.is_terminal():
        if checkpoint is None and stop is not None and stop(now):
            checkpoint = now.clone()
        now.apply_action(heuristic_action(now, seed + move, True))
        move += 1
    return Played(after, checkpoint if checkpoint is not None else now, now)


def explain(state: State, result: SearchResult, worlds: int = WORLDS) -> Explanation:
    """The explanation of `result`, a search from `state` for its player to move: the
    principal variation with who moves at each step, the asker's expected final score after
    the move in `worlds` dealt worlds played out, and the game's own reasons and beliefs."""
    config = result.config
    asker = state.current_player
    dealt = sample_worlds(state, config, worlds)
    name = state.observation(asker).game
    game = reasons_module(name)
    played = []
    for i, world in enumerate(dealt):
        moved = world.clone()
        moved.apply_action(result.action)
        stop = None if game is None else _stop(game, moved)
        played.append(play_out(moved, config.seed + 7919 * (i + 1), stop))
    scores = [p.final.scores()[asker] for p in played]
    found = [Reason("expects", asker, spec(name).score_unit, sum(scores) / len(scores))]
    beliefs: list[Belief] = []
    if game is not None:
        found += game.reasons(state, played)
        beliefs = game.beliefs(state, dealt)
    return Explanation(
        steps=steps(dealt, result.principal_variation, config.seed),
        reasons=tuple(found),
        beliefs=tuple(beliefs),
    )


def _stop(game: GameReasons, before: State) -> Callable[[State], bool]:
    return lambda now: game.checkpoint(before, now)


def steps(worlds: Sequence[State], line: Sequence[str], seed: int) -> tuple[Step, ...]:
    """The principal variation `line` with its players: each step's player is the one who
    moves there in most of `worlds` still following the line (a world leaves it at a move it
    cannot play); a hidden step is played in each world by the playout policy."""
    following = [world.clone() for world in worlds]
    out = []
    for depth, text in enumerate(line):
        movers = Counter(w.current_player for w in following if not w.is_terminal())
        player = min(movers, key=lambda p: (-movers[p], p)) if movers else -1
        hidden = text == _HIDDEN_TEXT
        out.append(Step(player, text, hidden))
        following = [w for w in following if not w.is_terminal() and w.current_player == player]
        kept = []
        for w in following:
            if hidden:
                w.apply_action(heuristic_action(w, seed + depth, True))
            else:
                action = _action(w, text)
                if action is None:
                    continue
                w.apply_action(action)
            kept.append(w)
        following = kept
    return tuple(out)


def _action(world: State, text: str) -> int | None:
    """The legal action `text` names in `world`, or None."""
    try:
        action = world.string_to_action(text)
    except ValueError:
        return None
    return action if action in world.legal_actions() else None
