"""Noir's inspector foresees the killer's reply by running the killer's search from the public
record: the view he builds for the true killer must be exactly the one the killer's bot reads
after the move, and his moves exactly the killer's legal moves. With separate decks the
killer's posterior of the inspector is not uniform (his deck's draws weigh it), and the
foresight takes it uniform over the same identities: there only the identities must agree."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engines
import opponents
from engines import Action, InformationSet
from engines.noir import NoirState
from engines.noir import actions as act
from engines.noir.grid import block
from solver.games.noir import current_grid, own_identity, public_inspector_candidates
from solver.search.noir import KillerView, Told, _Foresight, _killer_view, after_shift, dead_cards


def _foreseen(
    before: InformationSet, action: Action, drawn: bool, killer: str | None
) -> tuple[KillerView, list[Action]]:
    """The foresight's view for `killer` after the inspector's `action` from `before`."""
    assert killer is not None
    grid, dead = current_grid(before.observations), dead_cards(before)
    reach = set(public_inspector_candidates(before))
    foresight = _Foresight(before, dead)
    if isinstance(action, act.Shift):
        return foresight.reply(killer, after_shift(grid, action, dead), reach, Told(shift=action))
    if isinstance(action, act.Arrest):
        told = reach & set(block(grid, action.suspect))
        return foresight.reply(killer, grid, told, Told(arrested=action.suspect))
    if isinstance(action, act.CitizenArrest):
        return foresight.reply(killer, grid, reach - {action.agent}, Told(arrested=action.suspect))
    assert isinstance(action, act.Exonerate)
    told = Told(exonerated=action.suspect, drawn=drawn)
    return foresight.reply(killer, grid, reach - {action.suspect}, told)


@pytest.mark.parametrize("options", [{}, {"deck": "separate"}, {"citizen_arrest": True}])
def test_the_inspector_reads_the_killers_reply_as_the_killer_does(options: dict) -> None:
    game = engines.make("noir", **options)
    checked = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        assert isinstance(state, NoirState)
        rng = random.Random(seed)
        killer_bot = opponents.make("solver", game, "killer", seed=seed)
        before, last, drawn = None, None, False
        while not state.is_over:
            if state.to_move == "killer":
                info = state.information_set("killer")
                if before is not None and last is not None:
                    view, replies = _foreseen(before, last, drawn, own_identity(info))
                    actual = _killer_view(info, game)
                    assert view.chances.keys() == actual.chances.keys()
                    if game.options["deck"] == "shared":  # separate decks weigh them unevenly
                        assert view.chances == pytest.approx(actual.chances, abs=1e-12)
                    assert replace(view, chances={}) == replace(actual, chances={})
                    assert set(replies) == set(state.legal_actions())
                    checked += 1
                state.apply(killer_bot.act(info))
                before, drawn = None, False
                continue
            info = state.information_set("inspector")
            legal = state.legal_actions()
            last = rng.choice(legal)
            if own_identity(info) is not None and not isinstance(legal[0], act.Exonerate):
                before, drawn = info, isinstance(last, act.Draw)
            state.apply(last)
    assert checked > 30
