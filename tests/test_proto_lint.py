"""The service's protos are clean under `buf lint` with its default rules."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUF = "@bufbuild/buf@1.75.0"


@pytest.mark.skipif(shutil.which("npx") is None, reason="buf comes from npm: npx is missing")
def test_buf_lint() -> None:
    result = subprocess.run(
        ["npx", "--yes", BUF, "lint", "proto"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
