"""The notebook fuzz (issue 42): random and mutated typed lines through `Session.add`, and
through the web page's add, at real positions of real games; nothing but a refusal may come
back, and a refusal changes nothing.

    python benchmarks/notebook_fuzz.py                      # 10,000 lines per game and seat
    python benchmarks/notebook_fuzz.py --lines 500 --web    # also through the web page's add
    python benchmarks/notebook_fuzz.py --game noir --seed 7 # one game, a seed to replay

For each game (Alibi at 4 players, the others at their defaults) and each seat: sessions at
several positions (the seat's observations of a random game, typed up to a random cut), and
at each the lines of `tests/typed_lines.py`. A line is accepted (then undone, so the position
stays), refused (a SleuthError; the entries and version must be as before) or a crash
(anything else, kept with what replays it). Through the web (`--web`), each line is POSTed
to the add of the page in this process: any status of 500 or more is a failure, and a refused
add must leave the stored session as it was and show the page with the text kept.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette

from sleuth.web.app import create_app

Field = tuple[str, str]


@dataclass(frozen=True)
class Reply:
    """What the app answered: the status, and the page's text."""

    status: int
    text: str


class Browser:
    """The web app in this process, called as a browser on 127.0.0.1 would (no network): it
    reads the CSRF token off the first page, and sends forms as given, bytes and all.

    An error Starlette raises again after answering 500 (it does so for the server's log) is
    caught and answered as that 500, with the error's repr as the text."""

    def __init__(self, directory: Path | str, token: str | None = None) -> None:
        self.app: Starlette = create_app(directory, token)
        self.loop = asyncio.new_event_loop()
        self.headers: list[tuple[bytes, bytes]] = []
        self.csrf = ""

    def close(self) -> None:
        self.loop.close()

    def get(self, path: str, headers: Sequence[tuple[bytes, bytes]] = ()) -> Reply:
        reply = self.call("GET", path, b"", headers)
        found = re.search(r'name="csrf" value="([^"]+)"', reply.text)
        if found:
            self.csrf = found[1]
        return reply

    def post(
        self,
        path: str,
        fields: Sequence[Field] | bytes,
        headers: Sequence[tuple[bytes, bytes]] | None = None,
    ) -> Reply:
        """POST `fields` (with this page's CSRF token first), or `bytes` as the whole body;
        `headers` replace the Content-Length this would send."""
        if not self.csrf:
            self.get("/")
        body = fields if isinstance(fields, bytes) else form_body([("csrf", self.csrf), *fields])
        length = [(b"content-length", str(len(body)).encode())]
        return self.call("POST", path, body, length if headers is None else headers)

    def call(
        self, method: str, path: str, body: bytes, headers: Sequence[tuple[bytes, bytes]]
    ) -> Reply:
        return self.loop.run_until_complete(self._call(method, path, body, headers))

    async def _call(
        self, method: str, path: str, body: bytes, headers: Sequence[tuple[bytes, bytes]]
    ) -> Reply:
        path, _, query = path.partition("?")
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "", "server": ("127.0.0.1", 8765),
            "client": ("127.0.0.1", 50000),
            "headers": [(b"host", b"127.0.0.1:8765"),
                        (b"content-type", b"application/x-www-form-urlencoded"),
                        *self.headers, *headers],
        }  # fmt: skip
        sent = False
        status, chunks = 0, []

        async def receive() -> dict:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)  # no disconnect while the app answers
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception as error:  # raised again after the 500 page: that page is the answer
            return Reply(500, repr(error))
        return Reply(status, b"".join(chunks).decode("utf-8", "replace"))


def form_body(fields: Sequence[Field]) -> bytes:
    """A form as a browser encodes it (UTF-8, each pair in order; a key may repeat)."""
    return urlencode(list(fields)).encode()
