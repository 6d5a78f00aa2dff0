"""What a player types on the online screens, checked so the screen can say in one line
what is wrong: an address or a ``cardavia://host:port/CODE`` link, a table code, a name, a
port — and this machine's address on the local network (no pygame, nothing sent).

Addresses and links are parsed by :mod:`game.online.wire.links`, as the client connects
with them; this module turns its one-line refusals into the player's language (``key``
under ``online.``). The server checks everything again: it trusts no client.
"""

from __future__ import annotations

import socket

from game.online.wire import links
from game.online.wire.protocol import CODE_LENGTH, DEFAULT_PORT, NAME_MAX

SCHEME = f"{links.LINK_SCHEME}://"


class AddressError(ValueError):
    """What is wrong with a typed address, link, code, name or port: ``key`` (under
    ``online.``) says so, ``params`` fill it in."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key = key
        self.params = params


def lan_address() -> str:
    """This machine's address on the local network, as friends in the same house reach it.

    A UDP socket "connected" to a documentation address makes the system choose the
    interface it would route through; connect() on UDP sends nothing. Without a network:
    127.0.0.1 (this machine only)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, nothing is sent
            ip = str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return ip if ip and not ip.startswith("0.") else "127.0.0.1"


def parse_port(text: str, any_free: bool = False) -> int:
    """A port typed by the host: a whole number from 1 to 65535 (``any_free``: 0 too, any
    free port)."""
    t = text.strip()
    if not t.isdigit() or not (0 if any_free else 1) <= int(t) <= 65535:
        raise AddressError("bad_port")
    return int(t)


def is_link(text: str) -> bool:
    t = text.strip().lower()
    return t.startswith(SCHEME) or t.startswith(f"{links.LINK_SCHEME_TLS}://")


def server_url(address: str) -> tuple[str, str | None]:
    """The websocket URL of a typed address or link, and the link's code (None for a bare
    address)."""
    if not address.strip():
        raise AddressError("no_address")
    try:
        return links.parse_address(address)
    except ValueError:
        raise AddressError("bad_link" if is_link(address) else "bad_address") from None


def clean_code(text: str) -> str:
    """A table code as typed (any case, spaces or dashes between its groups)."""
    if not text.strip():
        raise AddressError("no_code")
    try:
        return links.check_code(text)
    except ValueError:
        raise AddressError("bad_code", length=CODE_LENGTH) from None


def clean_name(text: str) -> str:
    """A player's name: 1–20 printable characters (spaces around it dropped)."""
    name = " ".join(text.split())
    if not name:
        raise AddressError("no_name")
    if len(name) > NAME_MAX or not name.isprintable():
        raise AddressError("bad_name", max=NAME_MAX)
    return name


def shown_address(url: str) -> str:
    """``ws://host:port`` as the player typed it: ``host:port``."""
    return url.split("://", 1)[-1].rstrip("/")


__all__ = [
    "AddressError",
    "SCHEME",
    "DEFAULT_PORT",
    "lan_address",
    "parse_port",
    "is_link",
    "server_url",
    "clean_code",
    "clean_name",
    "shown_address",
]
