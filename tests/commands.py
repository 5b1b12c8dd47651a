"""`regent` as a user runs it, in a process of its own: the command line and its environment
(the checkout on the path), for the tests that drive the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: The command line that starts `regent`, before its arguments.
REGENT = (sys.executable, "-m", "clients.cli")


def regent(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `regent ARGS` to its end."""
    return subprocess.run(
        [*REGENT, *args],
        cwd=ROOT,
        env=ENV,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
