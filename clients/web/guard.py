"""Who may use the hint page's gateway: the Host a request must name (against DNS rebinding),
the Origin it may carry (against other sites' pages), JSON-only POSTs (no form or text/plain
CSRF), the access token of a gateway reachable from the network, and the security headers
on every answer."""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

#: The Host names of this machine seen from itself.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
#: The page's files and API calls come from the gateway only; nothing may frame it.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: A token on the command line: what a URL's query and an Authorization header carry as is.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{8,200}")
_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")


@dataclass(frozen=True)
class WebOptions:
    """How a gateway is reached: `token` (required when given; generated when the gateway
    listens beyond loopback and none is given), more Host names to accept, and how long a
    client may take to send a request's headers and its body, in seconds."""

    token: str | None = None
    hosts: tuple[str, ...] = ()
    header_timeout: float = 10.0
    body_timeout: float = 30.0


@dataclass(frozen=True)
class Access:
    """What a gateway listening on one address accepts, and the URL to open it with."""

    hosts: frozenset[str]
    token: str | None
    url: str
    exposed: bool


class Refused(Exception):
    """A request the gateway answers itself with an error: HTTP status, code, message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or []
        self.headers = headers or {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        arguments = (self.status, self.code, self.message, self.fields, self.headers)
        return type(self), arguments, self.__dict__


def host_name(text: str) -> str:
    """A host name or address as a Host header names it (lower case, IPv6 in brackets);
    ValueError when it is neither or carries a port."""
    name = text.strip().lower()
    try:
        address = ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        if not _HOST_NAME.fullmatch(name) or len(name) > 253:
            message = f"expected a host name or address without a port, not {text!r}"
            raise ValueError(message) from None
        return name.rstrip(".")
    return f"[{address}]" if address.version == 6 else str(address)


def check_token(text: str) -> str:
    """An access token given on the command line; ValueError when a URL would mangle it."""
    if not TOKEN_PATTERN.fullmatch(text):
        raise ValueError("a token is 8 to 200 letters, digits or . _ ~ -")
    return text


def access(listen: str, bound: str, port: int, options: WebOptions) -> Access:
    """What a gateway asked to listen on `listen` and bound to the address `bound`, `port`
    accepts: loopback names on loopback, the address itself on one address, this machine's
    names and addresses on all of them (0.0.0.0, ::); the operator's `options.hosts` too."""
    address = ipaddress.ip_address(bound)
    extra = [host_name(h) for h in options.hosts]
    if address.is_loopback:
        names = [*LOOPBACK_NAMES]
        shown = extra or [host_name(listen)]
    elif address.is_unspecified:
        own = _machine_addresses()
        names = [*LOOPBACK_NAMES, *own, *_machine_names()]
        shown = extra or own or _machine_names()
    else:
        names = [host_name(listen), host_name(bound)]
        shown = extra or names
    exposed = not address.is_loopback
    token = options.token or (secrets.token_urlsafe(24) if exposed else None)
    where = shown[0] if port == 80 else f"{shown[0]}:{port}"
    url = f"http://{where}/" + (f"?token={token}" if token else "")
    hosts = {f"{name}:{port}" for name in [*names, *extra]}
    if port == 80:  # a browser leaves the default port out
        hosts |= {*names, *extra}
    return Access(frozenset(hosts), token, url, exposed)


def _machine_names() -> list[str]:
    hostname = socket.gethostname().lower()
    return [hostname, f"{hostname}.local"]


def _machine_addresses() -> list[str]:
    """This machine's addresses on its default routes (a UDP socket's connect picks the route
    and sends nothing; the probes are documentation addresses)."""
    found = []
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.append(host_name(udp.getsockname()[0]))
        except OSError:
            continue  # no route of this family
    return found


def refusal(request: web.BaseRequest, access: Access) -> Refused | None:
    """Why `request` is refused before it reaches a handler, or None. The messages name the
    header at fault and never repeat what the request carried."""
    host = request.headers.get("Host", "").lower()
    if host not in access.hosts:
        return Refused(
            403,
            "FORBIDDEN_HOST",
            "the Host header names no address this page is served on "
            "(regent serve and regent web accept more names with --web-host)",
        )
    origin = request.headers.get("Origin")
    if origin is not None and origin.lower() != f"{request.scheme}://{host}":
        return Refused(
            403, "FORBIDDEN_ORIGIN", "the Origin header is another site's: only this page may call"
        )
    if access.token is not None and request.path.startswith("/api/"):
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        right = hmac.compare_digest(given.strip().encode(errors="replace"), access.token.encode())
        if scheme.lower() != "bearer" or not right:
            return Refused(
                401,
                "UNAUTHENTICATED",
                "this page needs its access token: open the address with ?token= that regent "
                "printed when it started",
                headers={"WWW-Authenticate": "Bearer"},
            )
    if request.method == "POST" and request.content_type != "application/json":
        return Refused(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            "the body must be JSON, sent with the Content-Type header application/json",
        )
    return None


async def mark(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer carries the security headers; the API's are never cached."""
    response.headers.update(SECURITY_HEADERS)
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
