"""The review page of a session (GET /s/{name}/review): each decision of the seat beside the
solver's, the chart of what remained unknown and what became certain. Without a browser, the
app in this process (as tests/test_web_boundaries.py calls it); then each game's page in
Chromium at phone size, screenshots in tests/output/ (git-ignored)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engines
from engines import InvalidInformationSet
from engines.values import JsonValue
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines
from sleuth.web import review_page
from sleuth.web.review_page import chart, ticks
from solver.review import GRADES, review
from tests import benchmark_scripts
from tests.browser import CHROMIUM, OUTPUT, PHONE

pytest.importorskip("starlette", reason="the web extra is not installed")
fuzz = benchmark_scripts.load("notebook_fuzz", "notebook_fuzz")

GAMES: dict[str, tuple[dict[str, JsonValue], int]] = {
    "alibi": ({"players": 3}, 1),
    "blue-lion": ({}, 1),
    "city-killer": ({}, 1),
    "noir": ({}, 1),
    "serial-killer": ({}, 1),
}
"""Each game's options and the seed of a short random game whose first seat is reviewed."""


def session_of(directory: Path, name: str, upto: int | None = None) -> str:
    """A session of game `name`'s first seat, its GAMES game typed in (the first `upto`
    lines); its name."""
    options, seed = GAMES[name]
    game = engines.make(name, **options)
    seat = game.seats[0]
    lines = typed_lines(game, game.random_game(seed).information_set(seat))
    session = Session.new(name, seat, dir=directory, name=name, entries=lines[:upto], **options)
    session.close()
    return name


def text_of(page: str) -> str:
    """A page's words, without its tags."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[object]:
    browser = fuzz.Browser(tmp_path)
    yield browser
    browser.close()


# --- the page, without a browser ----------------------------------------------------------
def test_a_typed_game_is_reviewed_with_its_grades(app, tmp_path: Path) -> None:
    name = session_of(tmp_path, "blue-lion")
    reply = app.get(f"/s/{name}/review")
    assert reply.status == 200, reply.text
    graded = re.findall(r"rv-g-(\w+)\">\w+</span></summary>", reply.text)
    assert graded and set(graded) <= set(GRADES)
    assert "accuracy" in text_of(reply.text)
    assert '<svg viewBox="0 0 ' in reply.text
    assert reply.text.count('class="rv-decision"') == len(graded)
    assert 'href="/s/blue-lion"' in reply.text  # back to the session
    assert 'href="/s/blue-lion/review"' in app.get(f"/s/{name}").text  # and from it


def test_an_unknown_session_is_the_usual_not_found_page(app) -> None:
    reply = app.get("/s/nobody/review")
    assert reply.status == 404
    assert "Not found" in reply.text and "nobody" in text_of(reply.text)


@pytest.mark.parametrize("upto", [0, 3, 7])
def test_a_session_without_moves_has_nothing_to_review_yet(app, tmp_path: Path, upto) -> None:
    """No entries, the start not complete yet (3 lines), the start complete but no move of the
    seat yet (7 lines: Blue Lion's setup)."""
    name = session_of(tmp_path, "blue-lion", upto)
    reply = app.get(f"/s/{name}/review")
    assert reply.status == 200
    assert "Nothing to review yet" in text_of(reply.text)
    assert "rv-decision" not in reply.text


def test_a_session_waiting_for_an_entry_is_reviewed_up_to_there(app, tmp_path: Path) -> None:
    """Blue Lion's record without its last line (the end of the game): the complete
    beginning is reviewed, and the page says how far."""
    name = session_of(tmp_path, "blue-lion", -1)
    reply = app.get(f"/s/{name}/review")
    assert reply.status == 200
    said = re.search(r"Reviewed entries 1 to (\d+) of (\d+)", text_of(reply.text))
    assert said is not None and int(said[1]) < int(said[2])
    assert "rv-decision" in reply.text


def test_a_review_refused_is_a_message_on_the_page(app, tmp_path: Path, monkeypatch) -> None:
    """A SleuthError of the review (here a planted one) is said on the page, never a 500."""

    def refuse(record: str, seat: object) -> None:
        raise InvalidInformationSet("observation 9 records no move of this game")

    name = session_of(tmp_path, "blue-lion")
    monkeypatch.setattr(review_page, "reviewed", refuse)
    reply = app.get(f"/s/{name}/review")
    assert reply.status == 200
    assert "cannot be reviewed: observation 9 records no move" in text_of(reply.text)


def test_the_chart_lays_out_every_decision_inside_its_frame(tmp_path: Path) -> None:
    session = Session.open(session_of(tmp_path, "noir"), tmp_path)
    try:
        found = review(session.information_set(), session.seat)
    finally:
        session.close()
    drawn = chart(found.decisions)
    assert drawn is not None and len(drawn["dots"]) == len(found.decisions)
    for dot in drawn["dots"]:
        assert drawn["left"] <= dot["x"] <= drawn["right"]
        assert drawn["top"] <= dot["y"] <= drawn["bottom"]
    assert chart(()) is None
    assert ticks(0, 18) == [0, 5, 10, 15, 20] and ticks(0, 188)[-1] == 200 and ticks(5, 5) == [5]


# --- each game's page in Chromium at phone size -----------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`sleuth serve` over a session of each game, typed in before it starts: a session
    stored by this process while the server runs can leave the server's SQLite unable to open
    the file ("disk I/O error": `check_file` opens and closes the database file in the
    server's process, which drops its SQLite locks)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set SLEUTH_CHROMIUM)")
    from tests.test_web import Server

    directory = tmp_path_factory.mktemp("reviews")
    for name in GAMES:
        session_of(directory, name)
    server = Server(directory)
    yield server
    assert "Traceback" not in server.stop()


@pytest.mark.parametrize("name", list(GAMES))
def test_each_games_review_fits_a_phone_and_opens_a_decision(served, phone, name) -> None:
    """From the session page to its review and back; the review as wide as the phone, its
    chart shown, a graded decision's alternatives shown when tapped."""
    page = phone.new_page()
    page.goto(f"{served.url}/s/{name}")
    assert page.locator("#review-link").count() == 1, page.content()[-3000:]
    with page.expect_navigation():
        page.click("#review-link")
    assert page.url.endswith(f"/s/{name}/review")
    inner = page.evaluate("window.innerWidth")
    assert inner == PHONE["width"]
    _fits(page, name)
    svg = page.locator("#rv-chart svg")
    assert svg.is_visible()
    box = svg.bounding_box()
    assert box is not None and 0 < box["width"] <= inner and box["height"] > 100
    shots = [_output(f"review-{name}.png")]
    page.screenshot(path=str(shots[0]))
    graded = page.locator(".rv-decision:has(summary .rv-grade:not(.rv-g-none))").first
    alternatives = graded.locator(".rv-alts")
    assert not alternatives.is_visible()
    graded.locator("summary").click()
    assert alternatives.is_visible() and alternatives.locator("li").count() >= 1
    _fits(page, name)
    shots += [_output(f"review-{name}-open.png"), _output(f"review-{name}-full.png")]
    page.screenshot(path=str(shots[1]))
    page.screenshot(path=str(shots[2]), full_page=True)
    print(*shots, sep="\n")
    with page.expect_navigation():
        page.click("#rv-back")
    assert page.url.endswith(f"/s/{name}")


def _fits(page, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"{name}: the review is {width}px wide on a {inner}px phone"


def _output(name: str) -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT / name
