"""Wall-clock bounds that hold on a busy machine (load 10 on 2 cores).

A test waits on the wall clock only to see that something ends: a search at its budget or a
call's deadline, a slot given back at a cancel, a process at a signal. Its bound is what it
waits for plus the slack below, far less than what a broken end would take (a search that
ignored its budget, a cancel nobody saw). How fast things are is the benchmarks' business
(`regent bench`), never a test's. What work a search does after it is told to stop is
measured in CPU time (`thread_cpu`), which a wait for a core does not inflate.

Tests that lean on these bounds carry `@pytest.mark.timing`; docs/development.md's "Timing tests"
section runs them beside two CPU hogs (`tests/busy.sh`).
"""

from __future__ import annotations

import threading
import time

#: What a loaded host may add to an end in the test's own process: every thread hand-off
#: between a search's last clock check and the test seeing its end may wait for a core
#: (tens of milliseconds seen beside two CPU hogs).
SLACK = 2.0
#: What a loaded host may add to the end of another process (`regent serve` at a signal):
#: its interpreter's exit as well (4 s seen beside two CPU hogs, 0.4 s idle).
PROCESS_SLACK = 10.0


def thread_cpu(thread: threading.Thread) -> float:
    """The CPU seconds `thread` (started, still running) has used so far."""
    assert thread.ident is not None, "the thread has not started"
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
