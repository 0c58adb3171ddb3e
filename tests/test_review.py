"""`solver.review` and `sleuth review`: a seat's decisions replayed, valued against the
solver's, graded by the game's thresholds; the records it reads (`Game.decisions`, saved
games) and the errors a caller can cause."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
from pathlib import Path

import pytest

import engines
import solver
from engines import Action, ConfigError, InformationSet, InvalidState, SleuthError, State
from engines.serial_killer import replay
from engines.values import Seat
from sleuth.cli import main
from solver.review import GRADES, Move, Review, lines, review
from solver.search.grading import Grading
from tests.conformance import bots_game

SMALL: dict[str, dict[str, object]] = {
    "blue-lion": {"target": 4},
    "noir": {"grid": 3},
    "serial-killer": {"players": 3, "genres": 4, "traits_per_genre": 4, "start_points": 50},
    "city-killer": {"residents": 8, "pool": 12},
}
"""Small configurations of the games quick enough to play and review whole here (Alibi and
City Killer's own reviews have their own tests)."""
GAMES = tuple(SMALL)


def played(name: str, kinds: dict[int, str], seed: int) -> State:
    """A whole game of `name` (its SMALL configuration) with bot kind kinds[k] in seat k
    (heuristic where unnamed)."""
    return bots_game(engines.make(name, **SMALL[name]), kinds, seed)  # type: ignore[arg-type]


def test_a_grading_grades_by_its_thresholds() -> None:
    grading = Grading("points", 0.5, 1.5, 4.0)
    found = [grading.grade(loss) for loss in (0.0, 1e-12, 0.3, 0.5, 1.0, 4.0, 4.01, 90.0)]
    assert found == ["best", "best", "good", "good", "inaccuracy", "mistake", "blunder", "blunder"]


@pytest.mark.parametrize("name", engines.names())
def test_decisions_replay_every_move_with_what_the_mover_knew(name: str) -> None:
    game = engines.make(name)
    state = game.random_game(seed=4)
    made = game.decisions(state)
    again = game.new_game(seed=4)
    for seat, info, action in made:
        assert again.to_move == seat
        assert again.information_set(seat) == info
        again.apply(action)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("name", engines.names())
def test_decisions_are_what_each_mover_knew_with_explicit_chance_too(name: str) -> None:
    """A state dealt and played with explicit chance (OpenSpiel's way: a chance node per draw,
    mid-action draws included) gives the same decisions as were seen while it was played, and
    so do its clone and its JSON loaded again."""
    game = engines.make(name)
    rng = random.Random(7)
    state = game.initial_state()
    seen: list[tuple[object, InformationSet, Action]] = []
    while not state.is_over and len(seen) < 60:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        mover = state.to_move
        assert mover is not None
        action = rng.choice(state.legal_actions())
        seen.append((mover, state.information_set(mover), action))
        state.apply(action)
    while state.is_chance:  # finish the last action's draws
        state.apply_chance(state.chance_outcomes()[0][0])
    assert game.decisions(state) == seen
    assert game.decisions(state.clone()) == seen
    assert game.decisions(game.state_from_json(state.to_json())) == seen


def test_decisions_refuse_another_games_state_and_a_view() -> None:
    noir = engines.make("noir")
    with pytest.raises(InvalidState, match="not of this game"):
        noir.decisions(engines.make("blue-lion").new_game(seed=1))
    with pytest.raises(InvalidState, match="not of this game"):
        noir.decisions(engines.make("noir", grid=3).new_game(seed=1))
    view = noir.seat_view(noir.random_game(seed=2, moves=4).information_set("killer"))
    with pytest.raises(InvalidState, match="setup"):
        noir.decisions(view)


@pytest.mark.parametrize("name", GAMES)
def test_the_solvers_own_seat_is_graded_best_or_good(name: str) -> None:
    state = played(name, {0: "solver"}, seed=3)
    seat = state.game.seats[0]
    solver.forget()
    found = review(state, seat)
    assert found.graded, "the solver weighed some of its decisions"
    assert found.accuracy is not None and found.accuracy >= 0.9
    assert all(d.loss is not None and d.loss >= 0 for d in found.graded)


@pytest.mark.parametrize("name", GAMES)
def test_a_random_seat_loses_and_each_grade_follows_its_loss(name: str) -> None:
    state = played(name, {1: "random"}, seed=5)
    seat = state.game.seats[1]
    found = review(state, seat)
    assert found.largest(), "a random player gives something away"
    for d in found.graded:
        assert d.loss == pytest.approx(max(d.best_value - (d.value or 0.0), 0.0))
        expected = "best" if d.move == d.best else d.grading.grade(d.loss or 0.0)
        assert d.grade == expected or (d.grade == "best" and d.move == d.best)
        assert d.alternatives and d.alternatives[0].value == max(c.value for c in d.alternatives)
    counts = found.counts()
    assert list(counts) == list(GRADES) and sum(counts.values()) == len(found.graded)
    assert found.relative_loss is not None and found.relative_loss > 0
    assert [number for number, _ in found.curve] == [d.number for d in found.decisions]


def test_a_weaker_player_loses_more_than_the_solver() -> None:
    weak = review(played("noir", {0: "random"}, seed=7), "killer")
    strong = review(played("noir", {0: "solver"}, seed=7), "killer")
    assert (weak.relative_loss or 0) > (strong.relative_loss or 0)
    assert (weak.accuracy or 0) < (strong.accuracy or 1)


def test_decisions_once_the_seat_could_no_longer_win_are_listed_not_graded() -> None:
    state = played("serial-killer", {1: "random"}, seed=0)
    found = review(state, 1)
    made = {k + 1: info for k, (_, info, _) in enumerate(state.game.decisions(state))}
    lost = [d for d in found.decisions if d.lost]
    assert lost, "this random seat's roll fell below ferocity before the end"
    for d in found.decisions:
        view = replay(state.game, made[d.number].observations, 1)
        out_of_reach = view.seq[1] is None and not view.can_reach(1)
        assert d.lost == (out_of_reach and not d.forced)
        if d.lost:
            assert d.grade is None and d.value is None and d.quiet and not d.unvalued
    assert all(d.number < lost[0].number for d in found.graded), "a lost game stays lost"
    text = "\n".join(lines(found))
    assert f"From move {lost[0].number} on the seat could no longer win" in text
    assert f"{len(lost)} decisions there are not graded" in text


def test_the_facts_learned_are_listed_from_the_move_they_became_certain() -> None:
    state = played("noir", {1: "solver"}, seed=2)
    found = review(state, "inspector")
    numbers = [k.number for k in found.known]
    assert numbers == sorted(numbers)
    first = found.decisions[0].number
    assert all(first < n for n in numbers), "what was certain from the start was not learned"
    if state.winners == ("inspector",):
        assert any("killer is" in str(k.fact) for k in found.known)


def test_a_review_is_the_same_for_the_same_record() -> None:
    state = played("noir", {1: "random"}, seed=1)
    first, second = review(state, "inspector"), review(state, "inspector")
    assert first == second


def test_a_list_of_moves_is_a_record_too() -> None:
    state = played("noir", {}, seed=6)
    moves = [Move(info, action) for seat, info, action in state.game.decisions(state)
             if seat == "killer"]  # fmt: skip
    from_moves, from_state = review(moves, "killer"), review(state, "killer")
    assert [d.grade for d in from_moves.decisions] == [d.grade for d in from_state.decisions]


def test_bad_records_say_what_is_wrong() -> None:
    state = played("blue-lion", {}, seed=6)
    with pytest.raises(ConfigError, match="no seat"):
        review(state, "zenigata")
    with pytest.raises(ConfigError, match="a State or a sequence of Move"):
        review([("info", "move")], "lupin")  # type: ignore[list-item]
    other: list[Move] = [
        Move(info, a) for s, info, a in state.game.decisions(state) if s == "fujiko"
    ]
    with pytest.raises(ConfigError, match="not 'lupin'"):
        review(other, "lupin")
    with pytest.raises(ConfigError, match="no move of seat"):
        review([], "lupin")
    with pytest.raises(ConfigError, match="option"):
        review(state, "lupin", depth=3)


def test_lines_print_every_weighed_decision_and_the_summary() -> None:
    found: Review = review(played("noir", {0: "random"}, seed=9), "killer")
    text = "\n".join(lines(found))
    assert "Accuracy" in text and "Grades:" in text
    shown = [d for d in found.decisions if not d.quiet]
    assert all(f" {d.move}  " in text for d in shown)


def _save(tmp_path: Path, name: str, seat: Seat) -> Path:
    state = played(name, {0: "random"}, seed=2)
    path = tmp_path / f"{name}.json"
    path.write_text(state.to_json(), encoding="utf-8")
    return path


def test_the_command_reviews_a_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _save(tmp_path, "noir", "killer")
    assert main(["review", str(path), "--seat", "killer"]) == 0
    out = capsys.readouterr().out
    assert "Review of Killer in noir" in out and "Accuracy" in out
    assert any(grade in out for grade in ("inaccuracy", "mistake", "blunder"))


def test_the_arena_saves_games_the_command_reviews(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    argv = ["arena", "noir", "--bots", "random,heuristic", "--games", "2", "--workers", "1",
            "--save", str(folder), "-o", "grid=3"]  # fmt: skip
    assert main(argv) == 0
    saved = sorted(folder.iterdir())
    assert [p.name for p in saved] == ["noir-0000.json", "noir-0001.json"]
    assert "saved 2 games" in capsys.readouterr().out
    assert main(["review", str(saved[1]), "--seat", "inspector"]) == 0
    assert "Review of Inspector" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "not JSON"),
        ('{"x": 1}', "no 'game' field"),
        ('{"game": "noir"}', "options"),
        ('{"game": "noir", "options": [["grid", 5]], "setup": null}', "noir state"),
    ],
)
def test_the_command_refuses_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sleuth: error:") and says in err and err.count("\n") == 1


def test_the_command_refuses_an_unknown_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "no-such-session", "--dir", str(tmp_path)]) == 2
    assert "neither a saved game's file nor a session" in capsys.readouterr().err


def test_play_saves_the_game_and_reviews_it_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    argv = ["play", "noir", "-o", "grid=3", "--as", "killer", "--seed", "5", "--bot",
            "heuristic", "--save", str(path)]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["1"] * 80 + ["review", "quit"]) + "\n"))
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"saved the game in {path}" in out and "Review of Killer in noir" in out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == "noir" and data["actions"]
    state = engines.make("noir", grid=3).state_from_json(path.read_text(encoding="utf-8"))
    assert state.is_over and not math.isnan(review(state, "killer").accuracy or 0.0)


def test_records_cut_anywhere_are_reviewed_or_refused_with_a_sleuth_error() -> None:
    """A state, a seat's record and that record cut at a random entry, in every small game:
    a review or a SleuthError, nothing else (the seed changes each run and is printed)."""
    seed = random.SystemRandom().randrange(1 << 20)
    print(f"replay with seed {seed}")
    rng = random.Random(seed)
    for name, options in {**SMALL, "alibi": {"players": 3, "deck": "small"}}.items():
        game = engines.make(name, **options)  # type: ignore[arg-type]
        state = game.random_game(seed=rng.randrange(1 << 20), moves=rng.randrange(4, 40))
        for seat in game.seats:
            info = state.information_set(seat)
            cut = rng.randrange(len(info.observations) + 1)
            short = InformationSet(info.game, info.options, seat, info.observations[:cut])
            for record in (state, info, short):
                with contextlib.suppress(SleuthError):
                    review(record, seat)
