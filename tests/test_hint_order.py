"""Hints in the order a player needs them (issue 43): the hidden answer first once it is
certain, with the plan at `advice`; what the last entry changed; no estimate shown with a
margin wider than five points."""

from __future__ import annotations

import itertools
import random

import pytest

import engines
import opponents
import solver
from engines import InformationSet, Seat
from engines.noir import NoirState, allowed_shifts, collapsed, neighbours, shifted
from engines.noir.grid import block
from sleuth.assist import Session
from sleuth.assist.levels import hints_at
from sleuth.assist.transcribe import seat_positions, typed_lines
from solver.games import alibi as alibi_knowledge
from solver.games import noir as knowledge
from solver.hints import SECTIONS, certainty, folded, ranked
from solver.sampling import NOT_YET, Estimate


def random_positions(name: str, seat: Seat, seed: int, **options) -> list[InformationSet]:
    """The seat's complete information sets after every move of a game of `random` bots."""
    return seat_positions(engines.make(name, **options), seat, seed, bot_seed=seed)


def first_certain(infos: list[InformationSet]) -> tuple[InformationSet, solver.Answer] | None:
    for info in infos:
        told = solver.answer(info, solver.deduce(info))
        if told is not None:
            return info, told
    return None


@pytest.mark.parametrize(
    "name, seat, options",
    [("noir", "inspector", {}), ("noir", "killer", {}), ("blue-lion", "lupin", {})],
)
def test_the_first_hint_says_the_answer_once_certain_and_advice_adds_the_plan(
    name: str, seat: Seat, options: dict
) -> None:
    found = 0
    for seed in range(4):
        infos = random_positions(name, seat, seed, **options)
        first = first_certain(infos)
        if first is None:
            continue
        info, told = first
        found += 1
        deduction = solver.deduce(info)
        for level in ("certain", "odds", "advice"):
            shown = hints_at(level, info, deduction)
            assert shown[0].kind == "answer", (level, [h.text for h in shown[:3]])
            assert told.hint.text in shown[0].text
        advice = hints_at("advice", info, deduction)[0].text
        if told.plan is not None:
            assert advice.endswith(told.plan)
        # before it, no hint says the answer
        earlier = infos[infos.index(info) - 1]
        assert all(h.kind != "answer" for h in solver.hints(earlier))
    assert found >= 2


def test_the_noir_plan_names_exactly_the_shifts_that_bring_the_opponent_within_reach() -> None:
    checked = 0
    for seed in range(4):
        for seat in ("inspector", "killer"):
            first = first_certain(random_positions("noir", seat, seed))
            if first is None or first[1].hint.fact is None:
                continue
            info, told = first
            target = str(told.hint.fact.args[0])
            state = info.make_game().public_state(info)
            assert isinstance(state, NoirState)
            me = knowledge.own_identity(info)
            if me is None or state.is_over:
                continue
            reach = block if seat == "inspector" else neighbours
            dead = knowledge.dead_cards(info)
            found = knowledge.reaching_shifts(info, target)
            protected = state.protected if state.to_move == seat else None
            for shift in allowed_shifts(state.grid, protected):
                grid = collapsed(shifted(state.grid, shift.line, shift.index - 1,
                                         shift.direction), dead)  # fmt: skip
                assert (target in reach(grid, me)) == (shift in found), shift
            if found and target not in reach(state.grid, me):
                assert told.plan is not None and str(found[0]) in told.plan
                checked += 1
    assert checked >= 1


@pytest.mark.parametrize("seat", ["lupin", "fujiko"])
def test_the_blue_lion_plan_is_the_move_the_solver_plays(seat: Seat) -> None:
    """Once every back is known, the answer's plan at the seat's turn is the solver bot's move
    (seed 0); at the opponent's turn, the opponent's best move by the same search and the
    reply to it."""
    moments = set()
    for seed in range(6):
        first = first_certain(random_positions("blue-lion", seat, seed))
        if first is None:
            continue
        info, told = first
        state = info.make_game().public_state(info)
        if state.is_over:
            continue
        text = hints_at("advice", info, solver.deduce(info))[0].text
        assert text.startswith(told.hint.text + ". "), text
        if state.to_move == seat:
            assert f"Play {solver.advise(info, seed=0).move}: " in text
            known = solver.hints(info, search=False)  # what `sleuth demo` shows: no move
            assert known[0].text == told.hint.text and "Play " not in known[0].text
            moments.add("your turn")
        else:
            assert f"{str(state.to_move).capitalize()} is to move" in text
            assert "your best reply then: " in text or "ends the game" in text
            moments.add("their turn")
        plan = text[len(told.hint.text) + 2 :]
        assert all(h.text != plan for h in solver.hints(info))  # told once, as the plan
    assert moments


def test_changes_tell_exactly_the_facts_an_entry_settled() -> None:
    """Against a brute comparison of the two deductions: every settled fact is told (one a
    hint, or counted in the shared line), and nothing else is."""
    rng = random.Random(7)
    told_some = 0
    for name, seat in (("blue-lion", "lupin"), ("noir", "inspector"), ("noir", "killer")):
        infos = random_positions(name, seat, rng.randrange(1000))[:25]
        for before, after in itertools.pairwise(infos):
            d0, d1 = solver.deduce(before), solver.deduce(after)
            earlier = {(f.kind, f.args): f for f in d0.facts}
            became = [
                f
                for f in d1.facts
                if (f.kind, f.args) in earlier and d1.is_certain(f)
                and not d0.is_certain(earlier[(f.kind, f.args)])
            ]  # fmt: skip
            known = {f.var for f in became}  # their variables' other values are implied
            settled = {(f.kind, f.args) for f in became} | {
                (f.kind, f.args)
                for f in d1.facts
                if (f.kind, f.args) in earlier and f.var not in known
                and not d1.possible(f) and d0.possible(earlier[(f.kind, f.args)])
            }  # fmt: skip
            hints = solver.changes(d1, d0)
            apart = {(h.fact.kind, h.fact.args) for h in hints if h.kind == "new" and h.fact}
            assert apart <= settled
            shared = [h for h in hints if h.kind == "new" and h.fact is None]
            if len(settled) > len(apart):
                assert shared, (settled, apart)
            for hint in hints:
                if hint.kind == "new" and hint.fact is not None:
                    fact = certainty(hint)
                    assert fact is not None and d1.is_certain(fact)
            told_some += bool(hints)
    assert told_some > 3


def test_an_estimate_wider_than_five_points_is_not_shown() -> None:
    assert Estimate(0.4, 0.04, exact=False).short() == NOT_YET  # ± 8%
    assert Estimate(0.4, 0.02, exact=False).short() == "40% ± 4%"
    assert str(Estimate(0.4, 0.04, exact=False)) == NOT_YET
    assert Estimate(0.4).short() == "40%"


def test_sections_rank_the_answer_first_and_the_notepad_last() -> None:
    hints = [
        solver.Hint("crossed", kind="notepad", score=9.0),
        solver.Hint("odds", kind="likely", score=1.5),
        solver.Hint("move", kind="move", score=0.1),
        solver.Hint("answer", kind="answer", score=0.0),
        solver.Hint("new", kind="new", score=0.0),
    ]
    assert [h.text for h in ranked(hints)] == ["answer", "new", "move", "odds", "crossed"]
    assert SECTIONS["answer"] < SECTIONS["new"] < SECTIONS["move"] < SECTIONS["notepad"]


def test_the_session_tells_what_its_last_entry_changed(tmp_path) -> None:
    game = engines.make("blue-lion")
    state = game.new_game(seed=3)
    bots = {s: opponents.make("random", game, s, seed=3) for s in game.seats}
    while state.to_move is not None:
        state.apply(bots[state.to_move].act(state.information_set(state.to_move)))
    lines = typed_lines(game, state.information_set("lupin"))
    session = Session.new("blue-lion", dir=tmp_path, name="changes")
    told = 0
    for number, line in enumerate(lines, start=1):
        session.add(line)
        if session.reading().status != "ok":
            continue
        changed = [h for h in session.hints("certain") if h.kind == "new"]
        told += bool(changed)
        if number % 8:
            continue
        fresh = Session.open("changes", tmp_path)  # deduces the record before it anew
        assert [h.text for h in fresh.hints("certain")] == [
            h.text for h in session.hints("certain")
        ]
        fresh.close()
    session.close()
    assert told > 0


def test_crossings_of_one_heading_fold_into_one_line_with_all_their_reasons() -> None:
    def crossed(text: str, because: tuple[str, ...], heading: str, item: str) -> solver.Hint:
        return solver.Hint(text, None, 0.0, because, "notepad", 0.0, (heading, item))

    dead = [
        crossed(f"{n} is not the killer (dead)", (f"{n} was killed",), "Not the killer (dead)", n)
        for n in ("Emil", "Uma")
    ]
    mine = crossed("Ada is not the killer (one of your cards)", ("dealt",),
                   "Not the killer (one of your cards)", "Ada")  # fmt: skip
    cards = [
        solver.Hint(f"{c} is not in the box", None, 0.0, (), "notepad", 0.0, ("Not in the box", c))
        for c in ("Rita Bell, noon", "Max Fenner, evening")
    ]
    shown = folded([dead[0], mine, dead[1], *cards])
    assert [h.text for h in shown] == [
        "Not the killer (dead): Emil, Uma",
        "Ada is not the killer (one of your cards)",  # alone: kept as it was, with its fact
        "Not in the box: Rita Bell, noon; Max Fenner, evening",
    ]
    assert shown[0].because == ("Emil was killed", "Uma was killed")
    assert shown[1] is mine


def test_alibi_does_not_tell_the_seats_own_cards_as_deductions() -> None:
    infos = random_positions("alibi", 0, 3, players=4)
    info = infos[len(infos) // 2]
    deduction = solver.deduce(info)
    hand = alibi_knowledge.plainly_known(info, deduction)
    assert hand  # the seat holds cards: who holds them is certain, and plain
    for level in ("certain", "odds", "advice"):
        shown = hints_at(level, info, deduction)
        assert not any(h.fact in hand for h in shown if h.kind == "certain")
        assert not any(f.text in h.text for f in hand for h in shown if h.kind == "certain")
    # a card another player certainly holds is told once, on its holder's line
    info = infos[len(infos) * 3 // 4]
    deduction = solver.deduce(info)
    told = hints_at("odds", info, deduction)
    held = [h for h in solver.hints(info, deduction) if h.kind == "where" and h.fact is not None]
    assert held
    for hint in held:
        name = hint.text.split(" certainly holds ", 1)[1]
        assert sum(name in h.text for h in told if h.kind in ("where", "certain")) == 1, name
