"""Issue 42 at the web page's boundary: whatever a request carries (in its query, form, path or
headers), the page answers a refusal, never a 500, and a refused change changes nothing and
keeps what was typed. The app runs in this process (benchmarks/notebook_fuzz.py's Browser)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import markupsafe
import pytest

import engines
from sleuth.assist import Session
from sleuth.assist.transcribe import random_game, typed_lines
from tests import benchmark_scripts

pytest.importorskip("starlette", reason="the web extra is not installed")
fuzz = benchmark_scripts.load("notebook_fuzz", "notebook_fuzz")

UNICODE_DIGITS = ("²", "¹", "①", "\uff13", "٣", "\u07c0")
"""Characters `str.isdigit()` calls digits: int() refuses the first three, and reads the
others (fullwidth, Arabic-Indic, N'Ko), which no form of the page sends either."""
LINE = "this is no entry"


def blue_lion_lines() -> list[str]:
    game = engines.make("blue-lion")
    return typed_lines(game, random_game(game, 3).information_set(game.seats[0]))


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    """The page over one session, "safe", of two entries."""
    session = Session.new("blue-lion", dir=tmp_path, name="safe", entries=blue_lion_lines()[:2])
    session.close()
    browser = fuzz.Browser(tmp_path)
    assert browser.get("/s/safe").status == 200
    yield browser
    browser.close()


def stored(tmp_path: Path) -> tuple[int, list[str]]:
    session = Session.open("safe", tmp_path)
    try:
        return session.version, [entry.text for entry in session.entries]
    finally:
        session.close()


def kept(page: str, text: str) -> bool:
    """Whether `text` is the value of an input of `page` (as the template escapes it)."""
    return f'value="{markupsafe.escape(text)}"' in page


# --- finding 7: a digit that int() does not read -------------------------------------------
@pytest.mark.parametrize("why", UNICODE_DIGITS)
def test_finding_7_a_unicode_digit_asking_why_shows_the_page(browser, why: str) -> None:
    reply = browser.get("/s/safe?" + urlencode({"why": why, "v": 2}))
    assert reply.status == 200, reply.text[:300]
    assert 'id="log"' in reply.text


@pytest.mark.parametrize("op", ["delete", "edit", "insert"])
@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_finding_7_a_unicode_digit_entry_number_is_refused_with_the_form(
    browser, tmp_path: Path, op: str, number: str
) -> None:
    before = stored(tmp_path)
    reply = browser.post(f"/s/safe/{op}", [("version", "2"), ("number", number), ("text", LINE)])
    assert reply.status == 400, reply.text[:300]
    assert "expected an entry number from 1 to" in reply.text and 'id="refused"' in reply.text
    assert op == "delete" or kept(reply.text, LINE)
    assert stored(tmp_path) == before


@pytest.mark.parametrize("length", ["²", "¹", "1" * 5000, "-1", "", "0x10"])
def test_finding_7_a_content_length_that_is_no_number_is_refused(browser, length: str) -> None:
    headers = [(b"content-length", length.encode("latin-1", "replace"))]
    reply = browser.post("/s/safe/add", [("version", "2"), ("text", LINE)], headers)
    assert reply.status == 400 and "Content-Length" in reply.text, reply.text[:300]
