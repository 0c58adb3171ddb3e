"""The City Killer referee: the city, the residents, both decks, the hidden killer, and the
stack of decisions pending.

Every decision is a *frame* on a stack, one class per kind (engines.city_killer.frames): the
seat to move answers the top frame (the killer's turn in his phase, a question to answer, a
reaction window, residents to move, ...), and `_legal_actions` and `_apply` hand it by its
class to its part of the rules. When the stack is empty the round goes on by itself to the
next step that needs a decision (`_advance`). A card played goes on the *chain*; the other
seat gets a reaction window whenever it holds any card (a public count), so the windows never
tell what a hand holds; passing resolves the chain last in, first out.

A *view* (`CityKiller.seat_view`) is a state built from one seat's observations: what that seat
cannot see is a placeholder "?", and each draw takes what the observations say it drew
(`_script`), so the seat's own legal actions can be listed from its information set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, assert_never

from engines.actions import Action
from engines.city_killer.board import UNKNOWN
from engines.city_killer.card_play import Cards
from engines.city_killer.city_phase import CityPhase
from engines.city_killer.detective_phase import DetectivePhase
from engines.city_killer.frames import (
    AlarmWindow,
    AnswerQuestion,
    AskWitness,
    ChooseAllies,
    ChooseGroup,
    ChooseIdentity,
    Cooperation,
    CrowdChoice,
    CrowdWindow,
    DetectiveTurn,
    Displace,
    ExamineScene,
    FinalAccusation,
    Frame,
    GroupMoves,
    HandLimit,
    Interrogation,
    KeepCard,
    KeepEvidence,
    KillerTurn,
    NameMotive,
    PickWitness,
    PlacePawn,
    PlaceResidents,
    Reaction,
)
from engines.city_killer.killer_phase import KillerPhase
from engines.city_killer.material import SCENES, District
from engines.city_killer.observations import Act
from engines.city_killer.questioning import Questioning
from engines.city_killer.supplies import Supplies
from engines.values import JsonValue, Seat


class CityKillerState(KillerPhase, DetectivePhase, Questioning, Cards, CityPhase, Supplies):
    """The referee: the board with each part of the rules mixed in; here the dispatch of a
    decision to its part, the automatic steps of a round, the checks and the copies."""

    def _legal_actions(self) -> list[Action]:
        frame = self.frames[-1]
        match frame:
            case ChooseIdentity():
                return self._legal_identity()
            case ChooseAllies():
                return self._legal_allies()
            case PlaceResidents():
                return self._legal_place()
            case PlacePawn():
                return self._legal_start()
            case KillerTurn():
                return self._legal_killer(frame)
            case KeepCard():
                return self._legal_keep(frame)
            case Displace():
                return self._legal_displace(frame)
            case Reaction():
                return self._legal_react(frame)
            case AlarmWindow():
                return self._legal_alarm()
            case ExamineScene():
                return self._legal_examine()
            case KeepEvidence():
                return self._legal_keep_evidence(frame)
            case DetectiveTurn():
                return self._legal_detective()
            case Interrogation():
                return self._legal_interrogation(frame)
            case AnswerQuestion():
                return self._legal_answer(frame)
            case PickWitness():
                return self._legal_pick(frame)
            case AskWitness():
                return self._legal_testimony(frame)
            case NameMotive():
                return self._legal_profile(frame)
            case CrowdWindow():
                return self._legal_crowd(frame)
            case CrowdChoice():
                return self._legal_crowd_choice()
            case HandLimit():
                return self._legal_hand()
            case GroupMoves():
                return self._legal_moves(frame)
            case ChooseGroup():
                return self._legal_group()
            case Cooperation():
                return self._legal_cooperation(frame)
            case FinalAccusation():
                return self._legal_accuse()
            case _:
                assert_never(frame)

    def _why_illegal(self, action: Action) -> str:
        frame = self.frames[-1]
        examples = ", ".join(str(a) for a in self._legal_actions()[:6])
        return (
            f"{action} is not legal now: the {frame.seat} is to move ({frame.what}); "
            f"legal moves include {examples}"
        )

    def _apply(self, action: Action) -> None:
        frame = self.frames[-1]
        self._emit(Act(frame.seat, self._public_text(frame, action)))
        match frame:
            case ChooseIdentity():
                self._do_identity(action)
            case ChooseAllies():
                self._do_allies(action)
            case PlaceResidents():
                self._do_place(action)
            case PlacePawn():
                self._do_start(action)
            case KillerTurn():
                self._do_killer(frame, action)
            case KeepCard():
                self._do_keep(frame, action)
            case Displace():
                self._do_displace(frame, action)
            case Reaction():
                self._do_react(frame, action)
            case AlarmWindow():
                self._do_alarm(frame, action)
            case ExamineScene():
                self._do_examine(action)
            case KeepEvidence():
                self._do_keep_evidence(frame, action)
            case DetectiveTurn():
                self._do_detective(action)
            case Interrogation():
                self._do_interrogation(frame, action)
            case AnswerQuestion():
                self._do_answer(frame, action)
            case PickWitness():
                self._do_pick(frame, action)
            case AskWitness():
                self._do_testimony(action)
            case NameMotive():
                self._do_profile(frame, action)
            case CrowdWindow():
                self._do_crowd(frame, action)
            case CrowdChoice():
                self._do_crowd_choice(frame, action)
            case HandLimit():
                self._do_hand(action)
            case GroupMoves():
                self._do_moves(frame, action)
            case ChooseGroup():
                self._do_group(frame, action)
            case Cooperation():
                self._do_cooperation(action)
            case FinalAccusation():
                self._do_accuse(action)
            case _:
                assert_never(frame)
        self._advance()

    def _public_text(self, frame: Frame, action: Action) -> str:
        """The action as the other seat sees it: the killer's private choices are hidden."""
        if isinstance(frame, ChooseIdentity | ChooseAllies | KeepCard):
            return f"{str(action).split()[0]} {UNKNOWN}"
        return str(action)

    def _advance(self) -> None:
        """Run the round's automatic steps until someone must decide or the game is over."""
        while not self.frames and not self.over and not self.chain:
            match self.stage:
                case "killer":
                    self._stage_killer()
                case "d1":
                    self._stage_d1()
                case "d1-evidence":
                    self._stage_d1_evidence()
                case "d2":
                    self._stage_d2()
                case "d3":
                    self._stage_d3()
                case "c1":
                    self._stage_c1()
                case "c2-detective":
                    self._stage_c2_detective()
                case "c3":
                    self._stage_c3()
                case "end":
                    self._stage_end()
                case "setup" | "accusation":  # each waits on a frame until the game moves on
                    raise AssertionError(f"city-killer: no step runs by itself in {self.stage}")

    def _broken_invariants(self) -> list[str]:
        broken = []
        capacity = self.game.options["district_capacity"]
        counts: dict[District, int] = {}
        for district in self.pos.values():
            counts[district] = counts.get(district, 0) + 1
        if any(n > capacity for n in counts.values()):
            broken.append(f"a district holds more than {capacity} living residents")
        if self._identity and self._script is None and self._identity in self.dead:
            broken.append("the killer's identity is dead")
        if self.murders > SCENES:
            broken.append("more crime scenes than crime-scene cards")
        if self.refusals > 2:
            broken.append("more than two refusals")
        holding = not any(isinstance(f, HandLimit) for f in self.frames) and not self.chain
        if len(self._detective_hand) > 1 and holding:
            broken.append("the detective holds more than one card")
        if self.token is not None and self.token not in self.pos:
            broken.append("the surveillance token is on a dead resident")
        if self.killer_hand_size != len(self._killer_hand):
            broken.append("the killer's hand size is not his hand's")
        return broken

    def _to_dict(self) -> dict[str, JsonValue]:
        def places(items: Iterable[tuple[str, District]]) -> list[JsonValue]:
            return [[name, list(d)] for name, d in items]

        return {
            "round": self.round,
            "stage": self.stage,
            "positions": places((n, self.pos[n]) for n in self.residents if n in self.pos),
            "dead": list(self.dead),
            "history": list(self.earlier_victims),
            "scenes": [[list(d), list(v), b] for d, v, b in self.scenes],
            "intimidated": sorted(self.intimidated),
            "buildings": [[list(d), kind] for d, kind in sorted(self.buildings.items())],
            "pawn": None if self.pawn is None else list(self.pawn),
            "token": self.token,
            "refusals": self.refusals,
            "frames": [_plain(_fields(frame)) for frame in self.frames],
            "chain": [[s, c, list(a)] for s, c, a in self.chain],
            "row": list(self.row),
            "row_limit": self.row_limit,
            "effects": _plain([self.strike, self.stubborn, self.curfew, self.curfew_now,
                               self.cordon]),
            "detective_phase": [self.mp, self.steps, list(self.used), self.checks,
                                self.examined, sorted(self.questioned)],
            "discards": [list(self.killer_discard), list(self.detective_discard),
                         list(self.evidence_discard)],
            "tokens": [list(self.revealed_tokens), list(self.out_tokens),
                       list(self._pending_stack_tokens), list(self._stack)],
            "secrets": [self._identity, self._figurant, self._motive, self._allies,
                        list(self._drawn)],
            "killer": [list(self._killer_hand), list(self._killer_deck),
                       [list(u) for u in self._under]],
            "detective": [list(self._detective_hand), list(self._detective_deck),
                          list(self._evidence), list(self._supply)],
            "over": [self.over, list(self._winners), self.reason],
        }  # fmt: skip

    def summary(self, seat: Seat) -> dict[str, object]:
        return {"murders": self.murders, "refusals": self.refusals, "rounds": self.round}


def _fields(frame: Frame) -> dict[str, Any]:
    """A frame as the JSON writes it: its kind, its seat and its fields (sorted by `_plain`)."""
    named = {field.name: getattr(frame, field.name) for field in dataclasses.fields(frame)}
    return {"kind": frame.kind, "seat": frame.seat, **named}


def _plain(value: Any) -> JsonValue:
    if isinstance(value, dict):
        return [[key, _plain(item)] for key, item in sorted(value.items())]
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, set):
        return sorted(value)
    return value
