"""Issue 42 at the web page's boundary: whatever a request carries (in its query, form, path or
headers), the page answers a refusal, never a 500, and a refused change changes nothing and
keeps what was typed. The app runs in this process (benchmarks/notebook_fuzz.py's Browser)."""

from __future__ import annotations

import html
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

import markupsafe
import pytest

import engines
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines
from tests import benchmark_scripts

pytest.importorskip("starlette", reason="the web extra is not installed")
fuzz = benchmark_scripts.load("notebook_fuzz", "notebook_fuzz")

UNICODE_DIGITS = ("²", "¹", "①", "\uff13", "٣", "\u07c0")
"""Characters `str.isdigit()` calls digits: int() refuses the first three, and reads the
others (fullwidth, Arabic-Indic, N'Ko), which no form of the page sends either."""
LINE = "this is no entry"


def blue_lion_lines() -> list[str]:
    game = engines.make("blue-lion")
    return typed_lines(game, game.random_game(3).information_set(game.seats[0]))


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
    ([("game", "alibi"), ("players", "9" * 99), ("seat", "0"), ("name", "t")], 400, "players"),
    # more digits than int() reads (4300): json.loads raised a bare ValueError (found by the fuzz)
    ([("game", "alibi"), ("players", "9" * 5000), ("seat", "0"), ("name", "t")], 413, "too long"),
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


# --- the parameter fuzz: every route, hostile values, a valid token ---------------------------
FUZZ_REQUESTS = 400
HOSTILE = ("", " ", "0", "-1", "+1", "1.0", "1e3", "1e999", "0x1", " 1", "1 ", "NaN", "null",
           "true", "[]", "{}", "99999999999999999999", "1" * 5000, *UNICODE_DIGITS, "\x00",
           "a\x00b", "\x01\x1b[31m", "\r\n", "\u202e", "\ufffd", "é" * 60, "x" * 101, "x" * 2001,
           "<b>&amp;\"'", "../..", ".hidden", "%00")  # fmt: skip
ALPHABET = "0123456789 -+.,:abcxyzKQ²①\uff13٣\x00\x07\x1b\r\n\t\u202e\ufffdé中🂡<&\"'%="
RAW = (b"\xff", b"\xc3", b"%ff", b"%c3%28", b"\x00", b"&&", b"=", b"%", b"+")


def fuzz_seed() -> int:
    """A new seed each run, or SLEUTH_FUZZ_SEED's to replay one."""
    return int(os.environ.get("SLEUTH_FUZZ_SEED") or random.SystemRandom().randrange(2**32))


@dataclass
class Hostile:
    """One request of the parameter fuzz; `clean` when the page can read its form (one UTF-8
    form, each key once, from this site), so that a refusal must show the form again."""

    method: str
    path: str
    fields: list[tuple[str, str]]
    body: bytes | None = None
    headers: list[tuple[bytes, bytes]] | None = None
    clean: bool = True


def hostile_value(rng: random.Random, plausible: list[str]) -> str:
    roll = rng.random()
    if roll < 0.35 and plausible:
        return rng.choice(plausible)
    if roll < 0.75:
        return rng.choice(HOSTILE)
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, 30)))


def hostile_request(rng: random.Random, version: int, entries: int, csrf: str) -> Hostile:
    lines = blue_lion_lines()[2:4]
    plausible = {
        "version": [str(version)] * 3 + [str(version - 1)],
        "number": [str(n) for n in range(entries + 2)],
        "text": [*lines, LINE],
        "level": ["facts", "odds", "advice"],
        "game": engines.names(),
        "seat": ["0", "1", "2", "killer", "detective"],
        "players": ["3", "4", "5"],
        "name": ["table", "t.2", "safe"],
        "why": ["1", "2"], "v": [str(version)], "all": ["1"],
        "pick-deal": ["a b c"], "pick-first": ["0"],
    }  # fmt: skip
    kind = rng.choice(["change", "change", "change", "new", "view", "choose", "version", "list"])
    if kind == "change":
        op = rng.choice(["add", "add", "edit", "insert", "delete", "undo", "level", "nope"])
        method, path = "POST", f"/s/safe/{op}"
        keys = ["version", "number", "text", "level"]
    elif kind == "new":
        method, path = "POST", "/new"
        keys = ["game", "seat", "name", "level", "players", "pick-deal"]
    elif kind == "view":
        method, path, keys = "GET", "/s/safe", ["why", "v", "all"]
    elif kind == "choose":
        method, path, keys = "GET", "/new", ["game", "players", "seat", "pick-first"]
    else:
        name = quote(hostile_value(rng, ["safe"]), safe="")
        method, path, keys = "GET", f"/s/{name}" + ("/version" if kind == "version" else ""), []
    fields = [(key, hostile_value(rng, plausible.get(key, []))) for key in keys
              if rng.random() < 0.8]  # fmt: skip
    if method == "POST" and rng.random() < 0.9:
        fields.insert(0, ("csrf", csrf))  # mostly valid, so that the request reaches its handler
    if rng.random() < 0.1:
        fields.append((hostile_value(rng, ["x", "text"]), hostile_value(rng, [])))
    request = Hostile(method, path, fields)
    if method == "GET":
        request.path += "?" + urlencode(fields)
        return request
    if rng.random() < 0.1 and fields:
        fields.append(rng.choice(fields))  # a key sent twice
    request.body = fuzz.form_body(fields)
    if rng.random() < 0.1:
        at = rng.randrange(len(request.body) + 1)
        request.body = request.body[:at] + rng.choice(RAW) + request.body[at:]
    length = str(len(request.body)).encode()
    if rng.random() < 0.05:
        length = hostile_value(rng, []).encode("utf-8")
    request.headers = [(b"content-length", length)]
    if rng.random() < 0.05:
        request.headers.append((b"origin", rng.choice([b"http://evil.example", b"null", b"\xff"])))
    readable = fuzz.form_body(fields) == request.body and length == str(len(request.body)).encode()
    request.clean = readable and len(dict(fields)) == len(fields) and request.headers[1:] == []
    return request


def test_hostile_parameters_on_every_route_get_a_refusal_and_change_nothing(
    browser, tmp_path: Path
) -> None:
    seed = fuzz_seed()
    rng = random.Random(seed)
    before = stored(tmp_path)
    statuses: Counter[int] = Counter()
    for number in range(FUZZ_REQUESTS):
        request = hostile_request(rng, before[0], len(before[1]), browser.csrf)
        replay = f"SLEUTH_FUZZ_SEED={seed} replays; request {number}: {request!s:.3000}"
        if request.method == "GET":
            reply = browser.get(request.path)
        else:
            assert request.body is not None
            reply = browser.post(request.path, request.body, request.headers)
        statuses[reply.status] += 1
        assert reply.status < 500, f"{replay}\n{reply.text[-2000:]}"
        now = stored(tmp_path)
        if request.path.startswith("/s/safe/") and reply.status != 303:
            assert now == before, f"a refused change changed the session: {replay}"
        assert "Traceback" not in reply.text, replay
        if request.method == "POST" and reply.status != 303 and request.clean:
            refused_with_the_form(request, reply.text, replay)
        before = now
    assert statuses[303] > 0 and sum(statuses.values()) == FUZZ_REQUESTS, (seed, statuses)


def refused_with_the_form(request: Hostile, page: str, replay: str) -> None:
    """A refused form the page could read is shown again: the message, the text kept."""
    sent = dict(request.fields)
    if request.path == "/new":
        assert "refused: " in page and kept(page, sent.get("name", "")), replay
    elif request.path.rsplit("/", 1)[1] in ("add", "edit", "insert"):
        assert 'id="refused"' in page and kept(page, sent.get("text", "")), replay
    elif not request.path.endswith("/nope"):
        assert 'id="refused"' in page and 'id="entry"' in page, replay


# --- the notebook fuzz (benchmarks/notebook_fuzz.py), a few lines of it ----------------------
FUZZ_LINES = 20


@pytest.mark.parametrize("name", sorted(fuzz.GAMES))
def test_the_notebook_fuzz_finds_nothing_in_a_few_lines(name: str, tmp_path: Path) -> None:
    """Random and mutated lines at a random position of the first seat, through Session.add
    and the page's add: only refusals that change nothing (issue 42's must-show, small)."""
    seed = fuzz_seed()
    seat = engines.make(name, **fuzz.GAMES[name]).seats[0]
    browser = fuzz.Browser(tmp_path)
    try:
        tally = fuzz.Fuzz(name, seat, seed, tmp_path, browser).run(FUZZ_LINES, positions=1)
    finally:
        browser.close()
    replay = f"SLEUTH_FUZZ_SEED={seed} replays (or notebook_fuzz.py --seed {seed} --game {name})"
    assert tally.failures == [], f"{replay}:\n" + "\n".join(tally.failures)
    assert tally.accepted + tally.refused == FUZZ_LINES, replay
    assert sum(tally.web.values()) == FUZZ_LINES and tally.web[303] == tally.accepted, replay


def test_the_notebook_fuzz_counts_a_crash_and_a_500(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def crash(*args: object) -> None:
        raise KeyError("broken on purpose")

    monkeypatch.setattr(fuzz, "position", lambda *args: fuzz.Position(0, 0, ()))
    monkeypatch.setattr(engines.game_class("blue-lion"), "parse_entry", crash)
    browser = fuzz.Browser(tmp_path)
    try:
        tally = fuzz.Fuzz("blue-lion", "lupin", 0, tmp_path, browser).run(3, positions=1)
    finally:
        browser.close()
    assert (tally.crashes, tally.web[500], len(tally.failures)) == (3, 3, 6)
    assert "KeyError" in tally.failures[0] and "answered 500" in tally.failures[1]
    total = fuzz.table([tally], web=True).splitlines()[-1].split()
    assert total == ["total", "1", "0", "0", "3", "6", "500:3"]  # positions ... web


def test_a_damaged_sessions_file_is_a_503_naming_the_file_and_the_salvage(
    tmp_path: Path,
) -> None:
    session = Session.new("blue-lion", dir=tmp_path, name="safe", entries=blue_lion_lines()[:2])
    session.close()
    database = tmp_path / "sessions.sqlite3"
    with database.open("r+b") as file:
        file.write(b"not SQLite at all")
    browser = fuzz.Browser(tmp_path)
    try:
        answer = browser.get("/s/safe")
    finally:
        browser.close()
    assert answer.status == 503
    assert "is damaged" in answer.text and "--salvage" in answer.text
    assert database.read_bytes().startswith(b"not SQLite at all")  # left as it was found
