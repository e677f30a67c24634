"""Who may talk to the server: its own page only (an ASGI middleware, :class:`OwnOriginOnly`).

A browser lets any web site send requests to ``127.0.0.1``: a form or ``fetch`` with a "simple" body type
(``text/plain``) needs no CORS preflight, and DNS rebinding (a site's name that resolves to 127.0.0.1)
even lets the site read the answers. So every request must name this server in ``Host`` (a loopback name
or the address the request came in on, at the served port), must come from its own page when the browser
says where it comes from (``Origin``, and ``Sec-Fetch-Site`` for API requests without one), and a body
must be JSON (``Content-Type: application/json``: a site can only send that after a CORS preflight,
which gets no CORS answer). Origins named with ``seers serve --allow-origin`` are let in too (their
``Host`` as well), with CORS answers from Starlette's ``CORSMiddleware``.

Starlette's ``TrustedHostMiddleware`` does not fit: it ignores the port and answers in plain text.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Names of this machine that no other site can stand for.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
DEFAULT_PORTS = {"http": 80, "https": 443}
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def parse_origin(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a web origin such as ``http://localhost:8000`` (host lower case, IPv6
    without brackets, the scheme's default port filled in); ``None`` when ``origin`` is not one (``null``,
    a path, a user name, a bad port)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path or parts.query \
            or parts.fragment or parts.username is not None or origin.strip().endswith(("?", "#")):
        return None
    return parts.scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[parts.scheme]


def canonical_origin(origin: str) -> str:
    """``origin`` as a browser writes it in ``Origin`` (``http://[::1]:8000``; no default port).

    Raises:
        ValueError: not an origin ``scheme://host[:port]`` with scheme http or https.
    """
    parsed = parse_origin(origin)
    if parsed is None:
        raise ValueError(f"{origin!r} is not a web origin: write scheme://host[:port] with scheme http or "
                         "https and nothing after the port, e.g. http://my-box.lan:8000")
    scheme, host, port = parsed
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")


def parse_host(value: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host`` header (port 80 when absent); ``None`` when malformed (anything but
    ``host[:port]``: a path, query, fragment or user name, even an empty one, or white space inside)."""
    text = value.strip()
    if any(c in "/?#@\\" or c.isspace() for c in text):
        return None
    try:
        parts = urlsplit("//" + text)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.fragment or parts.username is not None:
        return None
    return parts.hostname.lower(), port if port is not None else 80


def _ip_literal(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return not address.is_unspecified


class OwnOriginOnly:
    """ASGI middleware: refuse requests that are not from this server's own page (module docstring).

    Answers (``{"error": message}``): 403 for a ``Host`` that is not this server's address (DNS
    rebinding) or a foreign ``Origin`` / ``Sec-Fetch-Site``; 415 for a request body that is not
    ``application/json``.

    Args:
        app: the application.
        allowed_origins: further origins let in (``seers serve --allow-origin``), e.g.
            ``("http://my-box.lan:8000",)``; their host and port are accepted in ``Host`` too.

    Raises:
        ValueError: an allowed origin that is not ``scheme://host[:port]``.
    """

    def __init__(self, app: ASGIApp, allowed_origins: Sequence[str] = ()):
        self.app = app
        self.extra = set()
        for origin in allowed_origins:
            canonical_origin(origin)  # raises ValueError for a malformed one
            self.extra.add(parse_origin(origin))
        self.extra_hosts = {(host, port) for _, host, port in self.extra}

    def own_hosts(self, scope: Scope) -> set[tuple[str, int | None]]:
        """``(host, port)`` pairs naming this server for a request: the loopback names and the address it
        came in on (an IP literal), at the port it came in on (``None``: any, when the server has no port)."""
        server = scope.get("server")
        port = server[1] if server and len(server) > 1 else None
        names = set(LOOPBACK_NAMES)
        if server and server[0] and _ip_literal(str(server[0])):
            names.add(str(server[0]).lower())
        return {(name, port) for name in names}

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """``(status, message)`` when the request is refused, else ``None``."""
        headers = Headers(scope=scope)
        own = self.own_hosts(scope)

        def is_own(host: str, port: int) -> bool:
            return (host, port) in own or (host, None) in own

        shown = sorted(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in own)
        raw_host = headers.get("host")
        host = parse_host(raw_host) if raw_host is not None else None
        if host is None or not (is_own(*host) or host in self.extra_hosts):
            return 403, (f"Host {raw_host!r} is not an address of this server ({', '.join(shown)}): a page "
                         "that reaches it through another name is refused (DNS rebinding); to serve under "
                         "that name, start it with --allow-origin http://NAME:PORT")
        origin = headers.get("origin")
        if origin is not None:
            parsed = parse_origin(origin)
            if parsed is None or not ((parsed[0] == "http" and is_own(parsed[1], parsed[2]))
                                      or parsed in self.extra):
                return 403, (f"requests from the page at Origin {origin[:200]!r} are refused: this server "
                             "answers its own page only (and the origins of --allow-origin)")
        elif scope["path"].startswith("/api/") and headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return 403, ("requests from another site's page are refused: this server answers its own page "
                         "only (and the origins of --allow-origin)")
        if scope["method"] in BODY_METHODS:
            content_type = headers.get("content-type")
            if content_type is not None:
                if content_type.split(";")[0].strip().lower() != "application/json":
                    return 415, (f"Content-Type {content_type[:100]!r} is refused: send a JSON body with "
                                 "Content-Type: application/json")
            elif headers.get("transfer-encoding") or headers.get("content-length", "0").strip() not in ("", "0"):
                return 415, "a request body needs Content-Type: application/json"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refusal(scope) if scope["type"] == "http" else None  # lifespan (no websockets here)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
