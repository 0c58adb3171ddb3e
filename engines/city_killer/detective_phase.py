"""City Killer's Detective phase (rules section 4.2): the urgent call, examining a crime
scene, movement, the buildings' actions, the detective's hand and the accusation."""

from __future__ import annotations

from engines.actions import Action
from engines.city_killer import actions as act
from engines.city_killer import observations as seen
from engines.city_killer.board import MAX_STEPS, UNKNOWN
from engines.city_killer.frames import (
    AlarmWindow,
    Cooperation,
    DetectiveTurn,
    Displace,
    ExamineScene,
    Interrogation,
    KeepEvidence,
)
from engines.city_killer.material import (
    BUILDINGS,
    DETECTIVE,
    DISTRICTS,
    KILLER,
    MOTIVES,
    District,
    neighbours,
)
from engines.city_killer.supplies import Supplies


class DetectivePhase(Supplies):
    """The Detective phase and the accusation."""

    def _stage_d1(self) -> None:
        self.curfew_now = None
        self.cordon = None
        self.mp, self.steps, self.used, self.checks = 2, 0, [], 0
        self.examined, self.questioned, self.token_fresh = False, set(), False
        self.stage = "d1-evidence"
        if self.murdered:
            district = self.scenes[-1][0]
            self.pawn = district
            self._emit(seen.Pawn(district, 0))
            names = self.at(district)
            if names:
                self._push(Displace(tuple(names)))

    def _stage_d1_evidence(self) -> None:
        self.stage = "d2"
        if self.murdered or self.game.options["evidence_on_no_murder"]:
            self._give_evidence(1)
        if self.murdered and self.killer_hand_size:
            self._push(AlarmWindow())

    def _stage_d2(self) -> None:
        self.stage = "d3"
        timing = self.game.options["examine_timing"]
        if timing == "step" and self.pawn in self.scene_districts():
            self._push(ExamineScene())

    def _stage_d3(self) -> None:
        self.stage = "c1"
        self._push(DetectiveTurn())

    def _legal_displace(self, frame: Displace) -> list[Action]:
        actions: list[Action] = []
        for name in frame.names:
            near = [
                d for d in neighbours(self.pos[name], self.adjacency) if self.can_enter(name, d)
            ]
            anywhere = near or [d for d in DISTRICTS if self.can_enter(name, d)]
            actions += [act.Shift(name, d) for d in anywhere]
        return actions

    def _legal_examine(self) -> list[Action]:
        return [act.Verb("examine"), act.Verb("pass")]

    def _legal_keep_evidence(self, frame: KeepEvidence) -> list[Action]:
        return [act.Keep(t) for t in dict.fromkeys(frame.drawn)]

    def _legal_detective(self) -> list[Action]:
        """The detective's choices in his phase, in this order: the steps, the actions of the
        pawn's district, surveillance, evidence checks, card plays and the end."""
        assert self.pawn is not None
        opt = self.game.options
        actions: list[Action] = [act.Placed("move", d) for d in self._steps()]
        here = self.pawn
        building = self.buildings.get(here)
        free_actions = len(self.used) < 2
        if free_actions:
            actions += self._district_actions(here, building)
        if self.token is not None and (opt["surveil_same_phase"] or not self.token_fresh):
            actions.append(act.Named("surveil", self.token))
        if building is not None and building in self._evidence and self._may_check():
            actions += self._evidence_checks()
        if not opt["card_play_is_action"] or (free_actions and "card" not in self.used):
            actions += self._card_plays()
        actions.append(act.Verb("end"))
        return actions

    def _district_actions(self, here: District, building: str | None) -> list[Action]:
        """The actions of the pawn's district not taken yet this phase (two are free): the
        interrogation, its building's actions, examining its crime scene (examine_timing
        action)."""
        actions: list[Action] = []
        if "interrogate" not in self.used and self._to_question(here, set()):
            actions.append(act.Verb("interrogate"))
        if building in BUILDINGS and building not in self.used:
            actions += self._building_actions(building)
        examine_here = here in self.scene_districts() and not self.examined
        if self.game.options["examine_timing"] == "action" and examine_here:
            actions.append(act.Verb("examine"))
        return actions

    def _evidence_checks(self) -> list[Action]:
        """The evidence checks open in a building: a card of the row, or the deck's top
        while the deck (or with empty_deck reshuffle, the discard pile) holds a card."""
        actions: list[Action] = [
            act.Evidence(i + 1) for i, card in enumerate(self.row) if card is not None
        ]
        reshuffle = self.game.options["empty_deck"] == "reshuffle"
        if self._detective_deck or (reshuffle and self.detective_discard):
            actions.append(act.Evidence(0))
        return actions

    def _may_check(self) -> bool:
        limit = self.game.options["evidence_checks"]
        return limit == "unlimited" or self.checks < limit

    def _steps(self) -> list[District]:
        """Where the pawn may step now (1 MP, or 0 to a crime scene or a full district)."""
        assert self.pawn is not None
        if self.steps >= MAX_STEPS:
            return []
        free = {d for d in DISTRICTS if d in self.scene_districts() or len(self.at(d)) == 3}
        found = set()
        for d in neighbours(self.pawn, self.adjacency):
            if self.mp >= 1 or d in free:
                found.add(d)
        if self.game.options["free_move"] == "teleport":
            found |= free - {self.pawn}
        return sorted(found)

    def _step_cost(self, dest: District) -> int:
        assert self.pawn is not None
        free = dest in self.scene_districts() or len(self.at(dest)) == 3
        if free and (
            self.game.options["free_move"] == "teleport"
            or dest in neighbours(self.pawn, self.adjacency)
        ):
            return 0
        return 1

    def _legal_hand(self) -> list[Action]:
        plays = self._card_plays()
        return [*plays, *(act.Discard(card) for card in dict.fromkeys(self._detective_hand))]

    def _legal_cooperation(self, frame: Cooperation) -> list[Action]:
        return self._building_actions(frame.building)

    def _legal_accuse(self) -> list[Action]:
        names = (
            self.living if self.game.options["accusation_target"] == "living" else self.residents
        )
        return [act.Accuse(n, m) for n in names for m in MOTIVES]

    def _do_displace(self, frame: Displace, action: Action) -> None:
        assert isinstance(action, act.Shift)
        self._move_resident(action.name, action.district, "urgent call")
        frame = frame.moved(action.name)
        self.frames[-1] = frame
        if not any(isinstance(a, act.Shift) for a in self._legal_displace(frame)):
            self._pop()

    def _do_examine(self, action: Action) -> None:
        self._pop()
        if action == act.Verb("examine"):
            self._examine()

    def _examine(self) -> None:
        self.examined = True
        drawn = self._give_evidence(2)
        self._emit(seen.Examination(self.pawn or (0, 0)))
        if len(drawn) == 2:
            for token in drawn:
                self._evidence.remove(token)
            self._push(KeepEvidence(tuple(drawn)))

    def _do_keep_evidence(self, frame: KeepEvidence, action: Action) -> None:
        assert isinstance(action, act.Keep)
        self._pop()
        drawn = list(frame.drawn)
        drawn.remove(action.item if action.item in drawn else UNKNOWN)
        self._evidence.append(action.item)
        self.evidence_discard.extend(drawn)
        self._emit(seen.EvidenceDiscard(tuple(drawn)))

    def _do_detective(self, action: Action) -> None:
        if isinstance(action, act.Placed):
            cost = self._step_cost(action.district)
            self.mp -= cost
            self.steps += 1
            self.pawn = action.district
            self._emit(seen.Pawn(action.district, cost))
        elif action == act.Verb("interrogate"):
            assert self.pawn is not None
            self.used.append("interrogate")
            count = len(self._to_question(self.pawn, set()))
            self._emit(seen.Interrogation(self.pawn))
            self._push(Interrogation((), count))
        elif action == act.Verb("examine"):
            self.used.append("examine")
            self._examine()
        elif action == act.Verb("end"):
            self._pop()
            self._emit(seen.InvestigationOver(self.round))
        elif isinstance(action, act.Named) and action.verb == "surveil":
            self._surveil(action.name)
        elif isinstance(action, act.Evidence):
            self._evidence_check(action.position)
        elif isinstance(action, act.Play):
            if self.game.options["card_play_is_action"]:
                self.used.append("card")
            self._play(DETECTIVE, action)
        else:
            self._building(action, bonus=False)

    def _building(self, action: Action, bonus: bool) -> None:
        """A building's action (police, diner, hospital, fire); `bonus` for Cooperation."""
        if isinstance(action, act.Named) and action.verb == "police":
            kind = "police"
            self._place_token(action.name, "police")
        elif isinstance(action, act.Ask):
            kind = "diner"
            self._ask(action, "diner", blackmail=False)
        elif isinstance(action, act.Named):
            kind = "hospital"
            self.intimidated.discard(action.name)
            self._emit(seen.Calm((action.name,), "hospital"))
        else:
            kind = "fire"
            group = self._draw_stack(DETECTIVE, "fire")
            assert group is not None
            self._group_move(DETECTIVE, group, "fire")
        if not bonus:
            self.used.append(kind)

    def _do_hand(self, action: Action) -> None:
        self._pop()
        if isinstance(action, act.Discard):
            self._take_from(self._detective_hand, action.card)
            self.detective_discard.append(action.card)
            self._emit(seen.Discarded(action.card))
        else:
            assert isinstance(action, act.Play)
            self._play(DETECTIVE, action)

    def _do_cooperation(self, action: Action) -> None:
        self._pop()
        self._building(action, bonus=self.game.options["cooperation"] == "bonus")

    def _do_accuse(self, action: Action) -> None:
        assert isinstance(action, act.Accuse)
        self._pop()
        self.accusation = (action.name, action.motive)
        right = action.name == self._identity and action.motive == self._motive
        self._emit(seen.Accusation(action.name, action.motive))
        if right:
            self._finish((DETECTIVE,), "the detective named the killer and his motive")
        else:
            self._finish((KILLER,), "the detective's accusation was wrong")
