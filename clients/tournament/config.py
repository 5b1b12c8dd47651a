"""What a tournament is: game, player count, rules, named bots, format, game count and seed.
It is written at the head of the record, so a resumed tournament is checked to be the same."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import engine
from clients.tournament.own_bot import is_own, load_own
from clients.tournament.remote import parse_address
from search.bots import parse_spec


class ConfigError(ValueError):
    """A tournament that cannot be run as asked; the message says why."""


@dataclass(frozen=True)
class Sprt:
    """Sequential test of H0: Elo difference = elo0 against H1: = elo1 (the tested bot, the
    gauntlet's or the first, over the other), with false-positive rate alpha and false-negative
    rate beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament: `bots` are (name, spec) pairs; `games` is the least number of games (whole
    rounds of deals are played), or the most for an SPRT; `rules` are option names -> values of
    the game's rules class; `gauntlet` names the bot that plays against all the others."""

    game: str
    players: int
    bots: tuple[tuple[str, str], ...]
    games: int
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)
    gauntlet: str | None = None
    sprt: Sprt | None = None

    def __post_init__(self) -> None:
        try:
            counts = engine.game(self.game).player_counts
        except ValueError as err:
            raise ConfigError(str(err)) from None
        if self.players not in counts:
            raise ConfigError(f"{self.game} is for {counts[0]} to {counts[-1]} players")
        names = [name for name, _ in self.bots]
        if len(set(names)) != len(names) or not all(names):
            raise ConfigError("bot names must be distinct and not empty")
        for name, spec in self.bots:
            check_spec(name, spec)
        if self.games < 1:
            raise ConfigError("--games must be 1 or more")
        if self.gauntlet is not None:
            if self.gauntlet not in names:
                raise ConfigError(f"the gauntlet bot {self.gauntlet!r} is not among the bots")
            if len(names) < 2 or self.players < 2:
                raise ConfigError("a gauntlet needs the bot, another, and 2 players or more")
        elif self.players > 1 and len(names) < self.players:
            raise ConfigError(
                f"a round robin of {self.players} players needs at least {self.players} bots; "
                "use --gauntlet to play one bot against a field in the other seats"
            )
        if self.sprt is not None:
            if len(names) != 2 or self.players < 2:
                raise ConfigError("an SPRT is between two bots, in games of 2 players or more")
            if self.players > 2 and self.gauntlet is None:
                raise ConfigError(
                    "an SPRT of more than 2 players tests one bot against a field of the "
                    "other: name it with --gauntlet"
                )
            if not (0 < self.sprt.alpha < 1 and 0 < self.sprt.beta < 1):
                raise ConfigError("SPRT alpha and beta must be between 0 and 1")
            if self.sprt.elo0 >= self.sprt.elo1:
                raise ConfigError("the SPRT's elo0 must be below its elo1")
        self.rules_config()  # the rules options must exist and fit

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.bots)

    @property
    def sprt_bot(self) -> str:
        """The bot an SPRT tests: the gauntlet's, or else the first named."""
        return self.gauntlet or self.names[0]

    @property
    def specs(self) -> dict[str, str]:
        return dict(self.bots)

    def rules_config(self) -> Any:
        """The game's rules object with this tournament's options."""
        rules_cls = engine.game(self.game).rules_class
        known = {f.name for f in dataclasses.fields(rules_cls)}
        unknown = sorted(set(self.rules) - known)
        if unknown:
            raise ConfigError(
                f"unknown rules option {unknown[0]!r} of {self.game}; known: {', '.join(known)}"
            )
        return rules_cls(**self.rules)

    def to_json(self) -> dict[str, Any]:
        """The config as the record's header and results.json hold it."""
        data = dataclasses.asdict(self)
        data["bots"] = [list(pair) for pair in self.bots]
        return data


def check_spec(name: str, spec: str) -> None:
    """ConfigError unless `spec` is a bot spec, a `grpc://host:port` address or a bot of your
    own (`python:MODULE:NAME`, which must import)."""
    try:
        if spec.startswith("grpc://"):
            parse_address(spec)
        elif is_own(spec):
            load_own(spec)
        else:
            parse_spec(spec)
    except ValueError as err:
        raise ConfigError(f"bot {name}: {err}") from None


def parse_bot(text: str) -> tuple[str, str]:
    """`NAME=SPEC` -> (name, spec); a bare spec (nothing before `=`, or a `:` there) is named
    by itself."""
    name, sep, spec = text.partition("=")
    if not sep or ":" in name:
        return text.strip(), text.strip()
    return name.strip(), spec.strip()


def parse_rule(text: str, game: str) -> tuple[str, Any]:
    """`name=value` -> (name, value) typed after the game's rules field of that name."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    try:
        rules_class = engine.game(game).rules_class
    except ValueError as err:
        raise ConfigError(str(err)) from None
    types = {f.name: f.type for f in dataclasses.fields(rules_class)}
    if not sep or name not in types:
        raise ConfigError(f"bad rule {text!r}: name=value with name one of {', '.join(types)}")
    kind = types[name]
    if kind in ("bool", bool):
        words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
        if raw.lower() not in words:
            raise ConfigError(f"rule {name} is true or false, not {raw!r}")
        return name, words[raw.lower()]
    try:
        if kind in ("int", int):
            return name, int(raw)
        if kind in ("float", float):
            return name, float(raw)
    except ValueError:
        raise ConfigError(f"rule {name} needs a {kind}, not {raw!r}") from None
    return name, raw
