"""Server-side time of adding an entry in `sleuth serve` against the session core's own
refresh, entry by entry over whole recorded games (issue 15).

    python benchmarks/web.py                  # 4-player Alibi, seat 0, recorded game seed 1
    python benchmarks/web.py --seeds 1 2 3    # more recorded games
    python benchmarks/web.py --entries 20     # only the first 20 lines (a quick look)
Last, the cost of the live refresh: 100 GETs of the version endpoint each open page polls.

Each time is given as wall time and as CPU time (`time.process_time()`, this process: the
app's worker thread and the event loop both count), since the machine is shared.

For every line of the recorded game, with the solver's memory cleared before each timing:
- core: `session.add(line)`, then `reading()`, `hints()` and the board's data (what the
  terminal front end computes after an entry);
- web: the POST that adds it (CSRF and version checked, stored) and the GET of the page it
  redirects to (rendered HTML), called on the ASGI app in this process, so no network or
  browser time is counted.
The two run on separate sessions typed with the same lines, alternating line by line, so
the load of the machine reaches both alike; the spread of the per-entry differences (p10 and
p90) is that noise, since both compute the same deductions. So the web's own share is also
measured inside each web request, free of that noise: its time minus the time spent in the
session core's calls (add, reading, hints) and the board's views.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from assist import fresh_solver  # benchmarks/assist.py

import engines
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines
from sleuth.web import pages
from sleuth.web.app import create_app
from sleuth.web.boards import board


async def call(app, method: str, path: str, body: bytes = b"") -> tuple[int, str, dict]:
    """One request straight to the ASGI app: (status, body text, headers)."""
    path, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
        "root_path": "", "server": ("127.0.0.1", 8765), "client": ("127.0.0.1", 50000),
        "headers": [(b"host", b"127.0.0.1:8765"),
                    (b"content-type", b"application/x-www-form-urlencoded"),
                    (b"content-length", str(len(body)).encode())],
    }  # fmt: skip
    sent = False
    status, chunks, headers = 0, [], {}

    async def receive() -> dict:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            headers.update({k.decode(): v.decode() for k, v in message["headers"]})
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks).decode(), headers


class CoreClock:
    """Seconds (wall and CPU) spent inside the session core's calls and the board's views."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.cpu = 0.0
        self.depth = 0

    def wrap(self, owner: object, name: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args, **kwargs):
            self.depth += 1
            start, cpu = time.perf_counter(), time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.spent += time.perf_counter() - start
                    self.cpu += time.process_time() - cpu

        setattr(owner, name, timed)


CLOCK = CoreClock()
POLLS: list[Times] = []


Times = tuple[float, float]
"""(wall seconds, CPU seconds)"""


def core_refresh(session: Session, line: str) -> Times:
    fresh_solver()
    start, cpu = time.perf_counter(), time.process_time()
    session.add(line)
    reading = session.reading()
    session.hints()
    if reading.usable is not None:
        board(session.game, reading.usable, reading.deduction, session.level in ("odds", "advice"))
    return time.perf_counter() - start, time.process_time() - cpu


async def web_add(app, name: str, line: str, csrf: str, version: int) -> tuple[Times, Times]:
    """(times of the POST and the page, times of those outside the core and views)."""
    body = urlencode({"csrf": csrf, "version": version, "text": line}).encode()
    fresh_solver()
    CLOCK.spent = CLOCK.cpu = 0.0
    start, cpu = time.perf_counter(), time.process_time()
    status, _, headers = await call(app, "POST", f"/s/{name}/add", body)
    assert status == 303, (status, line)
    status, page, _ = await call(app, "GET", headers["location"].split("#")[0])
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    assert status == 200 and line in page
    return (elapsed, used), (elapsed - CLOCK.spent, used - CLOCK.cpu)


async def measure(
    seed: int, directory: Path, entries: int | None
) -> tuple[list[Times], list[Times], list[Times]]:
    game = engines.make("alibi", players=4)
    lines = typed_lines(game, game.random_game(seed).information_set(0))[:entries]
    core = Session.new("alibi", 0, dir=directory / "core", name=f"core-{seed}", players=4)
    Session.new("alibi", 0, dir=directory / "web", name=f"web-{seed}", players=4).close()
    app = create_app(directory / "web")
    _, page, _ = await call(app, "GET", f"/s/web-{seed}")
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    cores, webs, own = [], [], []
    for version, line in enumerate(lines):
        cores.append(core_refresh(core, line))
        total, outside = await web_add(app, f"web-{seed}", line, found[1], version)
        webs.append(total)
        own.append(outside)
    polls = []
    for _ in range(100):  # what each open page asks every 1.5 s to notice changes elsewhere
        start, cpu = time.perf_counter(), time.process_time()
        status, _, _ = await call(app, "GET", f"/s/web-{seed}/version")
        polls.append((time.perf_counter() - start, time.process_time() - cpu))
        assert status == 200
    POLLS.extend(polls)
    core.close()
    return cores, webs, own


def _ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def _row(label: str, cores: list[float], webs: list[float], own: list[float]) -> str:
    own = sorted(own)
    extra = sorted(w - c for w, c in zip(webs, cores, strict=True))
    core, web = statistics.median(cores), statistics.median(webs)
    return (
        f"| {label} | {_ms(core)} | {_ms(web)} | {_ms(web - core)} "
        f"| {_ms(statistics.median(extra))}, {_ms(extra[int(0.1 * (len(extra) - 1))])}, "
        f"{_ms(extra[int(0.9 * (len(extra) - 1))])} "
        f"| {_ms(statistics.median(own))}, {_ms(own[int(0.9 * (len(own) - 1))])}, "
        f"{_ms(own[-1])} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--entries", type=int, default=None, help="lines typed (default all)")
    args = parser.parse_args(argv)
    print("| recorded game, entries | clock | core refresh median | web add + page median "
          "| difference of medians | per-entry difference: median, p10, p90 "
          "| web's own time per request: median, p90, max |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in ("add", "reading", "hints"):
        CLOCK.wrap(Session, name)
    CLOCK.wrap(pages, "board")
    CLOCK.wrap(pages, "start_board")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            cores, webs, own = asyncio.run(measure(seed, Path(tmp), args.entries))
            label = f"4-player Alibi, seed {seed}, seat 0, {len(cores)}"
            for index, clock in enumerate(("wall", "CPU")):
                print(_row(f"{label} | {clock}", [c[index] for c in cores],
                           [w[index] for w in webs], [o[index] for o in own]))  # fmt: skip
    wall, cpu = (statistics.median(p[i] for p in POLLS) for i in (0, 1))
    print(f"\nthe live refresh's poll (GET /s/NAME/version), median of {len(POLLS)}: "
          f"{_ms(wall)} wall, {_ms(cpu)} CPU")  # fmt: skip


if __name__ == "__main__":
    main()
