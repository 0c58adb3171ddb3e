"""The notebook fuzz (issue 42): random and mutated typed lines through `Session.add`, and
through the web page's add, at real positions of real games; nothing but a refusal may come
back, and a refusal changes nothing.

    python benchmarks/notebook_fuzz.py                      # 10,000 lines per game and seat
    python benchmarks/notebook_fuzz.py --lines 500 --web    # also through the web page's add
    python benchmarks/notebook_fuzz.py --game noir --seed 7 # one game, a seed to replay

For each game (Alibi at 4 players, the others at their defaults) and each seat: sessions at
several positions (the seat's observations of a random game, typed up to a random cut), and
at each the lines of `tests/typed_lines.py` (a line of the real game that the notebook refuses
while the position is typed is a failure: the notebook turned away the truth). A line is
accepted (then undone, so the position stays), refused (a SleuthError; the entries and version
must be as before) or a crash (anything else, kept with what replays it). Through the web
(`--web`), each line is POSTed to the add of the page in this process: any status of 500 or
more is a failure, and a refused add must leave the stored session as it was and show the
page with the text kept.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ is importable

from starlette.applications import Starlette

import engines
from engines import Seat, SleuthError
from engines.values import JsonValue
from sleuth.assist import Session
from sleuth.web.app import MAX_TEXT, create_app
from tests.typed_lines import typed_lines

GAMES: dict[str, dict[str, JsonValue]] = {
    "alibi": {"players": 4},
    "blue-lion": {},
    "city-killer": {},
    "noir": {},
    "serial-killer": {},
}
"""The games fuzzed, with their options."""
POSITIONS = 4
"""Positions per game and seat: the lines are shared among them."""
SCRATCH = Path("/dev/shm")
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
            self.get("/new")  # a page with a form, so with the token
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

        async def send(message: MutableMapping[str, Any]) -> None:
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


def typed_box(page: str) -> str | None:
    """What the add box of a session page holds (None: the page has none)."""
    found = re.search(r'<input id="text" name="text" [^>]*?value="([^"]*)"', page)
    return None if found is None else html.unescape(found[1])


# --- the fuzz -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A session's beginning: the first `cut` lines the seat types of random game `seed`."""

    game_seed: int
    cut: int
    lines: tuple[str, ...]


@dataclass
class Tally:
    """What the lines of one game and seat did; `failures` say how to replay each."""

    game: str
    seat: str
    positions: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: int = 0
    web: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def position(game: engines.Game, seat: Seat, rng: random.Random) -> Position:
    """A random beginning of a random game, as `seat` typed it."""
    seed = rng.randrange(2**32)
    info = game.random_game(seed).information_set(seat)
    lines = tuple(game.observation_text(obs) for obs in info.observations)
    cut = rng.randint(0, len(lines))
    return Position(seed, cut, lines[:cut])


class Fuzz:
    """Lines typed at the positions of one game and seat, through `Session.add` and (with a
    `browser`) the web page's add, tallied."""

    def __init__(
        self, name: str, seat: Seat, seed: int, directory: Path, browser: Browser | None
    ) -> None:
        self.name, self.seat, self.seed = name, seat, seed
        self.game = engines.make(name, **GAMES[name])
        self.directory, self.browser = directory, browser
        self.rng = random.Random(f"{seed}:{name}:{seat}")  # the same with or without --game
        self.tally = Tally(name, str(seat))

    def run(self, lines: int, positions: int) -> Tally:
        for index in range(positions):
            share = lines // positions + (index < lines % positions)
            start = position(self.game, self.seat, self.rng)
            session = self.start(start)
            self.tally.positions += 1
            before = session.information_set().observations
            for line in typed_lines(self.game, self.seat, before, self.rng, share):
                self.type(session, start, line)
            session.close()
        return self.tally

    def start(self, start: Position) -> Session:
        """A session typed to `start`; a line of the real game refused is a failure (the
        position then ends before it)."""
        session = Session.new(self.name, self.seat, dir=self.directory, **GAMES[self.name])
        for number, line in enumerate(start.lines, start=1):
            try:
                session.add(line)
            except SleuthError as error:
                self.tally.failures.append(
                    f"line {number} of random game {start.game_seed} ({line!r}) is refused: "
                    f"{error!s:.300} (seed {self.seed}, {self.name} seat {self.seat!r})"
                )
                break
        return session

    def type(self, session: Session, start: Position, line: str) -> None:
        where = (f"seed {self.seed}, {self.name} seat {self.seat!r}, random game "
                 f"{start.game_seed} typed to line {start.cut}, line {line[:300]!r}")  # fmt: skip
        accepted = self.add(session, line, where)
        if self.browser is not None:
            self.add_on_the_page(session, line, accepted, where)

    def add(self, session: Session, line: str, where: str) -> bool | None:
        """`line` through `Session.add`: whether it was accepted (then undone), None for a
        crash; a refusal must change nothing."""
        before = _snapshot(session)
        try:
            session.add(line)
        except SleuthError:
            self.tally.refused += 1
            if _snapshot(session) != before:
                self.tally.failures.append(f"a refusal changed the session: {where}")
            return False
        except Exception as error:  # what the fuzz is for: anything else is a crash
            self.tally.crashes += 1
            self.tally.failures.append(f"{type(error).__name__}: {error!s:.200} at {where}")
            session.sync()
            return None
        self.tally.accepted += 1
        session.undo()
        if _snapshot(session)[1:] != before[1:]:
            self.tally.failures.append(f"undoing an accepted line did not restore: {where}")
        return True

    def add_on_the_page(
        self, session: Session, line: str, accepted: bool | None, where: str
    ) -> None:
        """`line` through the web page's add: no 500, the same verdict as `Session.add`; a
        refusal stores nothing and shows the page with the line kept."""
        assert self.browser is not None
        version = session.stored_version()
        path = f"/s/{session.name}"
        reply = self.browser.post(f"{path}/add", [("version", str(version)), ("text", line)])
        self.tally.web[reply.status] += 1
        problem = None
        if reply.status >= 500:
            problem = f"the page answered {reply.status} ({reply.text[-300:]})"
        elif reply.status == 303:
            undo = self.browser.post(f"{path}/undo", [("version", str(version + 1))])
            if undo.status != 303:
                problem = f"undoing on the page answered {undo.status}"
            elif accepted is not True:
                problem = "the page accepted a line Session.add refused"
        elif session.stored_version() != version:
            problem = f"the page refused with {reply.status} but stored a change"
        elif accepted and len(line) <= MAX_TEXT:
            problem = f"the page refused ({reply.status}) a line Session.add accepted"
        elif len(line) <= MAX_TEXT and typed_box(reply.text) != line:
            problem = f"the page refused ({reply.status}) without the line in its box"
        if problem is not None:
            self.tally.failures.append(f"web: {problem}: {where}")
        session.sync()


def _snapshot(session: Session) -> tuple[int, list[str], engines.InformationSet]:
    return session.version, [e.text for e in session.entries], session.information_set()


# --- the command ----------------------------------------------------------------------------
def fuzz_game(
    name: str, lines: int, positions: int, seed: int, web: bool, report: Callable[[Tally], None]
) -> list[Tally]:
    """Each seat of game `name`: `lines` lines over `positions` positions, each seat's tally
    `report`ed as it is done. The sessions live in memory where it can (/dev/shm): each
    change is committed to SQLite, and the disk's syncs would be most of the time."""
    tallies = []
    with tempfile.TemporaryDirectory(dir=SCRATCH if SCRATCH.is_dir() else None) as directory:
        browser = Browser(directory) if web else None
        try:
            for seat in engines.make(name, **GAMES[name]).seats:
                fuzz = Fuzz(name, seat, seed, Path(directory), browser)
                tallies.append(fuzz.run(lines, positions))
                report(tallies[-1])
        finally:
            if browser is not None:
                browser.close()
    return tallies


def header(web: bool) -> str:
    head = f"{'game':<14}{'seat':<10}{'positions':>10}{'accepted':>10}{'refused':>10}{'crashes':>9}"
    head += f"{'failures':>10}"
    return head + ("  web statuses" if web else "")


def row(tally: Tally, web: bool) -> str:
    text = f"{tally.game:<14}{tally.seat[:9]:<10}{tally.positions:>10}{tally.accepted:>10}"
    text += f"{tally.refused:>10}{tally.crashes:>9}{len(tally.failures):>10}"
    if web:
        text += "  " + " ".join(f"{status}:{n}" for status, n in sorted(tally.web.items()))
    return text


def total(tallies: Sequence[Tally]) -> Tally:
    summed = Tally("total", "")
    for tally in tallies:
        summed.positions += tally.positions
        summed.accepted += tally.accepted
        summed.refused += tally.refused
        summed.crashes += tally.crashes
        summed.web.update(tally.web)
        summed.failures += tally.failures
    return summed


def table(tallies: Sequence[Tally], web: bool) -> str:
    """One row per game and seat, and the total."""
    return "\n".join([header(web), *(row(t, web) for t in [*tallies, total(tallies)])])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10_000, help="per game and seat")
    parser.add_argument("--positions", type=int, default=POSITIONS, help="per game and seat")
    parser.add_argument("--seed", type=int, default=None, help="default: a new one, printed")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="repeatable")
    parser.add_argument("--web", action="store_true", help="also through the web page's add")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"notebook fuzz: seed {seed}, {args.lines} lines per game and seat over "
          f"{args.positions} positions{', also through the web page' if args.web else ''}",
          flush=True)  # fmt: skip
    started = time.perf_counter()
    print(header(args.web), flush=True)
    tallies = []
    for name in args.game or GAMES:
        tallies += fuzz_game(name, args.lines, args.positions, seed, args.web,
                             lambda tally: print(row(tally, args.web), flush=True))  # fmt: skip
    print(row(total(tallies), args.web))
    failures = [failure for tally in tallies for failure in tally.failures]
    for failure in failures[:50]:
        print(failure)
    if len(failures) > 50:
        print(f"... and {len(failures) - 50} more")
    print(f"{time.perf_counter() - started:.0f} s; replay with --seed {seed}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
