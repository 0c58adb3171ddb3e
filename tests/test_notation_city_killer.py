"""City Killer's typed notation: lines a person at the table types (`ask Vera height:tall`,
`Vera answered yes`, `murder Oleg at 2,3`), every observation of both seats typed and read back
exactly, what the record implies left out, typos answered with "did you mean", and a record
that stops while someone still owes it an observation waiting, not wrong."""

from __future__ import annotations

import random

import pytest

import engines
from engines import IncompleteInformationSet, InformationSet, InvalidObservation, Observation
from engines.city_killer import DETECTIVE, KILLER, CityKiller
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines
from solver.validation import validate
from tests.test_city_killer_engine import random_game as random_config

GAME = engines.make("city-killer")
assert isinstance(GAME, CityKiller)


def setup_line(seed: int = 2) -> tuple[str, tuple[str, ...]]:
    setup = GAME.new_game(seed).information_set(DETECTIVE).observations[0]
    return GAME.observation_text(setup), setup["residents"]


def read(lines: list[str], seat: str = DETECTIVE) -> list[Observation]:
    seen: list[Observation] = []
    for line in lines:
        seen.extend(GAME.parse_entry(line, seat, seen))
    return seen


def test_every_observation_of_both_seats_reads_back_under_random_options() -> None:
    kinds = set()
    for seed in range(24):
        rng = random.Random(seed)
        game = random_config(rng)
        state = game.random_game(seed)
        for seat in game.seats:
            seen: list[Observation] = []
            for obs in state.information_set(seat).observations:
                text = game.observation_text(obs)
                assert game.parse_entry(text, seat, seen) == (obs,), text
                assert "=" not in text and '"' not in text, text  # words, not JSON
                seen.append(obs)
                kinds.add(obs.kind)
    assert len(kinds) >= 36, sorted(kinds)


def test_a_detectives_notebook_reads_like_the_table_talk() -> None:
    setup, names = setup_line()
    vera, oleg, ivan = names[:3]
    lines = [
        setup,
        f"ask {vera} height:tall",
        f"{vera.lower()} answered yes",
        f"ask {oleg[:4]} old via diner",
        f"{oleg} answered nothing",
        f"murder {ivan} at 2,3 alone",
        "refusal",
        f"watched {vera} at 1,1 intimidated no",
        f"murder {oleg} at 4,4",
    ]
    obs = read(lines)
    answer = obs[2]
    assert (answer.kind, answer["name"], answer["attr"], answer["value"], answer["answer"]) == (
        "answer", vera, "height", "tall", True,
    )  # fmt: skip
    assert obs[3]["source"] == "diner" and obs[4]["source"] == "diner"
    assert obs[4]["answer"] is None and (obs[4]["attr"], obs[4]["value"]) == ("age", "old")
    murder = obs[5]
    assert (murder["scene"], murder["round"], murder["alone"], murder["history"]) == (
        1, 1, True, (),
    )  # fmt: skip
    assert (obs[6]["round"], obs[6]["count"]) == (2, 1)
    assert obs[7]["history"] == (ivan,) and obs[7]["intimidated"] and not obs[7]["answer"]
    assert (obs[8]["scene"], obs[8]["round"], obs[8]["history"]) == (2, 3, (ivan,))
    info = InformationSet(GAME.name, GAME.option_items(), DETECTIVE, tuple(obs))
    assert validate(info) is info


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("murdr {0} at 2,3", "did you mean murder"),
        ("{1}x answered yes", "did you mean"),
        ("ask {0} talll", "did you mean tall"),
        ("ask {0} medium", "build:medium or height:medium"),
        ("{0} answered yes", "no question to"),
        ("murder {0} at 5,5", "not a district"),
        ("played cordn 3,1", "did you mean cordon"),
        ("secrets {0} figurant none motive maniac tokens law crime press", "does not see"),
        ("murder {0}", "expected 'at' at word 2: murder NAME at R,C"),
        ("under", "cut short"),
    ],
)
def test_a_bad_line_gets_one_clear_line(line: str, message: str) -> None:
    setup, names = setup_line()
    before = read([setup])
    with pytest.raises(InvalidObservation, match=message):
        GAME.parse_entry(line.format(*names), DETECTIVE, before)


def test_help_lists_every_form_and_the_words_complete() -> None:
    forms = " ".join(form for form, _ in GAME.notation_help())
    for word in ("ask", "answered", "murder", "watched", "played", "secrets", "end"):
        assert word in forms
    assert {"ask", "murder", "height:tall", "cordon"} <= set(GAME.notation_words())


def test_a_record_stopping_where_another_seat_owes_it_waits() -> None:
    setup, names = setup_line()
    vera = names[0]
    asked = read([setup, f"ask {vera} height:tall"])
    detective = InformationSet(GAME.name, GAME.option_items(), DETECTIVE, tuple(asked))
    with pytest.raises(IncompleteInformationSet) as waiting:
        validate(detective)
    assert waiting.value.waiting_for == f"{vera}'s answer"
    secrets = f"secrets {names[1]} figurant {names[2]} motive maniac tokens law crime press"
    killer = read([setup, secrets, f"ask {vera} height:tall"], KILLER)
    validate(InformationSet(GAME.name, GAME.option_items(), KILLER, tuple(killer)))  # his move
    murdered = read([setup, secrets, f"murder {vera} at 1,1"], KILLER)
    with pytest.raises(IncompleteInformationSet, match="cards under scene 1"):
        validate(InformationSet(GAME.name, GAME.option_items(), KILLER, tuple(murdered)))


def test_a_typed_game_in_a_session_is_the_engines_record(tmp_path) -> None:
    info = GAME.random_game(3).information_set(DETECTIVE)
    session = Session.new("city-killer", DETECTIVE, dir=tmp_path)
    try:
        for line in typed_lines(GAME, info):
            session.add(line)
        assert session.information_set() == info
        assert session.reading().status == "ok"
    finally:
        session.close()
