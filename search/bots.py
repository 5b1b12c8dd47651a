"""Every bot behind one interface, built from a spec string such as
`mo-ismcts:iterations=5000,threads=2,c=0.7`, or a difficulty level such as `level:3`
(see `search.levels`), which stands for a spec of the game and player count."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from typing import Protocol, cast

from engine.interface import State
from engine.registry import game as game_spec
from search.ismcts import CancelToken, check_config, heuristic_action
from search.levels import level_number, level_spec
from search.search import ALGORITHMS, Search, SearchConfig

#: The bots that search: only they can advise (they weigh every move).
SEARCH_BOTS = ("pimc", "so-ismcts", "mo-ismcts")
BOT_KINDS = ("random", "heuristic", *SEARCH_BOTS, "level")
#: How many of a hint's moves get win chances worth showing (`SearchConfig.show`): the
#: service's advice searches with it, and bench/hint_quality.py measures it.
HINT_SHOW = 5


class Bot(Protocol):
    """Chooses a legal action for the player to move, from that player's information only."""

    spec: str

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        """A legal action; raising `cancel` from another thread makes a search
        bot answer with its best move so far within milliseconds."""
        ...


def forced_move(state: State) -> int | None:
    """The only legal action, if there is one: a move no bot need be asked for (a timed
    search would spend its whole budget on it)."""
    legal = state.legal_actions()
    return legal[0] if len(legal) == 1 else None


class RandomBot:
    """Uniformly random legal moves."""

    spec = "random"

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        return random.Random(seed).choice(state.legal_actions())


class HeuristicBot:
    """The game's hand-written policy, run on a world resampled for the player
    to move, so it cannot see a hidden card even by mistake."""

    spec = "heuristic"

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        world = state.resample(state.current_player, seed)
        return heuristic_action(world, seed)


class SearchBot:
    """A search algorithm with a fixed configuration; the move seed varies the search.
    With `reuse=1` a bot plays one seat: it keeps its trees for its next move."""

    def __init__(self, spec: str, config: SearchConfig) -> None:
        self.spec = spec
        self.config = config
        self._kept: _KeptSearch | None = None
        #: How many of its searches went on from the trees of the one before.
        self.reused = 0

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        config = replace(self.config, seed=self.config.seed ^ seed)
        kept, self._kept = self._kept, None
        if kept is not None and kept.leads_to(state):
            run = Search(state, config, cancel, previous=kept.search, played=kept.action)
            self.reused += 1
        else:
            run = Search(state, config, cancel)
        run.advance()
        action = run.result().action
        if config.reuse:
            self._kept = _KeptSearch(run, action, state, seed)
        return action


class _KeptSearch:
    """A finished search and the move played from it: the next search of the same player
    starts from its subtrees if that player sees what the move alone would show. What it
    would show is played out in a world dealt from the player's information (from `seed`),
    never in the true one, so a move whose outcome is hidden chance (a draw) is followed by
    a fresh search, whether the bot is given the truth or a position typed in."""

    def __init__(self, search: Search, action: int, state: State, seed: int) -> None:
        self.search = search
        self.action = action
        self.player = state.current_player
        after = state.resample(self.player, seed)
        after.apply_action(action)
        self.expected = after.observation(self.player)

    def leads_to(self, state: State) -> bool:
        return (
            not state.is_terminal()
            and state.current_player == self.player
            and state.observation(self.player) == self.expected
        )


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """`kind:key=value,...` -> (kind, options), `level:N` -> ("level", {"level": N});
    ValueError names what is wrong."""
    kind, _, options = spec.strip().partition(":")
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; one of {', '.join(BOT_KINDS)}")
    if kind == "level":
        return kind, {"level": level_number(options)}
    values = _options(options)
    if kind in ("random", "heuristic") and values:
        raise ValueError(f"the {kind} bot takes no options")
    return kind, values


def resolve(spec: str, game: str | None = None, players: int = 0) -> str:
    """The spec a bot plays: a level's spec in `game` with `players` players, any other spec
    unchanged; ValueError names what is wrong (a level needs the game)."""
    kind, values = parse_spec(spec)
    if kind != "level":
        return spec.strip()
    number = int(values["level"])  # type: ignore[call-overload]
    if game is None:
        raise ValueError(f"level {number} is a bot of one game: it needs the game")
    return level_spec(number, game_spec(game), players)


def is_level(spec: str) -> bool:
    """Whether `spec` names a difficulty level (`level:N`, well formed or not)."""
    return spec.strip().partition(":")[0] == "level"


#: A budget's parts, as a request and a bot spec name them.
BUDGET_OPTIONS = ("iterations", "seconds", "threads")


class BudgetClashError(ValueError):
    """A budget part asked beside a spec that sets it itself: a level sets its whole budget
    (iterations or seconds, and threads are part of its strength), a search bot's spec the
    parts it names (`mo-ismcts:iterations=100`). `option` is the part asked."""

    def __init__(self, spec: str, option: str) -> None:
        spec = spec.strip()
        if is_level(spec):
            reason = (
                f"{spec} has its own budget, part of its strength: ask a level with no "
                "iterations, seconds or threads (or name a search bot, such as mo-ismcts, and "
                "its budget)"
            )
        else:
            reason = f"{spec} sets its own {option}: give it in the bot spec or here, not both"
        super().__init__(reason)
        self.spec = spec
        self.option = option

    def __reduce__(self) -> tuple[object, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        return type(self), (self.spec, self.option), self.__dict__


def budget_parts(spec: str) -> tuple[str, ...]:
    """The budget parts (of `BUDGET_OPTIONS`) that `spec` sets itself: every part for a
    level, the parts a search bot's spec names; ValueError for a bad spec."""
    kind, values = parse_spec(spec)
    if kind == "level":
        return BUDGET_OPTIONS
    return tuple(option for option in BUDGET_OPTIONS if option in values)


def own_budget(spec: str, game: str | None = None, players: int = 0) -> dict[str, int | float]:
    """The values of the budget parts `spec` sets itself (`budget_parts`), by option name: a
    level's resolved for `game` with `players` players (none for a level that does not
    search); ValueError names what is wrong."""
    kind, values = parse_spec(spec)
    if kind != "level":
        named = {option: values[option] for option in BUDGET_OPTIONS if option in values}
        return cast("dict[str, int | float]", named)
    config = search_config(spec, game, players)
    return {} if config is None else {option: getattr(config, option) for option in BUDGET_OPTIONS}


def check_budget(spec: str, iterations: int, seconds: float, threads: int) -> None:
    """BudgetClashError naming the first part of a budget asked (0: unset) that `spec` sets
    itself: any part beside a level, the parts a search bot's spec names beside it."""
    parts = budget_parts(spec)
    for option, value in zip(BUDGET_OPTIONS, (iterations, seconds, threads), strict=True):
        if value and option in parts:
            raise BudgetClashError(spec, option)


def budget_from_spec(
    spec: str,
    iterations: int,
    seconds: float,
    threads: int,
    game: str | None = None,
    players: int = 0,
    *,
    named: bool = True,
) -> dict[str, int | float]:
    """The parts of `spec`'s own budget (`own_budget`) that a search asked with this budget
    (0: unset) takes from the spec: those the budget leaves unset. A spec the asker names
    takes no budget part it sets itself (BudgetClashError: `check_budget`); the spec a server
    uses by default (not `named`) gives way to the parts asked."""
    if named:
        check_budget(spec, iterations, seconds, threads)
    asked = dict(zip(BUDGET_OPTIONS, (iterations, seconds, threads), strict=True))
    own = own_budget(spec, game, players)
    return {option: value for option, value in own.items() if not asked[option]}


def search_config(
    spec: str, game: str | None = None, players: int = 0, **overrides: object
) -> SearchConfig | None:
    """The search configuration of a search bot's spec (a level resolved for `game` with
    `players` players), with `overrides` applied (None for the bots that do not search);
    ValueError names what is wrong, with the game and its player count also what the game
    has not (`infer` without a model)."""
    kind, values = parse_spec(resolve(spec, game, players))
    if kind not in SEARCH_BOTS:
        return None
    config = SearchConfig(algorithm=kind, **(values | overrides))  # type: ignore[arg-type]
    if config.infer and game is not None and players:  # refused now rather than mid-search
        check_config(game_spec(game).new_game(players), config)
    return config


def advice_config(
    spec: str, game: str | None = None, players: int = 0, **overrides: object
) -> SearchConfig:
    """The search configuration of an advice request's bot spec (see `search_config`);
    ValueError naming the search bots for a bot that does not search."""
    config = search_config(spec, game, players, **overrides)
    if config is None:
        raise ValueError(
            f"advice needs a search bot ({', '.join(SEARCH_BOTS)}) or a level that searches"
        )
    return config


def hint_config(
    spec: str, game: str | None = None, players: int = 0, **overrides: object
) -> SearchConfig:
    """`advice_config` for a hint, which shows its moves' win chances: `show=HINT_SHOW` unless
    the spec (or `overrides`) sets `show` itself or its search cannot show."""
    config = advice_config(spec, game, players, **overrides)
    _, values = parse_spec(resolve(spec, game, players))
    if "show" in values or "show" in overrides or not config.can_show:
        return config
    return replace(config, show=HINT_SHOW)


def make_bot(spec: str, game: str | None = None, players: int = 0) -> Bot:
    """Build a bot from `kind`, `kind:key=value,...` or `level:N` (resolved for `game` with
    `players` players); ValueError names what is wrong."""
    spec = resolve(spec, game, players)
    kind, _ = parse_spec(spec)
    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        return HeuristicBot()
    config = search_config(spec, game, players)
    assert config is not None
    return SearchBot(spec, config)


def _options(text: str) -> dict[str, object]:
    types = {f.name: f.type for f in fields(SearchConfig)}
    out: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or key not in types or key == "algorithm":
            raise ValueError(f"bad bot option {item!r}; known: {', '.join(sorted(types))}")
        kind = types[key]
        try:
            if kind in ("int", int):
                out[key] = int(raw)
            elif kind in ("float", float):
                out[key] = float(raw)
            else:
                out[key] = raw.strip()
        except ValueError:
            raise ValueError(f"bot option {key} needs a {kind}, got {raw!r}") from None
    return out


__all__ = [
    "ALGORITHMS",
    "BOT_KINDS",
    "BUDGET_OPTIONS",
    "SEARCH_BOTS",
    "Bot",
    "BudgetClashError",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "advice_config",
    "budget_from_spec",
    "budget_parts",
    "check_budget",
    "forced_move",
    "hint_config",
    "is_level",
    "make_bot",
    "own_budget",
    "parse_spec",
    "resolve",
    "search_config",
]
