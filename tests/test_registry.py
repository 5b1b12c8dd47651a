"""The game registry and the layers: lookups, registration, and what they promise the rest of
the code. The layers stack one way (the engine; the search and the converters; the service;
the front ends; the benchmarks): no module imports from a layer above its own, and the
engine's strings name none. A game is its engine package plus one module per layer above it,
at a place known in advance (`_own_places`): no other file names a game but the tests and
the listed lines of the shared protos. Every game's converter and text modules have the same
shape; the client library needs no part of the server; and a game that no layer above the
engine has a module for is simply not served."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import engine
from bench.games import examples
from clients.text import GameText, text_module
from convert import converter, served_games
from convert.adapter import Converter, TableRules
from engine.registry import GameSpec, layer_module, register
from regent.v1 import advisor_pb2, matches_pb2

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("*.py", "*.pyx", "*.pxd", "*.js", "*.proto", "*.css", "*.html")
#: Where every game may be named: the tests (the hint page's Node unit tests among them, in
#: clients/web/test/ beside the page's package.json and ESLint config that run them), and the
#: Node client's example scripts (their usage lines and defaults spell the games as a user
#: types them).
SHARED_PLACES = ("tests/", "clients/web/test/", "clients/node/")
#: The folders of the layers above the engine that keep a module per game, named after it:
#: `<layer>/<game>.py`, and the game's own tools beside it, `<layer>/<game>_*.py` (e.g. its
#: terminal text, `clients/<game>_text.py`; its bench tools, `bench/<game>_fit_picks.py`).
GAME_LAYERS = ("convert", "search", "clients", "bench")
#: The hint page's files: a JavaScript module and a style sheet per game.
PAGE = "clients/web/static/"
#: The lines of the shared protos that name a game, each (file, the whole line's pattern): a
#: served game adds its own (its message's import, its field in Observation's oneof, its Game
#: number, its rules field in CreateMatchRequest). A game named on any other line of a shared
#: proto fails the test; a pattern that matches no line fails it too.
SHARED_PROTO_LINES = (
    ("proto/regent/v1/advisor.proto", r'import "regent/v1/(citadels|royal_cities)\.proto";'),
    (
        "proto/regent/v1/advisor.proto",
        r"(CitadelsObservation citadels|RoyalCitiesObservation royal_cities) = \d+;",
    ),
    (
        "proto/regent/v1/advisor.proto",
        r'// "royal_cities\.market" or "royal_cities\.players\[0\]\.hand"\. For a slot',
    ),
    ("proto/regent/v1/common.proto", r"GAME_(CITADELS|ROYAL_CITIES) = \d+;"),
    ("proto/regent/v1/matches.proto", r'import "regent/v1/(citadels|royal_cities)\.proto";'),
    (
        "proto/regent/v1/matches.proto",
        r"(CitadelsRules citadels_rules|RoyalCitiesRules royal_cities_rules) = \d+;",
    ),
)


def _files(*patterns: str) -> list[str]:
    """The repository's files (committed or not, but not ignored) matching `patterns`."""
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns]
    found = subprocess.run(listed, cwd=ROOT, capture_output=True, text=True, check=True)
    return [path for path in found.stdout.split() if (ROOT / path).is_file()]


# -- lookups and registration ------------------------------------------------------------


def test_games_are_found_by_name_with_dashes_or_underscores() -> None:
    for spec in engine.games():
        assert engine.game(spec.name) is spec
        assert engine.game(spec.name.replace("_", "-")) is spec


def test_an_unknown_game_is_a_value_error_naming_the_offered_ones() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'") as err:
        engine.game("chess")
    for spec in engine.games():
        assert (spec.name in str(err.value)) == (not spec.testing)
    kuhn = engine.game("kuhn_poker")  # a test game: found, but not offered, nor served
    assert kuhn.testing and kuhn not in served_games()
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        layer_module("convert", "chess")


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


# -- a game is its folder plus one module per layer ------------------------------------------


def _name_pattern(spec: GameSpec) -> re.Pattern[str]:
    """The game's name and title in any case, with `_`, `-`, a space or nothing between words."""
    spellings = {tuple(spec.name.lower().split("_")), tuple(spec.title.lower().split())}
    words = sorted("[_\\- ]?".join(map(re.escape, words)) for words in spellings)
    return re.compile("|".join(words), re.IGNORECASE)


def _own_places(name: str) -> tuple[str, ...]:
    """The paths where the game called `name` may be named: its engine package, its modules
    in the layers above (see `GAME_LAYERS`), its page module and style sheet, its proto."""
    layers = [
        place for layer in GAME_LAYERS for place in (f"{layer}/{name}.py", f"{layer}/{name}_")
    ]
    page = (f"{PAGE}js/games/{name}.js", f"{PAGE}css/games/{name}.css")
    return (f"engine/{name}/", *layers, *page, f"proto/regent/v1/{name}.proto")


def _listed_proto_line(path: str, line: str) -> bool:
    return any(
        path == file and re.fullmatch(pattern, line.strip()) for file, pattern in SHARED_PROTO_LINES
    )


def test_no_generic_file_names_a_game() -> None:
    """A game is named only in its own places (`_own_places`), the shared places and the
    listed lines of the shared protos: code, protos, style sheets and pages alike."""
    files = _files(*SCANNED)
    assert {"engine/registry.py", "proto/regent/v1/common.proto"} <= set(files)
    assert any(path.endswith(".css") for path in files) and any(
        path.endswith(".html") for path in files
    )
    own = {spec.name: _own_places(spec.name) for spec in engine.games()}
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
                if pattern.search(line) and not _listed_proto_line(path, line)
            ]
    assert not offending, "generic files name a game:\n" + "\n".join(offending)


def test_the_shared_protos_list_exactly_their_game_lines() -> None:
    """Every listed line is there, and a new game's line is not listed: the game that adds
    it to a shared proto fails the test above until the list names it too."""
    for file, pattern in SHARED_PROTO_LINES:
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        assert any(re.fullmatch(pattern, line.strip()) for line in lines), (file, pattern)
    advisor = "proto/regent/v1/advisor.proto"
    assert _listed_proto_line(advisor, "    CitadelsObservation citadels = 2;")
    assert not _listed_proto_line(advisor, "    GrandTourObservation grand_tour = 3;")


def _own_names(module: ModuleType) -> set[str]:
    """The public names a module defines itself (not those it imports)."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, ModuleType)
        and getattr(value, "__module__", module.__name__) == module.__name__
    }


@pytest.mark.parametrize("spec", engine.games(), ids=lambda spec: spec.name)
def test_each_layers_module_of_a_game_holds_that_layers_settings(spec: GameSpec) -> None:
    """`search/<game>.py`: the default bots and the game's own levels; `bench/<game>.py`: the
    benchmarks' player counts and mid-game position, and the example files; each for player
    counts the game has."""
    counts = set(spec.player_counts)
    found = layer_module("search", spec.name)
    if found is not None:
        assert _own_names(found) <= {"DEFAULT_BOTS", "LEVELS"}
        assert set(getattr(found, "DEFAULT_BOTS", {})) <= counts
        assert set(getattr(found, "LEVELS", {})) <= set(range(1, 10))
    found = layer_module("bench", spec.name)
    if found is not None:
        assert _own_names(found) <= {"PLAYERS", "EXAMPLES", "is_mid_game"}
        players = getattr(found, "PLAYERS", {})
        assert set(players) <= {"engine", "search"}
        assert all(set(listed) <= counts for listed in players.values())
        assert all(example.players in counts for example in examples(spec.name))


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
    modules = [spec.name for spec in engine.games() if (ROOT / f"convert/{spec.name}.py").is_file()]
    assert served == modules and served, "the service serves no game"


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
    [spec for spec in engine.games() if text_module(spec.name) is not None],
    ids=lambda spec: spec.name,
)
def test_every_text_module_has_the_same_shape(spec: GameSpec) -> None:
    _check_shape(text_module(spec.name), GameText)


# -- layers ------------------------------------------------------------------------------------

#: Each folder of the code with the folders it may import from: the layers below its own
#: (`regent` is the service's stubs, generated from proto/). The search and the converters
#: stand side by side, as do the tools in bench/ and examples/.
BELOW = ("engine", "search", "convert", "regent", "server", "clients")
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "search": frozenset({"engine"}),
    "convert": frozenset({"engine", "regent"}),
    "server": frozenset({"engine", "search", "convert", "regent"}),
    "clients": frozenset({"engine", "search", "convert", "regent"}),
    "bench": frozenset(BELOW),
    "examples": frozenset({*BELOW, "bench"}),
}
#: What a place within a folder may import besides, as the README's layout says: the
#: `regent` command (clients/cli/) runs the service in its process (`regent serve`, `regent
#: hint --local`).
ALSO_MAY_IMPORT = {"clients/cli/": frozenset({"server"})}
#: The folders above the engine, as a dotted name would start that names one in a string.
_ABOVE_THE_ENGINE = re.compile(r"\b(?:search|convert|server|clients|bench|examples)\.[A-Za-z_]")
_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.M)


def _imports(path: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in a file, those inside functions too, and
    every module that `importlib.import_module` is given by name."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if not path.endswith(".py"):
        return [
            (text.count("\n", 0, match.start()) + 1, match.group(1) or match.group(2))
            for match in _CYTHON_IMPORT.finditer(text)
        ]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def test_every_import_points_down() -> None:
    """No module imports from its own folder's layer's betters: the engine imports nothing
    above it, the search and the converters nothing above them (nor each other), the service
    nothing of the front ends or the benchmarks, the front ends nothing of the benchmarks."""
    offending = []
    files = [path for path in _files("*.py", "*.pyx", "*.pxd") if path.split("/")[0] in MAY_IMPORT]
    assert {"engine/registry.py", "search/games.py", "bench/games.py"} <= set(files)
    for path in files:
        folder = path.split("/")[0]
        allowed = MAY_IMPORT[folder].union(
            *(more for place, more in ALSO_MAY_IMPORT.items() if path.startswith(place))
        )
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top in MAY_IMPORT.keys() | {"regent"} and top != folder and top not in allowed:
                offending.append(f"{path}:{line}: imports {module}")
    assert not offending, "imports that point up:\n" + "\n".join(offending)


def test_the_engine_names_no_layer_above_it() -> None:
    """No string of the engine's Python names a module above it (as the adapters' dotted
    names once did): each layer finds its own part of a game by the game's name."""
    offending = []
    for path in _files("engine/*.py"):
        for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if match := _ABOVE_THE_ENGINE.search(node.value):
                offending.append(f"{path}:{node.lineno}: {match.group()}")
    assert not offending, "the engine names layers above it:\n" + "\n".join(offending)


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
        from convert import converter
        from regent.v1 import matches_pb2

        for spec in engine.games():
            state = spec.new_game(spec.player_counts[0], seed=1)
            if converter(spec.name) is not None:
                assert client._observation(state.observation(0)).WhichOneof("game")
                request = matches_pb2.CreateMatchRequest()
                client._set_rules(request, client._game(spec.name), {})
        assert not [name for name in sys.modules if name.split(".")[0] == "server"]
        """
    )


def test_a_game_without_modules_above_the_engine_is_registered_but_not_served() -> None:
    """A game that no layer above the engine has a module for: the service, the benchmarks
    and the commands leave it out instead of failing, and the search plays its defaults."""
    _run(
        """
        import asyncio, dataclasses
        import engine
        from bench.games import bench_players, examples
        from engine.registry import register
        from convert import converter, served_games
        from search.games import DEFAULT_BOT, default_bot, own_levels
        from clients.cli.main import build_parser
        from regent.v1 import advisor_pb2
        from server.advisor import Advisor
        from server.limits import ServerLimits

        bare = dataclasses.replace(
            engine.primary_game(), name="bare_game", title="Bare Game", primary=False
        )
        register(bare)
        assert engine.game("bare-game") is bare and converter("bare_game") is None
        assert bare not in served_games()
        assert default_bot("bare_game", 2) == DEFAULT_BOT and not own_levels("bare_game")
        assert bench_players("bare_game", "search") == () and examples("bare_game") == ()
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
