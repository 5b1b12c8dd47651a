"""Who calls, and what each caller may use: API keys with their own quotas, and a small one
per peer address for callers without a key, so that no client can lock the others out.

A caller sends its key as gRPC metadata `x-api-key: KEY`. A call with a key the server does
not know is refused (UNAUTHENTICATED); a call without one is anonymous and counted by its peer
address. Quotas are of live hosted matches (checked by CreateMatch against the database, so
they hold across replicas and restarts) and of searches started per second (Recommend,
Analyze and Review; a token bucket per caller in each replica). Over a quota a call gets
RESOURCE_EXHAUSTED naming it. Callers on this machine are trusted unless the limits'
`quota_loopback` says otherwise."""

from __future__ import annotations

import contextvars
import hashlib
import ipaddress
import time
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import grpc

from engine.errors import Wording, worded
from server import metrics
from server.limits import ServerLimits
from server.status import Rejected, resource_exhausted, unauthenticated

#: The metadata key of a caller's API key.
API_KEY_HEADER = "x-api-key"
#: A key shorter than this is refused when the server starts: it could be guessed.
MIN_KEY_LENGTH = 16
#: The advisor's methods that start a search, counted by `searches_per_second`.
SEARCH_METHODS = frozenset(
    f"/regent.v1.AdvisorService/{name}" for name in ("Recommend", "Analyze", "Review")
)
#: Past this many callers' buckets, the full ones (idle callers') are forgotten.
_MAX_BUCKETS = 4096


@dataclass(frozen=True)
class ApiKey:
    """A key a caller may send, its holder's name and quotas (None: no quota but the
    server's own limits)."""

    name: str
    key: str
    #: Live hosted matches the holder may have created.
    matches: int | None = None
    #: Searches the holder may start per second.
    searches_per_second: float | None = None


@dataclass(frozen=True)
class Caller:
    """Who makes a call, as the quotas count it."""

    #: What the database records as a match's creator: `key:NAME` or `peer:ADDRESS`.
    identity: str
    matches: int | None
    searches_per_second: float | None

    @property
    def anonymous(self) -> bool:
        return self.identity.startswith("peer:")

    def __str__(self) -> str:
        kind, _, name = self.identity.partition(":")
        return f"the API key {name!r}" if kind == "key" else f"the peer {name}"


#: A caller held to no quota: on this machine, or outside a call (tests, tools).
TRUSTED = Caller("local", None, None)
_current: contextvars.ContextVar[Caller] = contextvars.ContextVar("caller", default=TRUSTED)


def current_caller() -> Caller:
    """The caller of the call being handled (set by `Quotas.admit`)."""
    return _current.get()


def peer_address(peer: str) -> str:
    """The address of a gRPC peer string without its port: `ipv4:1.2.3.4:5` -> `1.2.3.4`,
    `ipv6:%5B::1%5D:5` (or unquoted) -> `::1`, anything else (a Unix socket) as it is."""
    kind, _, rest = urllib.parse.unquote(peer).partition(":")
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    if kind == "ipv6":
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer


def is_local(address: str) -> bool:
    """A loopback address (IPv4, IPv6, or IPv4 mapped into IPv6), or a Unix socket."""
    if address.startswith("unix"):
        return True
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


class _Bucket:
    """A token bucket: `rate` tokens a second, as many at most."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, rate)
        self.tokens = self.capacity
        self.at = time.monotonic()

    def refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self.refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Quotas:
    """The server's API keys and every caller's search bucket."""

    def __init__(self, limits: ServerLimits, keys: Sequence[ApiKey] = ()) -> None:
        self.limits = limits
        self._keys: dict[str, ApiKey] = {}
        for key in keys:
            if len(key.key) < MIN_KEY_LENGTH:
                raise ValueError(f"api key {key.name!r}: at least {MIN_KEY_LENGTH} characters")
            if _hash(key.key) in self._keys:
                raise ValueError(f"api key {key.name!r}: the same key as another")
            self._keys[_hash(key.key)] = key
        self._buckets: dict[str, _Bucket] = {}

    def caller(self, metadata: Iterable[tuple[str, str | bytes]], peer: str) -> Caller:
        """Who sends a call with this metadata from `peer`; Rejected (UNAUTHENTICATED) for a
        key the server does not know."""
        sent = [v for k, v in metadata if k == API_KEY_HEADER]
        if sent:
            value = sent[0]
            text = value.decode(errors="replace") if isinstance(value, bytes) else value
            key = self._keys.get(_hash(text))
            if key is None or len(sent) > 1:
                raise _refused(
                    "api_key",
                    unauthenticated("{header}: not a key of this server", header=API_KEY_HEADER),
                )
            return Caller(f"key:{key.name}", key.matches, key.searches_per_second)
        address = peer_address(peer)
        if is_local(address) and not self.limits.quota_loopback:
            return TRUSTED
        limits = self.limits
        return Caller(
            f"peer:{address}", limits.anonymous_matches, limits.anonymous_searches_per_second
        )

    def admit(self, method: str, metadata: Iterable[tuple[str, str | bytes]], peer: str) -> None:
        """Identify the caller of a call about to be handled (`current_caller()` says who, within
        it) and take a search from its bucket if the method starts one; Rejected when the
        key is unknown or the caller's searches are spent."""
        caller = self.caller(metadata, peer)
        _current.set(caller)
        rate = caller.searches_per_second
        if method not in SEARCH_METHODS or rate is None:
            return
        bucket = self._buckets.get(caller.identity)
        if bucket is None:
            if len(self._buckets) >= _MAX_BUCKETS:
                self._forget_idle()
            bucket = self._buckets[caller.identity] = _Bucket(rate)
        if not bucket.take():
            reason = "{caller} may start {rate} searches a second; wait and retry"
            raise _exhausted("searches_per_second", worded(reason, caller=caller, rate=f"{rate:g}"))

    def _forget_idle(self) -> None:
        for identity, bucket in list(self._buckets.items()):
            bucket.refill()
            if bucket.tokens >= bucket.capacity:
                del self._buckets[identity]


def check_matches(limits: ServerLimits, caller: Caller, counts: Mapping[str, int]) -> None:
    """Rejected (RESOURCE_EXHAUSTED naming the quota) when a new match would take the server
    past `max_matches` or the caller past its quota of live matches; `counts` are the
    database's live matches: `all`, the caller's (`own`) and the anonymous callers'
    (`anonymous`), as Store.live_counts gives them."""
    if counts["all"] >= limits.max_matches:
        full = "the server hosts its limit of {count} live matches"
        raise _refused("max_matches", resource_exhausted("matches", full, count=limits.max_matches))
    if caller.matches is not None and counts["own"] >= caller.matches:
        reason = "{caller} has its quota of {count} live matches; finish one first"
        raise _exhausted("matches", worded(reason, caller=caller, count=caller.matches))
    if caller.anonymous and counts["anonymous"] >= limits.max_anonymous_matches:
        reason = (
            "callers without an API key have their {count} live "
            "matches together; finish one first, or use an API key"
        )
        raise _exhausted("anonymous_matches", worded(reason, count=limits.max_anonymous_matches))


def _refused(quota: str, status: grpc.Status) -> Rejected:
    """The refusal of a call by `quota`, counted in the metrics."""
    metrics.QUOTA_REFUSALS.labels(quota).inc()
    return Rejected(status)


def _exhausted(quota: str, reason: Wording) -> Rejected:
    """RESOURCE_EXHAUSTED naming the quota (`quota.NAME`), counted in the metrics."""
    return _refused(quota, resource_exhausted(f"quota.{quota}", reason))
