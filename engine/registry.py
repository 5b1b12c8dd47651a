"""The game registry: one `GameSpec` per game, registered by the game's own package
(as OpenSpiel's games register themselves). Generic code looks games up here and
never names one."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from engine.interface import State
from engine.options import Options

#: The bot a game advises with at a player count it names no default for.
DEFAULT_BOT = "mo-ismcts"

#: A game's own test for a position: a fresh state or one player's observation of it.
Accept = Callable[[Any, State], bool]


class JsonObservation(Protocol):
    """What every game's observation offers: a round trip through JSON."""

    @property
    def game(self) -> str: ...

    @classmethod
    def from_json(cls, data: Any) -> JsonObservation: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Card:
    """One kind of card of a game's deck, for front ends that draw the deck: its name as
    moves spell it, how many copies the box has, and what the game says of it."""

    name: str
    copies: int
    #: e.g. {"colour": "red", "value": 4, "effect": "Assassin"}; values are text or numbers.
    attributes: Mapping[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True)
class Example:
    """A ready position of `regent hint`'s example files: the first decision of a seeded
    game played by the heuristic bot that `accept` takes (given the observation of the
    player to act and the true state)."""

    file: str
    players: int
    seed: int
    accept: Accept


#: The adapter role of a game's converter module: the service serves the games that have one.
CONVERTER = "converter"


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code needs to know of one game."""

    #: The engine's name: its package under engine/; the command line also takes it with dashes.
    name: str
    title: str
    player_counts: tuple[int, ...]
    state_class: type
    #: A frozen dataclass of rules switches (see engine.options.Options).
    rules_class: type[Options]
    #: The typed observation, with `to_json()` and `from_json()`.
    observation_class: type[JsonObservation]
    #: `(observation, seed, draws) -> State`: a game continued from one player's view.
    from_observation: Callable[..., State]
    #: `(num_players, games, seed, rules) -> actions`: random games in C, for benchmarks.
    random_games: Callable[..., int]
    #: What its scores count, e.g. "VP" or "points".
    score_unit: str
    #: Every kind of card in the box, in the game's kind order.
    cards: tuple[Card, ...]
    #: A position for the search benchmark: the first state of a game that this takes.
    bench_position: Callable[[State], bool]
    #: Player counts the benchmarks measure by default, per benchmark ("engine", "search").
    bench_players: Mapping[str, tuple[int, ...]]
    #: The example observation files this game ships.
    examples: tuple[Example, ...] = ()
    #: The strongest measured bot spec per player count (the service's default advice).
    default_bots: Mapping[int, str] = field(default_factory=dict)
    #: Difficulty levels (by number) whose bot spec differs in this game from the shared
    #: table, `search.levels.LEVELS`: how a small search compares with the game's heuristic
    #: depends on the game, so each game's ladder places them (docs/strength.md).
    levels: Mapping[int, str] = field(default_factory=dict)
    #: Modules outside the engine that adapt this game, by role, as dotted names, loaded on
    #: first use so the engine depends on no other layer: "converter" (`convert/<game>.py`:
    #: the service's messages and ApplyMove, see `convert.adapter.Converter`) and "text"
    #: (`clients/<game>_text.py`: the terminal's text, see `clients.text.GameText`), and a
    #: game's own bench tools, e.g. "fit_picks" and "measure_inference" (`bench/<game>_*.py`:
    #: fitting its model of the players' choices, measuring what inference reads with it). The
    #: service serves only games with a converter; `regent play` needs the text too.
    adapters: Mapping[str, str] = field(default_factory=dict)
    #: The grade of a final solo margin (own score minus the automated opponent's), for a
    #: game with a solo mode that grades it.
    solo_grade: Callable[[int], str] | None = None
    #: The game commands choose when none is named (one game sets it).
    primary: bool = False

    def new_game(self, num_players: int, seed: int = 0, rules: Any = None) -> State:
        """A new game dealt from `seed`; ValueError for a player count it does not have."""
        if num_players not in self.player_counts:
            low, high = self.player_counts[0], self.player_counts[-1]
            raise ValueError(f"{self.name} is for {low} to {high} players, not {num_players}")
        state: State = self.state_class(num_players, seed, rules or self.rules_class())
        return state

    def default_bot(self, num_players: int) -> str:
        return self.default_bots.get(num_players, DEFAULT_BOT)

    @property
    def served(self) -> bool:
        """Whether the service serves this game: it has a converter (see `adapters`)."""
        return CONVERTER in self.adapters

    def adapter(self, role: str) -> ModuleType:
        """The module that adapts this game for `role`; LookupError when it has none."""
        if role not in self.adapters:
            raise LookupError(f"{self.title} has no {role} adapter")
        return importlib.import_module(self.adapters[role])


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (called once, by the game's own package)."""
    if spec.name in _GAMES and _GAMES[spec.name] is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    _GAMES[spec.name] = spec
    State.register(spec.state_class)
    return spec


def game(name: str) -> GameSpec:
    """The game called `name` (dashes read as underscores); ValueError naming the games that
    are served (a test game, one with no converter, is found by name but not offered)."""
    spec = _GAMES.get(name.replace("-", "_"))
    if spec is None:
        served = [n for n in sorted(_GAMES) if _GAMES[n].served]
        raise ValueError(f"unknown game {name!r}; the games: {', '.join(served)}")
    return spec


def games() -> Sequence[GameSpec]:
    """Every registered game, by name."""
    return [_GAMES[name] for name in sorted(_GAMES)]


def primary_game() -> GameSpec:
    """The game commands choose when none is named: the one marked `primary` (else the first
    by name)."""
    found = games()
    return next((spec for spec in found if spec.primary), found[0])
