"""The game registry: one `GameSpec` per game, registered by the game's own package
(as OpenSpiel's games register themselves). A spec holds the game's facts only, as
OpenSpiel's `GameType` does; each layer above the engine keeps what it adds to a game in a
module of its own named after the game (`layer_module`), so the engine names no layer above
it. Generic code looks games up here and never names one."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from engine.interface import State
from engine.options import Options


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
class GameSpec:
    """The facts of one game that generic code needs: what the game is, not how a layer
    above the engine serves, shows, searches or measures it."""

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
    #: The grade of a final solo margin (own score minus the automated opponent's), for a
    #: game with a solo mode that grades it.
    solo_grade: Callable[[int], str] | None = None
    #: The game commands choose when none is named (one game sets it).
    primary: bool = False
    #: A game kept for testing the search: found by name, but never offered (an unknown
    #: game's error leaves it out, and no front end lists it).
    testing: bool = False

    def new_game(self, num_players: int, seed: int = 0, rules: Any = None) -> State:
        """A new game dealt from `seed`; ValueError for a player count it does not have."""
        if num_players not in self.player_counts:
            low, high = self.player_counts[0], self.player_counts[-1]
            raise ValueError(f"{self.name} is for {low} to {high} players, not {num_players}")
        state: State = self.state_class(num_players, seed, rules or self.rules_class())
        return state


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (called once, by the game's own package)."""
    if spec.name in _GAMES and _GAMES[spec.name] is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    _GAMES[spec.name] = spec
    State.register(spec.state_class)
    return spec


def game(name: str) -> GameSpec:
    """The game called `name` (dashes read as underscores); ValueError naming the games
    offered (a test game is found by name but not offered)."""
    spec = _GAMES.get(name.replace("-", "_"))
    if spec is None:
        offered = [n for n in sorted(_GAMES) if not _GAMES[n].testing]
        raise ValueError(f"unknown game {name!r}; the games: {', '.join(offered)}")
    return spec


def games() -> Sequence[GameSpec]:
    """Every registered game, by name."""
    return [_GAMES[name] for name in sorted(_GAMES)]


def primary_game() -> GameSpec:
    """The game commands choose when none is named: the one marked `primary` (else the first
    by name)."""
    found = games()
    return next((spec for spec in found if spec.primary), found[0])


def layer_module(package: str, name: str, suffix: str = "") -> ModuleType | None:
    """The module that the layer above the engine in the package `package` keeps for the
    game called `name`, `<package>.<game><suffix>`, imported on first use; None when the
    layer has none for the game. ValueError for a name no game has. Each layer finds its own
    part of a game this way, by the game's name, so a game is its engine package plus one
    module per layer at a place known in advance."""
    module = f"{package}.{game(name).name}{suffix}"
    if importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module)
