"""The server's Prometheus metrics, served at `/metrics` on an HTTP port of their own
(`regent serve --metrics-address HOST:PORT`; off unless given).

Counters and histograms are module-level, for any module to update (`DATABASE_ERRORS.inc()`);
the gauges of a running server's state (searches running and queued, live matches) are read
from it when scraped, from every server this process runs (`watch`). docs/operating.md says
what each one means and what to watch."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger("regent.server")

REGISTRY = CollectorRegistry()

CALLS = Counter(
    "regent_calls", "Calls handled, by method and status.", ["method", "code"], registry=REGISTRY
)
LATENCY = Histogram(
    "regent_call_seconds",
    "How long calls took, from arrival to their status (a stream: its whole life).",
    ["method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=REGISTRY,
)
IN_FLIGHT = Gauge(
    "regent_calls_in_flight",
    "Calls running now, by method (Watch: the open watchers).",
    ["method"],
    registry=REGISTRY,
)
QUOTA_REFUSALS = Counter(
    "regent_quota_refusals",
    "Calls refused by a quota (RESOURCE_EXHAUSTED) or for an unknown API key, by quota.",
    ["quota"],
    registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "regent_database_errors",
    "Calls to the match database that failed (the caller got UNAVAILABLE or retries).",
    registry=REGISTRY,
)
LEASE_TAKEOVERS = Counter(
    "regent_lease_takeovers",
    "Matches whose bots this replica started driving on finding nobody driving them "
    "(after a restart, or another replica's death).",
    registry=REGISTRY,
)

#: A gauge read from a running server: (name, help, read).
Reading = tuple[str, str, Callable[[], float]]


class _State(Collector):
    """The gauges of every watched server, summed (a process runs one server but in tests)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sources: dict[int, list[Reading]] = {}

    def add(self, key: int, readings: list[Reading]) -> None:
        with self._lock:
            self._sources[key] = readings

    def remove(self, key: int) -> None:
        with self._lock:
            self._sources.pop(key, None)

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            sources = list(self._sources.values())
        totals: dict[str, tuple[str, float]] = {}
        for readings in sources:
            for name, help_text, read in readings:
                _, total = totals.get(name, (help_text, 0.0))
                totals[name] = (help_text, total + read())
        for name, (help_text, value) in totals.items():
            yield GaugeMetricFamily(name, help_text, value=value)


_STATE = _State()
REGISTRY.register(_STATE)


def watch(key: object, readings: list[Reading]) -> None:
    """Report these gauges of a running server (`key`) until `unwatch(key)`."""
    _STATE.add(id(key), readings)


def unwatch(key: object) -> None:
    _STATE.remove(id(key))


def split_address(address: str) -> tuple[str, int]:
    """HOST and PORT of `HOST:PORT` (`[::1]:9464` for IPv6); ValueError if it is not one."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(f"{address!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


class MetricsServer:
    """`/metrics` over HTTP on a thread of its own, so that a scrape answers whatever the
    event loop is doing."""

    def __init__(self, address: str) -> None:
        host, port = split_address(address)
        self._httpd: WSGIServer
        self._httpd, self._thread = start_http_server(port, host, registry=REGISTRY)
        bound = self._httpd.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        self.address = f"{shown}:{bound}"
        log.info("metrics on http://%s/metrics", self.address)

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()
