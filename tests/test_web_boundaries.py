"""Issue 42 at the web page's boundary: whatever a request carries (in its query, form, path or
headers), the page answers a refusal, never a 500, and a refused change changes nothing and
keeps what was typed. The app runs in this process (benchmarks/notebook_fuzz.py's Browser)."""

from __future__ import annotations

import html
import re
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


def typed_box(page: str) -> str | None:
    """What the add box of a session page holds."""
    found = re.search(r'<input id="text" name="text" [^>]*?value="([^"]*)"', page)
    return None if found is None else html.unescape(found[1])


def entry_box(page: str, number: int, op: str) -> tuple[bool, str | None]:
    """Whether entry `number`'s change forms are open, and what its `op` box holds."""
    item = re.search(rf'<li id="e{number}"[^>]*>(.*?)</li>', page, re.DOTALL)
    assert item is not None, f"no entry {number} on the page"
    box = re.search(
        rf'action="/s/[^/]+/{op}"[^>]*>\n.*\n.*\n<input name="text" [^>]*?value="([^"]*)"', item[1]
    )
    return "<details open>" in item[1], None if box is None else html.unescape(box[1])


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


# --- every refusal: the page again, the text kept, the message shown ------------------------
REFUSED_CHANGES = [
    # (op, fields besides the CSRF token, status, where the text is kept, a word of the message)
    ("add", [("version", "2"), ("text", LINE)], 400, "add", ""),
    ("add", [("version", "1"), ("text", LINE)], 409, "add", "out of date"),
    ("add", [("text", LINE)], 409, "add", "out of date"),
    ("add", [("version", "2"), ("text", "x" * 2001)], 413, "add", "too long"),
    ("edit", [("version", "2"), ("number", "1"), ("text", LINE)], 400, "edit", ""),
    ("edit", [("version", "1"), ("number", "2"), ("text", LINE)], 409, "edit", "out of date"),
    ("edit", [("version", "2"), ("number", "99"), ("text", LINE)], 400, "add", "no entry 99"),
    ("edit", [("version", "2"), ("number", "-1"), ("text", LINE)], 400, "add", "entry number"),
    ("edit", [("version", "2"), ("text", LINE)], 400, "add", "entry number"),
    ("insert", [("version", "2"), ("number", "2"), ("text", LINE)], 400, "insert", ""),
    ("insert", [("version", "2"), ("number", "0"), ("text", LINE)], 400, "add", ""),
    ("insert", [("version", "2"), ("number", "1" * 40), ("text", LINE)], 400, "add", "number"),
    ("delete", [("version", "2"), ("number", "99")], 400, None, "no entry 99"),
    ("delete", [("version", "2"), ("number", "")], 400, None, "entry number"),
    ("delete", [("version", "3"), ("number", "1")], 409, None, "out of date"),
    ("undo", [("version", "1")], 409, None, "out of date"),
    ("level", [("level", "all of them")], 400, None, "the levels are"),
    ("level", [], 400, None, "the levels are"),
]


@pytest.mark.parametrize(("op", "fields", "status", "kept_in", "message"), REFUSED_CHANGES)
def test_a_refused_change_shows_the_page_with_the_text_and_the_message(
    browser, tmp_path: Path, op: str, fields: list, status: int, kept_in: str | None, message: str
) -> None:
    before = stored(tmp_path)
    reply = browser.post(f"/s/safe/{op}", fields)
    assert reply.status == status, reply.text[:300]
    assert 'id="refused"' in reply.text and message in reply.text
    assert 'id="entry"' in reply.text and 'id="log"' in reply.text  # the whole page, its forms
    sent = dict(fields)
    if kept_in == "add":
        assert typed_box(reply.text) == sent["text"]
    elif kept_in is not None:
        assert entry_box(reply.text, int(sent["number"]), kept_in) == (True, sent["text"])
    assert stored(tmp_path) == before


NEW_SESSIONS = [
    ([("game", "alibi"), ("players", "5"), ("seat", "9"), ("name", "table.2")], 400, "no seat"),
    ([("game", "noir"), ("seat", "killer"), ("name", "../up")], 400, "not a session name"),
    ([("game", "noir"), ("seat", "killer"), ("name", "safe")], 400, "already a session"),
    ([("game", "alibi"), ("players", "²"), ("seat", "0"), ("name", "t")], 400, "players"),
    ([("game", "alibi"), ("players", "1e999"), ("seat", "0"), ("name", "t")], 400, "players"),
]


@pytest.mark.parametrize(("fields", "status", "message"), NEW_SESSIONS)
def test_a_refused_new_session_shows_the_form_with_what_was_chosen(
    browser, tmp_path: Path, fields: list, status: int, message: str
) -> None:
    reply = browser.post("/new", [*fields, ("level", "advice")])
    assert reply.status == status, reply.text[:300]
    assert "refused: " in reply.text and message in reply.text
    sent = dict(fields)
    assert re.search(rf'<input name="name" value="{re.escape(sent["name"])}"', reply.text)
    assert 'value="advice" checked' in reply.text and 'id="create"' in reply.text
    if "players" in sent:
        assert kept(reply.text, sent["players"])
    assert [record.name for record in Session.stored(tmp_path)] == ["safe"]


def test_a_change_without_the_csrf_token_shows_the_page_with_the_text(
    browser, tmp_path: Path
) -> None:
    """A page from before the server restarted: its token is gone, its text is not."""
    before = stored(tmp_path)
    body = fuzz.form_body([("version", "2"), ("text", LINE), ("csrf", "from-before")])
    reply = browser.post("/s/safe/add", body)
    assert reply.status == 403 and "before the server restarted" in reply.text
    assert typed_box(reply.text) == LINE and stored(tmp_path) == before
    reply = browser.post("/new", body + b"&game=noir&seat=killer&name=later")
    assert reply.status == 403 and 'value="later"' in reply.text
    assert [record.name for record in Session.stored(tmp_path)] == ["safe"]


def test_a_change_from_another_site_gets_nothing_but_the_refusal(browser, tmp_path: Path) -> None:
    before = stored(tmp_path)
    body = fuzz.form_body([("csrf", browser.csrf), ("version", "2"), ("text", LINE)])
    headers = [(b"content-length", str(len(body)).encode()), (b"origin", b"http://evil.example")]
    reply = browser.post("/s/safe/add", body, headers)
    assert reply.status == 403 and "another site" in reply.text
    assert browser.csrf not in reply.text and LINE not in reply.text
    assert stored(tmp_path) == before
