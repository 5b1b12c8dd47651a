"""The hint page's JavaScript checked like the rest: ESLint (clients/web/eslint.config.js, a
flat config) passes on every module of the page and its unit tests, and the unit tests
(`node --test`, clients/web/test/: the move wording, the log and what Put back keeps, the
saved game file, the deal) pass. Skipped without Node.js; installs ESLint with `npm ci`
(a few seconds) when clients/web/node_modules lacks it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "clients" / "web"
NODE = shutil.which("node")
NPM = shutil.which("npm")
NPX = shutil.which("npx")
TIMEOUT = 300

pytestmark = pytest.mark.skipif(
    None in (NODE, NPM, NPX), reason="Node.js (`node`, `npm` and `npx`) is not installed"
)


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=PAGE, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def installed() -> Path:
    """clients/web with its development dependencies (ESLint) installed."""
    needed = json.loads((PAGE / "package.json").read_text())["devDependencies"]
    if not all((PAGE / "node_modules" / name).is_dir() for name in needed):
        assert NPM is not None
        result = run(NPM, "ci", "--no-audit", "--no-fund")
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return PAGE


def test_eslint_passes_on_the_page(installed: Path) -> None:
    assert NPX is not None
    result = run(NPX, "--no-install", "eslint", "--format", "json", ".")
    found = json.loads(result.stdout)
    problems = [
        f"{entry['filePath']}:{m['line']}: {m['message']} ({m.get('ruleId')})"
        for entry in found
        for m in entry["messages"]
    ]
    assert result.returncode == 0 and not problems, "ESLint:\n" + "\n".join(problems)
    # Every module of the page is linted: none is ignored.
    modules = set((installed / "static" / "js").rglob("*.js"))
    assert len(modules) >= 10 and modules <= {Path(entry["filePath"]) for entry in found}


def test_the_page_modules_unit_tests_pass(installed: Path) -> None:
    assert NODE is not None
    result = run(NODE, "--test", "test/")
    assert result.returncode == 0, f"node --test:\n{result.stdout}\n{result.stderr}"
    assert "# fail 0" in result.stdout
