"""How often a TLS opening to the table server hangs: websockets' sync client (the game's)
against the in-thread server, one connection after another.

    .venv/bin/python bench/tls_openings.py [--openings 3000] [--seconds 170] [--tickets]

Each opening connects over wss:// to 127.0.0.1, says hello and waits for the welcome, every
wait at most 3 s. ``--tickets`` sends TLS 1.3 session tickets again (OpenSSL's default, two
after each handshake), the server as it was before game.online.server.serving stopped them: a ticket
arriving while the client's writer thread sends its upgrade request lost the request about
once in 2,000 openings on a loaded 2-core machine. Load the machine yourself to see it (e.g.
three ``python3 -c "while True: pass"``). Prints the openings, failures and slowest opening;
exit code 1 when any failed.
"""

from __future__ import annotations

import argparse
import json
import ssl
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openings", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=170.0, help="stop earlier after this long")
    ap.add_argument("--tickets", action="store_true", help="send session tickets (the old server)")
    args = ap.parse_args(argv)

    from websockets.sync.client import connect

    import game.online.server.serving as serving

    cert, key = ROOT / "tests/online/tls_test_cert.pem", ROOT / "tests/online/tls_test_key.pem"
    if args.tickets:
        plain = serving.tls_context

        def with_tickets(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
            ctx = plain(certfile, keyfile)
            if ctx is not None:
                ctx.num_tickets = 2
            return ctx

        serving.tls_context = with_tickets
    client_ctx = ssl.create_default_context(cafile=str(cert))
    failures, slowest, done = 0, 0.0, 0
    with tempfile.TemporaryDirectory() as data:
        h = serving.start_server_in_thread("127.0.0.1", 0, data, certfile=str(cert), keyfile=str(key))
        try:
            end = time.monotonic() + args.seconds
            while done < args.openings and time.monotonic() < end:
                done += 1
                start = time.monotonic()
                try:
                    with connect(h.url, ssl=client_ctx, open_timeout=3, proxy=None) as ws:
                        ws.send(json.dumps({"type": "hello", "version": 1, "name": "Tee"}))
                        ws.recv(timeout=3)
                except Exception as e:  # noqa: BLE001 - the bench counts every way an opening fails
                    failures += 1
                    print(f"opening {done}: {type(e).__name__}: {e}", flush=True)
                slowest = max(slowest, time.monotonic() - start)
        finally:
            h.stop(timeout=10)
    tickets = "with session tickets" if args.tickets else "without session tickets"
    print(f"{done} openings {tickets}: {failures} failed, slowest {slowest:.3f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
