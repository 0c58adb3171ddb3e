"""City Killer's City phase and group moves (rules section 4.3): calming by the pawn, both
token draws and their group moves, the card row, and the end-of-round check."""

from __future__ import annotations

from engines.actions import Action
from engines.city_killer.actions import Grouped, Shift, Verb
from engines.city_killer.frames import ChooseGroup, FinalAccusation, GroupMoves
from engines.city_killer.material import DETECTIVE, GROUPS, KILLER, SCENES
from engines.city_killer.observations import Calm, GroupChosen
from engines.city_killer.supplies import Supplies


class CityPhase(Supplies):
    """The City phase, group moves and the end of a round."""

    def _stage_c1(self) -> None:
        self.strike, self.stubborn, self.token_fresh = None, None, False
        calmed = [n for n in self.living if n in self.intimidated and self.pos[n] == self.pawn]
        self.intimidated -= set(calmed)
        self._emit(Calm(tuple(calmed), "city"))
        self.stage = "c2-detective"
        group = self._draw_stack(KILLER, "city")
        if group is not None:
            self._group_move(KILLER, group, "city")

    def _stage_c2_detective(self) -> None:
        self.stage = "c3"
        group = self._draw_stack(DETECTIVE, "city")
        if group is not None:
            self._group_move(DETECTIVE, group, "city")

    def _stage_c3(self) -> None:
        self._stack.extend(self._pending_stack_tokens)
        self._pending_stack_tokens.clear()
        self._city_row()
        self.stage = "end"

    def _stage_end(self) -> None:
        if self.murders >= SCENES:
            self.stage = "accusation"
            self._push(FinalAccusation())
        else:
            self.round += 1
            self.stage = "killer"

    def _legal_moves(self, frame: GroupMoves) -> list[Action]:
        actions: list[Action] = [
            Shift(n, d) for n in frame.names if n in self.pos for d in self.group_targets(n)
        ]
        return [*actions, Verb("done")]

    def _legal_group(self) -> list[Action]:
        alive = {self.resident(n).group for n in self.living}
        return [Grouped("group", g) for g in GROUPS if g in alive]

    def _do_moves(self, frame: GroupMoves, action: Action) -> None:
        if action == Verb("done"):
            self._pop()
            return
        assert isinstance(action, Shift)
        self._move_resident(action.name, action.district, frame.source)
        frame = frame.moved(action.name)
        self.frames[-1] = frame
        if not frame.names:
            self._pop()

    def _do_group(self, frame: ChooseGroup, action: Action) -> None:
        assert isinstance(action, Grouped)
        self._pop()
        self._emit(GroupChosen(frame.seat, action.group))
        self._group_move(frame.seat, action.group, frame.source, chosen=True)

    def _group_move(self, seat: str, group: str, source: str, chosen: bool = False) -> None:
        names = [n for n in self.living if self.resident(n).group == group]
        if names:
            self._push(GroupMoves(seat, tuple(names), source, group))
        elif not chosen and (source != "fire" or self.game.options["fire_empty_group"] == "c2"):
            self._push(ChooseGroup(seat, source))
