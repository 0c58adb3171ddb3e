"""Whole games entered on `sleuth serve` by taps only (issue 43): Chromium at 390x844, games
played by heuristic bots, the seat's record entered entry by entry with the page's chips.

    python benchmarks/web_taps.py                 # 4-player Alibi (seat 0), Noir (both seats)
    python benchmarks/web_taps.py --seed 5
    python benchmarks/web_taps.py --games noir    # only Noir
    python benchmarks/web_taps.py --offline       # the list games, every seat, no browser

For each game: the taps to set it up from a fresh new-session form (the game picked from the
menu; a menu counts two taps: open, pick), then for every entry after the setup the taps of
chips and Add that build it (`tests/test_web_taps.py:tap_line`: each tap the chip whose line
is the longest beginning of the entry, a whole line first). An entry the chips cannot build
would have to be typed: counted in the "typed" column (zero means no typing after the setup).
The stored session is then compared with the engine's record of that seat. Screenshots go to
benchmarks/out/ (git-ignored).

`--offline` walks the same chips without a browser (`taps_offline` on the offer the page is
sent, with the deduction the session makes) over whole games of Blue Lion, City Killer and
Serial Killer (or `--games`), every seat, from the first entry after the setup.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent))  # tests.browser

from test_web_taps import (  # noqa: E402  (tests/test_web_taps.py: the driver)
    SELECT_TAPS,
    Server,
    bot_game,
    grid_of,
    offline_offer,
    set_up_noir,
    tap_line,
    taps_offline,
)

from sleuth.assist import Session  # noqa: E402
from sleuth.assist.transcribe import typed_lines  # noqa: E402
from tests.browser import ARGS, CHROMIUM, PHONE  # noqa: E402

OUT = HERE / "out"


def set_up_alibi(page, url: str, lines: list[str]) -> int:
    """Alibi seat 0 from a fresh form: who dealt, the cards dealt, Start."""
    page.goto(url + "/new")
    dealer, cards = lines[0].split()[1], lines[1].split()[1:]
    with page.expect_navigation():
        page.check(f"input[name=pick-dealer][value='{dealer}']")
    for card in cards:
        page.check(f"input[name='pick-deal:{card}']")
    with page.expect_navigation():
        page.click("#create button[type=submit]")
    return 1 + len(cards) + 1


def enter(page, lines: list[str], first: int, label: str) -> tuple[list[int], list[str]]:
    counts: list[int] = []
    typed: list[str] = []
    for number, line in enumerate(lines[first:], start=first + 1):
        count = tap_line(page, line)
        if count is None:  # the chips cannot build it: typed, as a last resort
            typed.append(line)
            page.fill("#text", line)
            with page.expect_navigation():
                page.click("#entry button[type=submit]")
        else:
            counts.append(count)
        if page.locator("#refused").count():
            raise SystemExit(f"{label}: entry {number} {line!r} refused: "
                             f"{page.inner_text('#refused')}")  # fmt: skip
        if number % 40 == 0:
            page.screenshot(path=str(OUT / f"{label}-{number}.png"))
    page.screenshot(path=str(OUT / f"{label}-end.png"))
    return counts, typed


def run(name: str, seat: object, seed: int, browser, rows: list[list[str]]) -> None:
    options = {"players": 4} if name == "alibi" else {}
    game, state = bot_game(name, seed, **options)
    lines = typed_lines(game, state.information_set(seat))
    label = f"{name}-{seat}"
    with tempfile.TemporaryDirectory() as directory:
        server = Server(Path(directory))
        try:
            context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
            page = context.new_page()
            started = time.perf_counter()
            if name == "alibi":
                setup, first = set_up_alibi(page, server.url, lines), 3
            else:
                grid, secret = grid_of(lines[0]), lines[1].split()[1:]
                setup, first = set_up_noir(page, server.url, str(seat), grid, secret), 2
            page.screenshot(path=str(OUT / f"{label}-first-turn.png"))
            counts, typed = enter(page, lines, first, label)
            seconds = time.perf_counter() - started
            context.close()
        finally:
            err = server.stop()
        assert "Traceback" not in err, err
        stored = Session.open(page.url.rsplit("/", 1)[-1], directory)
        record = state.information_set(seat).observations
        same = stored.information_set().observations[first:] == record[first:]
    kinds = Counter(line.split()[1] if line[0].isdigit() else line.split()[0] for line in typed)
    rows.append([label, str(seed), str(len(lines) - first), str(setup),
                 f"{statistics.median(counts):g}", str(max(counts)),
                 f"{statistics.mean(counts):.2f}", str(len(typed)),
                 "yes" if same else "NO", f"{seconds:.0f}",
                 ", ".join(f"{k} {n}" for k, n in kinds.items()) or "-"])  # fmt: skip
    worst = sorted(zip(counts, [ln for ln in lines[first:] if ln not in typed], strict=False))
    print(f"{label}: the most taps: {worst[-3:]}", flush=True)


SETUP_LINES = {"alibi": 3, "noir": 2, "blue-lion": 7, "city-killer": 6, "serial-killer": 6}
"""The lines of each game's record the new-session form's picks make (or that come before
the first turn), left out of the offline counts."""


def offline(seed: int, games: list[str]) -> None:
    head = ["game", "seat", "entries", "median", "max", "mean", "typed", "offer ms (median, max)"]
    rows = []
    for name in games:
        options = {"players": 4} if name == "alibi" else {}
        game, state = bot_game(name, seed, **options)
        for seat in game.seats:
            info = state.information_set(seat)
            lines = typed_lines(game, info)
            counts, typed, times = [], [], []
            for i in range(SETUP_LINES[name], len(lines)):
                started = time.perf_counter()
                made = offline_offer(game, seat, info.observations[:i])
                times.append(1000 * (time.perf_counter() - started))
                count = taps_offline(made, lines[i])
                if count is None:
                    typed.append(lines[i])
                else:
                    counts.append(count)
            rows.append([name, str(seat), str(len(lines) - SETUP_LINES[name]),
                         f"{statistics.median(counts):g}", str(max(counts)),
                         f"{statistics.mean(counts):.2f}", str(len(typed)),
                         f"{statistics.median(times):.0f}, {max(times):.0f}"])  # fmt: skip
            print(f"{name} {seat}: typed {typed[:4]}", flush=True)
    _table(head, rows)
    print(
        "(offline: the page's chips without a browser; the offer's time includes the "
        "deduction of the record, which the session page has made already)"
    )


def _table(head: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for row in [head, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", help="default: alibi noir (offline: the others)")
    parser.add_argument("--offline", action="store_true", help="no browser")
    args = parser.parse_args()
    if args.offline:
        offline(args.seed, args.games or ["blue-lion", "city-killer", "serial-killer"])
        return
    args.games = args.games or ["alibi", "noir"]
    OUT.mkdir(exist_ok=True)
    from playwright.sync_api import sync_playwright

    plan = [("alibi", 0)] * ("alibi" in args.games)
    plan += [("noir", "inspector"), ("noir", "killer")] * ("noir" in args.games)
    rows: list[list[str]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for name, seat in plan:
            run(name, seat, args.seed, browser, rows)
        browser.close()
    head = ["game-seat", "seed", "entries", "setup taps", "median", "max", "mean", "typed",
            "record equal", "seconds", "typed kinds"]  # fmt: skip
    _table(head, rows)
    print(f"(taps per entry after the setup, chips and Add; a menu is {SELECT_TAPS} taps)")


if __name__ == "__main__":
    main()
