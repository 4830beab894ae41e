"""Websocket test helpers shared by the apps' consumer tests."""

from __future__ import annotations

from typing import Any

WAIT = 10  # seconds; generous, as the suite runs these beside busy workers


async def refusal_code(ws: Any) -> int | None:
    """The close code a socket is refused with (live/realtime.py `refuse`). The handshake
    must be accepted and the socket closed at once with nothing sent before: refused at the
    handshake, a browser sees only a failed connection (1006), never the code."""
    connected, _ = await ws.connect(timeout=WAIT)
    assert connected, "refused at the handshake: a browser would not see the close code"
    output = await ws.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close", output
    return output.get("code")
