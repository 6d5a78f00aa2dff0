"""The server-to-client messages, declared once (game.online.wire.messages): built only through
their declarations, each field checked; the clients dispatch through one table of declared types."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.online.wire import messages as M

ROOT = Path(__file__).resolve().parents[3]


def test_every_message_the_server_sends_is_built_through_its_declaration():
    # No message is a dict literal with a "type" any more: the server's and the wire's code
    # build them through the declarations (documentation strings aside).
    literal = re.compile(r"""\{\s*["']type["']\s*:\s*["'](\w+)["']""")
    found = []
    for folder in ("game/online/server", "game/online/wire"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "messages.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#")[0]
                if "``" in code or code.strip().startswith(("-", '"', "'")):
                    continue
                for kind in literal.findall(code):
                    if kind in M.SERVER_MESSAGES:
                        found.append(f"{path.relative_to(ROOT)}:{n}: {kind}")
    assert found == []


def test_the_declarations_cover_the_protocol():
    assert len(M.SERVER_TYPES) >= 30
    for decl in M.SERVER_MESSAGES.values():
        assert decl.audience, decl.type
        assert decl.audience <= {"connection", "seat", "table", "spectators", "lobby", "local"}
        assert ("local" in decl.audience) == decl.type.startswith("_")
    assert M.SERVER_MESSAGES["events"].audience == {"seat", "spectators"}
    assert M.SERVER_MESSAGES["tables"].audience >= {"lobby"}


def test_a_constructor_checks_its_fields():
    assert M.WELCOME(version=1, server="cardavia") == {"type": "welcome", "version": 1, "server": "cardavia"}
    assert M.RESUMED(seat=2) == {"type": "resumed", "seat": 2}
    with pytest.raises(M.MessageError, match="'server' is missing"):
        M.WELCOME(version=1)
    with pytest.raises(M.MessageError, match="'version' must be int"):
        M.WELCOME(version="1", server="x")
    with pytest.raises(M.MessageError, match="'seat' must be int"):
        M.RESUMED(seat=True)  # JSON's true is no seat
    with pytest.raises(M.MessageError, match="'colour' is not a field"):
        M.RESUMED(seat=1, colour="red")
    assert M.JOINED(code="ABCDEFGHJK", seat=0, token=None)["token"] is None


def test_a_type_is_declared_once():
    with pytest.raises(M.MessageError, match="declared twice"):
        M.declare("welcome", ["connection"])


def test_dispatch_refuses_an_undeclared_type():
    seen = []
    dispatch = M.Dispatch({"pong": seen.append})
    assert dispatch({"type": "pong"}) and seen == [{"type": "pong"}]
    assert not dispatch({"type": "welcome", "version": 1, "server": "x"})  # declared, not handled here
    with pytest.raises(M.MessageError, match="undeclared type 'shutdown'"):
        dispatch({"type": "shutdown"})
    with pytest.raises(M.MessageError, match="undeclared"):
        dispatch({"kind": "pong"})
    with pytest.raises(M.MessageError, match="undeclared message type 'colour'"):
        M.Dispatch({"colour": seen.append})
    strict = M.Dispatch({"resumed": seen.append}, check_fields=True)
    with pytest.raises(M.MessageError, match="'seat' is missing"):
        strict({"type": "resumed"})


def test_the_client_keeps_an_undeclared_message_as_an_error():
    from game.online.client.client import RemoteSession

    session = RemoteSession("ws://127.0.0.1:1", "ABCDEFGHJK", "Anna", connect=False)
    session._handle({"type": "shutdown"})
    assert session.errors[-1][0] == "client" and "undeclared type 'shutdown'" in session.errors[-1][1]
