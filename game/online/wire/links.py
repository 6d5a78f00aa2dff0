"""Where an online table is: server addresses, table links and codes, parsed in one place
(:func:`parse_address`): ``ws://`` and ``wss://`` URLs, bare ``host:port``, and the
``cardavia://host:port/CODE`` links a host gives out (:func:`make_link`); a code as a player
types it (:func:`check_code`). Pure Python, no network: game.online.client.client connects.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from game.online.wire import protocol as P

#: Link scheme of a table (``cardavia://host:port/CODE``); ``cardavias://`` for a TLS server.
LINK_SCHEME = "cardavia"
LINK_SCHEME_TLS = "cardavias"


def parse_address(text: str) -> tuple[str, str | None]:
    """A server address as typed or pasted → (websocket URL, table code or None).

    ``ws://host:port[/path]`` and ``wss://…`` are used as they are; ``host:port`` (or just
    ``host``) means ``ws://``; ``cardavia://host:port/CODE`` (``cardavias://`` over TLS)
    is a table's link: its server and its code. A missing port is DEFAULT_PORT.
    ValueError (one line) for anything else."""
    raw = (text or "").strip()
    if not raw:
        raise ValueError("no server address given")
    if len(raw) > 300 or not raw.isprintable() or any(ch.isspace() for ch in raw):
        raise ValueError(f"{raw[:40]!r} is not a server address")
    if "://" not in raw:
        raw = "ws://" + raw
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as e:
        raise ValueError(f"{text.strip()[:60]!r} is not a server address ({e})") from None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in ("ws", "wss", LINK_SCHEME, LINK_SCHEME_TLS):
        raise ValueError(f"{text.strip()[:60]!r}: an address starts with ws://, wss:// or {LINK_SCHEME}://")
    if not host:
        raise ValueError(f"{text.strip()[:60]!r} names no server")
    if parts.username or parts.password:
        raise ValueError("a server address carries no user name or password")
    netloc = f"[{host}]" if ":" in host else host
    netloc += f":{port if port is not None else P.DEFAULT_PORT}"
    if scheme in ("ws", "wss"):
        path = parts.path or ""
        query = f"?{parts.query}" if parts.query else ""
        return f"{scheme}://{netloc}{path}{query}", None
    code_text = parts.path.strip("/")
    code = code_text.upper() if code_text else None
    if code is not None and not P.is_code(code):
        raise ValueError(
            f"{code_text[:20]!r} in the link is not a table code ({P.CODE_LENGTH} characters of {P.CODE_ALPHABET})"
        )
    return f"{'wss' if scheme == LINK_SCHEME_TLS else 'ws'}://{netloc}", code


def make_link(host: str, port: int, code: str, tls: bool = False) -> str:
    """The link a host gives friends: ``cardavia://host:port/CODE``."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{LINK_SCHEME_TLS if tls else LINK_SCHEME}://{shown}:{port}/{code}"


def check_code(text: str) -> str:
    """A table code as a player typed it (any case, spaces or dashes between groups) →
    the code. ValueError (one line) when it cannot be one."""
    code = "".join(ch for ch in (text or "") if ch not in " -").upper()
    if not P.is_code(code):
        raise ValueError(f"{(text or '')[:20]!r} is not a table code ({P.CODE_LENGTH} characters of {P.CODE_ALPHABET})")
    return code


__all__ = ["LINK_SCHEME", "LINK_SCHEME_TLS", "check_code", "make_link", "parse_address"]
