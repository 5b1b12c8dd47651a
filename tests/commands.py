"""`regent` as a user runs it, in a process of its own: the command line and its environment
(the checkout on the path), for the tests that drive the CLI; `Serving` is the real server
in a process of its own (tests/support/server.py's is in the test's process)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: The command line that starts `regent`, before its arguments.
REGENT = (sys.executable, "-m", "clients.cli")
#: `REGENT` as a terminal starts it, where Ctrl-C raises KeyboardInterrupt. A test run started
#: with SIGINT ignored (a background job of a shell without job control) hands that on to
#: its children, and Python then leaves SIGINT ignored.
REGENT_AT_A_TERMINAL = (
    sys.executable,
    "-c",
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('clients.cli', run_name='__main__', alter_sys=True)",
)


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


class Serving:
    """`regent serve ARGS` (ARGS give it free ports) in a process of its own, and the lines of
    its log, read as they come; `address` is where it serves, once it says so within `wait`
    seconds."""

    def __init__(self, *args: str, wait: float = 30) -> None:
        self.process = subprocess.Popen(
            [*REGENT, "serve", *args], cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True
        )
        self.log: list[str] = []
        self._wait = wait
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.address = self.wait_for(r"serving on (\S+)").group(1)

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line.rstrip("\n"))

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        """Send `sig` and wait for the process to end, its log read to the end; its status."""
        self.process.send_signal(sig)
        status = self.process.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return status

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first log line matching `pattern`, waiting for it; AssertionError with the log
        when the process ends or the wait runs out without one."""
        deadline = time.monotonic() + self._wait
        while time.monotonic() < deadline:
            ended = self.process.poll() is not None
            for line in list(self.log):
                if found := re.search(pattern, line):
                    return found
            if ended:
                raise AssertionError("regent serve ended:\n" + "\n".join(self.log))
            time.sleep(0.02)
        raise AssertionError(f"no log line matches {pattern!r}:\n" + "\n".join(self.log))
