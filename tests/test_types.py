"""mypy's type check is part of the test run, beside ruff: the project passes it (strict on
the public API, see pyproject.toml), and the .pyi files of the Cython modules match them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The packages whose Cython modules Python imports through a .pyi file.
TYPED_CYTHON = ("engine", "search")

pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


def _stubbed_modules() -> list[str]:
    """Every module with a .pyi beside its compiled Cython extension."""
    return sorted(
        ".".join(pyi.relative_to(ROOT).with_suffix("").parts)
        for package in TYPED_CYTHON
        for pyi in (ROOT / package).rglob("*.pyi")
        if any(pyi.parent.glob(f"{pyi.stem}.*.so")) or any(pyi.parent.glob(f"{pyi.stem}.*.pyd"))
    )


def test_mypy() -> None:
    """`mypy` (its files and options from pyproject.toml) finds no error."""
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_cython_stubs_match_the_modules() -> None:
    """stubtest imports each compiled module and finds every name of its .pyi there, with the
    same parameters (Cython embeds its signatures); a .pyi may leave names out."""
    modules = _stubbed_modules()
    assert "engine.cstate" in modules and "search.ismcts" in modules, modules
    result = _run(
        "mypy.stubtest", "--mypy-config-file", "pyproject.toml", "--ignore-missing-stub", *modules
    )
    assert result.returncode == 0, result.stdout + result.stderr
