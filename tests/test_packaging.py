"""What a release ships: the wheel and the sdist carry every file the code reads at run time
and no generated C, and a wheel built from the sdist, installed (not editable) into a fresh
virtual environment, plays and serves both games from an empty directory.

The files the code reads are found, not listed: every file under the packages' folders that
is not a module (the Cython declarations, the types, the data the code reads through
`engine.resources.package_folder`, the page), less NOT_SHIPPED. The fast tests check them
against setup.py's PACKAGE_DATA and the source for reads beside `__file__`; the slow ones
build the sdist and the wheel from a clean clone of HEAD (what is committed) and look in
them, then install the wheel (about 4 minutes on two busy cores, most of it compiling).
"""

from __future__ import annotations

import fcntl
import importlib.metadata
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from engine.resources import folder_files, missing_extra
from engine.weights import WeightTable, read_fit
from server.store import POSTGRESQL_EXTRA, Store, StoreError, database_url, require_driver

ROOT = Path(__file__).resolve().parents[1]
#: Files under the packages' folders that the Python distribution leaves out, and why.
NOT_SHIPPED = {
    "clients/node/": "the Node client, an npm package of its own",
    "bench/baseline.sh": "a checkout's script: it serves a release from its own git tag",
    "clients/web/test/": "the page's unit tests (node --test), run from the checkout",
    "clients/web/package.json": "the page's development tools (ESLint), not the page",
    "clients/web/package-lock.json": "the page's development tools (ESLint), not the page",
    "clients/web/eslint.config.js": "the page's lint configuration, not the page",
}
#: Code: shipped as modules (a .pyx compiled), not as package data.
CODE = (".py", ".pyx")
#: A data folder as the code names it.
PACKAGE_FOLDER = re.compile(r'package_folder\(\s*"([\w.]+)",\s*"([^"]+)"\s*\)')
#: A line that makes a path to a file beside a module (`Path(__file__).parent / "x"`, ...).
BESIDE_FILE = re.compile(
    r"__file__.*(/\s*['\"]|joinpath|\.glob\(|with_name|read_text|read_bytes|open\()"
    r"|join\(.*__file__"
)


def git_files(root: Path) -> list[str]:
    """The checkout's files, as git lists them (tracked, and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {root}")
    return [name for name in listed.stdout.splitlines() if (root / name).is_file()]


def setup_config(root: Path) -> dict[str, Any]:
    """setup.py's names (PACKAGES, PACKAGE_DATA, ...), read without building."""
    return runpy.run_path(str(root / "setup.py"), run_name="setup_config")


def package_of(name: str, packages: list[str]) -> str | None:
    """The package whose folder holds the file `name` most closely."""
    folders = [p for p in packages if name.startswith(p.replace(".", "/") + "/")]
    return max(folders, key=len, default=None)


def runtime_files(root: Path) -> list[str]:
    """Every file of the checkout that the installed code reads beside its modules."""
    packages = setup_config(root)["PACKAGES"]
    return [
        name
        for name in git_files(root)
        if package_of(name, packages) is not None
        and not name.endswith(CODE)
        and not any(name.startswith(left_out) for left_out in NOT_SHIPPED)
    ]


def source_files(root: Path) -> list[str]:
    packages = setup_config(root)["PACKAGES"]
    return [n for n in git_files(root) if n.endswith(CODE) and package_of(n, packages)]


def data_folders(root: Path) -> set[str]:
    """The folders (`package/dirs/folder`) the code reads data from, as it names them."""
    found = set()
    for name in source_files(root):
        for package, folder in PACKAGE_FOLDER.findall((root / name).read_text()):
            found.add(f"{package.replace('.', '/')}/{folder}")
    return found


def test_the_code_reads_no_file_beside_its_modules() -> None:
    """Data is read through importlib.resources (engine.resources), never a path made from
    `__file__`, which a zipped or relocated install breaks; so the scan of package_folder
    calls below finds every data folder."""
    for name in source_files(ROOT):
        text = (ROOT / name).read_text()
        beside = [line.strip() for line in text.splitlines() if BESIDE_FILE.search(line)]
        assert beside == [], f"{name}: read data with engine.resources.package_folder"
        if name != "engine/resources.py":
            assert not re.search(r"\bfiles\(", text), f"{name}: use engine.resources"
    assert "engine/citadels/models" in data_folders(ROOT)


def test_setup_ships_every_file_the_code_reads() -> None:
    """Each file the code reads matches its package's PACKAGE_DATA globs (as setuptools
    reads them), every data folder the code names holds files, and none is generated C."""
    config = setup_config(ROOT)
    packages, data = config["PACKAGES"], config["PACKAGE_DATA"]
    shipped = set()
    for package in packages:
        folder = ROOT / package.replace(".", "/")
        for pattern in data.get(package, []):
            shipped |= {str(f.relative_to(ROOT)) for f in folder.glob(pattern) if f.is_file()}
    needed = runtime_files(ROOT)
    assert [name for name in needed if name not in shipped] == []
    for folder in data_folders(ROOT):
        assert any(name.startswith(folder + "/") for name in needed), f"{folder} is empty"
    assert not [name for name in shipped if name.endswith(".c")]


def test_data_is_read_from_a_zipped_install(tmp_path: Path) -> None:
    """What importlib.resources gives for a zipped package (a zipfile.Path) reads as a
    folder of files does: the default fits and pick models of a zip install load."""
    fit = {"game": "g", "players": [2], "weights": {"a": 5.0}}
    with zipfile.ZipFile(tmp_path / "site.zip", "w") as archive:
        archive.writestr("pkg/fits/2p.json", json.dumps(fit))
        archive.writestr("pkg/fits/notes.txt", "not a fit")
    package = zipfile.Path(tmp_path / "site.zip", "pkg/")  # as importlib.resources.files
    folder = package / "fits"
    assert [f.name for f in folder_files(folder, "*.json", "fits")] == ["2p.json"]
    assert read_fit(folder / "2p.json") == ("g", {"a": 5.0}, [2])
    assert WeightTable([("a", 1.0)], fits=folder).get(2) == {"a": 5.0}
    with pytest.raises(FileNotFoundError, match="no folder of fits"):
        folder_files(package / "none", "*.json", "fits")


def test_a_postgresql_database_without_its_driver_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLite deployments need no PostgreSQL driver: without psycopg, a postgresql:// URL
    says what to install (`regent serve` prints it as its one line)."""
    url = database_url("postgresql://regent@localhost/regent")
    require_driver(sa.engine.make_url(url))  # installed with the dev extra
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg raises ImportError
    with pytest.raises(StoreError, match=re.escape(POSTGRESQL_EXTRA)):
        Store("postgresql://regent@localhost/regent")
    require_driver(sa.engine.make_url(database_url(":memory:")))
    Store(":memory:").close()
    assert POSTGRESQL_EXTRA == 'pip install "regent[postgresql]"'


def test_a_missing_extra_is_named_with_what_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`regent tournament` and `regent match` need the tournament extra: a distribution of it
    missing is named, with the line that installs it (the installed wheel's smoke test runs
    the commands so)."""
    assert missing_extra("tournament") is None  # installed with the dev extra
    assert missing_extra("no-such-extra") is None
    real = importlib.metadata.distribution

    def without_scipy(name: str) -> importlib.metadata.Distribution:
        if name == "scipy":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", without_scipy)
    said = missing_extra("tournament")
    assert said == 'needs the tournament extra (scipy missing): pip install "regent[tournament]"'
    assert missing_extra("ray") is None  # regent[tournament] and ray: scipy is not named there


def test_the_service_imports_without_postgresql_driver() -> None:
    """`regent serve` and what it imports load without psycopg (imported only where a
    PostgreSQL database is used)."""
    code = (
        "import sys; sys.modules['psycopg'] = None; "
        "import clients.cli.main, clients.cli.serve, server.app"
    )
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr


# -- the built sdist and wheel (slow) ----------------------------------------------


@dataclass(frozen=True)
class Built:
    source: Path  # the clean clone they were built from
    sdist: Path
    wheel: Path
    seconds: float


def _build(out: Path) -> None:
    """Clone the checkout's HEAD, then `python -m build`: the sdist, then the wheel from the
    sdist (an isolated build environment, from PyPI)."""
    source = out / "source"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sdist and the wheel, built once a test run: the xdist workers share one build
    (the first builds it under a lock, the others wait and reuse it)."""
    pytest.importorskip("build", reason='the sdist needs `build` (pip install -e ".[dev]")')
    git_files(ROOT)  # skips outside a checkout
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "regent-release"
    with (shared / "regent-release.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "seconds").exists():
            shutil.rmtree(out, ignore_errors=True)
            start = time.monotonic()
            _build(out)
            (out / "seconds").write_text(f"{time.monotonic() - start:.0f}")
    (sdist,) = (out / "dist").glob("*.tar.gz")
    (wheel,) = (out / "dist").glob("*.whl")
    return Built(out / "source", sdist, wheel, float((out / "seconds").read_text()))


@pytest.mark.slow
def test_the_wheel_and_the_sdist_carry_what_the_code_reads(built: Built) -> None:
    """The wheel: every file the code reads, every module (each .pyx compiled), the stubs
    generated from each .proto, and no C or .pyx; the sdist: the sources a build needs (the
    .pyx, proto/) and the same files, and nothing a build makes."""
    with zipfile.ZipFile(built.wheel) as wheel:
        in_wheel = set(wheel.namelist())
    modules = source_files(built.source)
    compiled = {n for n in in_wheel if n.endswith(tuple(EXTENSION_SUFFIXES))}
    for name in modules:
        if name.endswith(".pyx"):
            stem = name.removesuffix(".pyx")
            assert any(c.startswith(stem + ".") for c in compiled), f"{name} not compiled"
    protos = [n for n in git_files(built.source) if n.startswith("proto/") and n.endswith(".proto")]
    stubs = {
        f"{Path(p).relative_to('proto').with_suffix('')}{end}"
        for p in protos
        for end in ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")
    }
    needed = runtime_files(built.source) + [n for n in modules if n.endswith(".py")]
    assert sorted((set(needed) | stubs) - in_wheel) == []
    assert [n for n in in_wheel if n.endswith((".c", ".pyx"))] == []
    with tarfile.open(built.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        in_sdist = {n.removeprefix(top + "/") for n in sdist.getnames()}
    assert sorted(set(needed + modules + protos) - in_sdist) == []
    assert [n for n in in_sdist if n.endswith((".c", ".so")) or n.startswith("regent/")] == []


@pytest.mark.slow
def test_the_installed_wheel_plays_and_serves_both_games(built: Built, tmp_path: Path) -> None:
    """Installed, not editable, in a fresh virtual environment without the optional extras,
    run from an empty directory: tests/smoke_installed.py."""
    start = time.monotonic()
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", str(built.wheel)]
    installed = subprocess.run(pip, capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    found = subprocess.run(
        [python, "-I", "-c", "import engine; print(engine.__file__); import psycopg"],
        cwd=empty,
        capture_output=True,
        text=True,
    )
    assert Path(found.stdout.strip()).is_relative_to(env), found.stdout  # not the checkout
    assert "No module named 'psycopg'" in found.stderr, found.stderr  # not the extra's
    script = Path(__file__).with_name("smoke_installed.py")
    smoke = [python, "-I", script, built.source / "examples"]
    ran = subprocess.run(smoke, cwd=empty, capture_output=True, text=True, timeout=1200)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    took = time.monotonic() - start
    print(f"built in {built.seconds:.0f} s, installed and run in {took:.0f} s:\n{ran.stdout}")
