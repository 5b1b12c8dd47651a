"""The game registry: lookups, registration, and what it promises the rest of the code. No
generic module names a game (outside each game's own places); every game's converter and text
modules have the same shape; the client library needs no part of the server; and a game that
has no adapters at all is simply not served."""

from __future__ import annotations

import dataclasses
import inspect
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine
from clients.text import ROLE as TEXT_ROLE
from clients.text import GameText
from convert import ROLE as CONVERTER_ROLE
from convert import converter, served_games
from convert.adapter import Converter, TableRules
from engine.registry import GameSpec, register
from regent.v1 import advisor_pb2, matches_pb2

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("*.py", "*.pyx", "*.pxd", "*.js")
#: Where every game may be named: the tests, and the list of the page's game modules (an
#: ES module cannot find modules by itself: this list is the page's `oneof`).
SHARED_PLACES = ("tests/",)


# -- lookups and registration ------------------------------------------------------------


def test_games_are_found_by_name_with_dashes_or_underscores() -> None:
    for spec in engine.games():
        assert engine.game(spec.name) is spec
        assert engine.game(spec.name.replace("_", "-")) is spec


def test_an_unknown_game_is_a_value_error_naming_the_served_ones() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'") as err:
        engine.game("chess")
    for spec in engine.games():
        assert (spec.name in str(err.value)) == spec.served
    assert not engine.game("kuhn_poker").served  # a test game: found, but not offered


def test_games_are_listed_by_name_and_one_is_primary() -> None:
    names = [spec.name for spec in engine.games()]
    assert names == sorted(names) and len(set(names)) == len(names)
    primary = [spec for spec in engine.games() if spec.primary]
    assert len(primary) == 1 and engine.primary_game() is primary[0]


def test_a_second_game_of_the_same_name_is_refused() -> None:
    spec = engine.games()[0]
    assert register(spec) is spec  # registering the same spec again is harmless
    with pytest.raises(ValueError, match="registered already"):
        register(dataclasses.replace(spec, title="Another"))
    assert engine.game(spec.name) is spec


@pytest.mark.parametrize("spec", engine.games(), ids=lambda spec: spec.name)
def test_new_game_takes_exactly_the_games_player_counts(spec: GameSpec) -> None:
    for n in spec.player_counts:
        state = engine.new_game(spec.name, n, seed=1)
        assert state.num_players == n and isinstance(state, engine.State)
    for n in (0, spec.player_counts[0] - 1, spec.player_counts[-1] + 1):
        if n not in spec.player_counts:
            with pytest.raises(ValueError, match=f"not {n}"):
                engine.new_game(spec.name, n)


# -- no generic module names a game ---------------------------------------------------------


def _name_pattern(spec: GameSpec) -> re.Pattern[str]:
    """The game's name and title in any case, with `_`, `-`, a space or nothing between words."""
    spellings = {tuple(spec.name.lower().split("_")), tuple(spec.title.lower().split())}
    words = sorted("[_\\- ]?".join(map(re.escape, words)) for words in spellings)
    return re.compile("|".join(words), re.IGNORECASE)


def _own_places(spec: GameSpec) -> tuple[str, ...]:
    """The paths where a game may be named: its engine package, its adapter modules, its
    page module."""
    modules = tuple(module.replace(".", "/") + ".py" for module in spec.adapters.values())
    return (f"engine/{spec.name}/", f"server/web/static/js/games/{spec.name}.js", *modules)


def test_no_generic_module_names_a_game() -> None:
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SCANNED]
    found = subprocess.run(listed, cwd=ROOT, capture_output=True, text=True, check=True)
    files = [path for path in found.stdout.split() if (ROOT / path).is_file()]
    assert "engine/registry.py" in files
    own = {spec.name: _own_places(spec) for spec in engine.games()}
    offending = []
    for path in files:
        if path.startswith(SHARED_PLACES):
            continue
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        for spec in engine.games():
            if path.startswith(own[spec.name]):
                continue
            pattern = _name_pattern(spec)
            offending += [
                f"{path}:{i}: {spec.title}"
                for i, line in enumerate(lines, 1)
                if pattern.search(line)
            ]
    assert not offending, "generic modules name a game:\n" + "\n".join(offending)


def test_the_name_pattern_finds_every_spelling() -> None:
    spec = dataclasses.replace(engine.games()[0], name="grand_tour", title="Grand Tour")
    pattern = _name_pattern(spec)
    for text in ("grand_tour", "Grand-Tour", "GRAND TOUR", "GrandTour", "grandtour"):
        assert pattern.search(f"x = {text}!"), text
    assert not pattern.search("grand detour")


# -- one adapter shape -----------------------------------------------------------------------


def _check_shape(module: object, protocol: type) -> None:
    """Every member of `protocol` is in `module`: its functions with the same parameters."""
    for name, member in vars(protocol).items():
        if name.startswith("_"):
            continue
        assert hasattr(module, name), f"{module} lacks {name}"
        if callable(member):
            want = list(inspect.signature(member).parameters)[1:]  # without self
            got = list(inspect.signature(getattr(module, name)).parameters)
            assert got == want, f"{module}.{name}{got}: expected the parameters {want}"
    for name in getattr(protocol, "__annotations__", {}):
        assert hasattr(module, name), f"{module} lacks {name}"


def test_the_served_games_are_the_games_with_a_converter() -> None:
    served = [spec.name for spec in served_games()]
    assert served == [spec.name for spec in engine.games() if CONVERTER_ROLE in spec.adapters]
    assert served, "the service serves no game"


@pytest.mark.parametrize("spec", served_games(), ids=lambda spec: spec.name)
def test_every_converter_has_the_same_shape(spec: GameSpec) -> None:
    module = converter(spec.name)
    assert module is not None
    _check_shape(module, Converter)
    oneof = advisor_pb2.Observation.DESCRIPTOR.oneofs_by_name["game"]
    assert module.ONEOF in [f.name for f in oneof.fields]
    rules = matches_pb2.CreateMatchRequest.DESCRIPTOR.fields_by_name[module.RULES_FIELD]
    assert rules.message_type is module.RULES_MESSAGE.DESCRIPTOR
    assert isinstance(module.TABLE, TableRules) and module.TABLE.worlds > 0
    state = spec.new_game(spec.player_counts[0], seed=3)
    obs = state.observation(0)
    assert module.observation_from_proto(module.observation_to_proto(obs), module.ONEOF) == obs
    assert module.rules_from_proto(module.rules_to_proto(state.rules)) == state.rules


def test_the_games_have_distinct_numbers_and_fields() -> None:
    modules = [converter(spec.name) for spec in served_games()]
    for attribute in ("GAME", "ONEOF", "RULES_FIELD"):
        values = [getattr(module, attribute) for module in modules]
        assert len(set(values)) == len(values), attribute


@pytest.mark.parametrize(
    "spec",
    [spec for spec in engine.games() if TEXT_ROLE in spec.adapters],
    ids=lambda spec: spec.name,
)
def test_every_text_module_has_the_same_shape(spec: GameSpec) -> None:
    _check_shape(spec.adapter(TEXT_ROLE), GameText)


# -- layers ------------------------------------------------------------------------------------


def _run(code: str) -> None:
    """Run `code` in a fresh interpreter at the repository root; fail with its stderr."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_the_client_library_needs_nothing_of_the_server() -> None:
    """clients/client.py works, engine observations and rules included, with `server`
    unimportable."""
    _run(
        """
        import sys

        class NoServer:
            def find_spec(self, name, path=None, target=None):
                if name == "server" or name.startswith("server."):
                    raise ImportError(f"{name} may not be imported")

        sys.meta_path.insert(0, NoServer())
        import engine
        from clients import client
        from regent.v1 import matches_pb2

        for spec in engine.games():
            state = spec.new_game(spec.player_counts[0], seed=1)
            if "converter" in spec.adapters:
                assert client._observation(state.observation(0)).WhichOneof("game")
                request = matches_pb2.CreateMatchRequest()
                client._set_rules(request, client._game(spec.name), {})
        assert not [name for name in sys.modules if name.split(".")[0] == "server"]
        """
    )


def test_a_game_without_adapters_is_registered_but_not_served() -> None:
    """A game with no converter and no text module: the service, the benchmarks and the
    commands leave it out instead of failing."""
    _run(
        """
        import asyncio, dataclasses
        import engine
        from engine.registry import register
        from convert import converter, served_games
        from clients.cli import build_parser
        from regent.v1 import advisor_pb2
        from server.advisor import Advisor
        from server.limits import ServerLimits

        bare = dataclasses.replace(
            engine.primary_game(), name="bare_game", title="Bare Game", adapters={}, primary=False
        )
        register(bare)
        assert engine.game("bare-game") is bare and converter("bare_game") is None
        assert bare not in served_games()
        games = asyncio.run(Advisor(ServerLimits(), None).ListGames(None, None)).games
        assert "bare_game" not in [g.name for g in games] and games
        parser = build_parser()
        try:
            parser.parse_args(["play", "bare-game"])
        except SystemExit as exit:
            assert exit.code == 2
        else:
            raise AssertionError("regent play took a game it cannot show")
        """
    )
