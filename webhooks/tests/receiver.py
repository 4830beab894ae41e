"""A webhook receiver for the tests: an HTTP server on 127.0.0.1 in a thread, answering each
request as it is told (a status, a pause first, a redirect) and keeping what it received."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    status: int = 200
    pause: float = 0.0
    body: str = "ok"
    location: str = ""


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    answers: list[Answer] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start() -> Receiver:
    holder: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            receiver = holder["r"]
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            receiver.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            answer = receiver.answers.pop(0) if receiver.answers else Answer()
            if answer.pause:
                time.sleep(answer.pause)
            try:
                self.send_response(answer.status)
                if answer.location:
                    self.send_header("Location", answer.location)
                data = answer.body.encode()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the sender gave up waiting

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver = Receiver(server)
    holder["r"] = receiver
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return receiver
