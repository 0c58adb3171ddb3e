"""City Killer's cards in play (rules sections 2.6 and 2.7): what each card may name, the
chain of cards and counters resolved last in, first out, the reaction windows, the symbols."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from engines.actions import Action
from engines.city_killer import observations as seen
from engines.city_killer.actions import Play, Verb, read_district
from engines.city_killer.board import COUNTERS, other
from engines.city_killer.frames import (
    AlarmWindow,
    AnswerQuestion,
    Cooperation,
    CrowdChoice,
    CrowdWindow,
    KillerTurn,
    NameMotive,
    Opening,
    PickWitness,
    Reaction,
)
from engines.city_killer.material import (
    AGE,
    BUILDINGS,
    DETECTIVE,
    DISTRICTS,
    GROUPS,
    KILLER,
    MOTIVES,
    ROW,
    distance,
    district_text,
    neighbours,
)
from engines.city_killer.supplies import Supplies


class Cards(Supplies):
    """Card plays, reaction windows and their resolution."""

    def _card_plays(self) -> list[Action]:
        actions: list[Action] = []
        for card in dict.fromkeys(self._detective_hand):
            actions += [Play(card, args) for args in self._detective_card_args(card)]
        return actions

    def _detective_card_args(self, card: str) -> list[tuple[str, ...]]:
        """The arguments with which the detective may play `card` now, one tuple a play."""
        assert self.pawn is not None
        choices = self._DETECTIVE_CARD_ARGS.get(card)
        assert choices is not None, card
        return choices(self)

    def _testimony_args(self) -> list[tuple[str, ...]]:
        """Two residents who may be questioned, and with pick_then_ask off the question."""
        names = [n for n in self.living if self.questionable(n)]
        if self.game.options["question_limit"] == "per_phase":
            names = [n for n in names if n not in self.questioned]
        pairs: list[tuple[str, ...]] = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        if self.game.options["testimony_order"] == "pick_then_ask":
            return pairs
        return [(a, b, f"{t}:{v}") for a, b in pairs for t, v in self.question_choices()]

    def _curfew_args(self) -> list[tuple[str, ...]]:
        """An age or a group."""
        return [*((f"age:{a}",) for a in AGE), *((f"group:{g}",) for g in GROUPS)]

    def _vehicle_args(self) -> list[tuple[str, ...]]:
        """A district next to the pawn."""
        assert self.pawn is not None
        return [(district_text(d),) for d in neighbours(self.pawn, self.adjacency)]

    def _cordon_args(self) -> list[tuple[str, ...]]:
        """Any district."""
        return [(district_text(d),) for d in DISTRICTS]

    def _raid_args(self) -> list[tuple[str, ...]]:
        """A group some living resident belongs to."""
        return [(g,) for g in GROUPS if any(self.resident(n).group == g for n in self.living)]

    def _profile_args(self) -> list[tuple[str, ...]]:
        """Two different motives."""
        return [(a, b) for i, a in enumerate(MOTIVES) for b in MOTIVES[i + 1 :]]

    def _covert_watch_args(self) -> list[tuple[str, ...]]:
        """A living resident other than the token's carrier, while the token is not lost."""
        return [] if self.token_lost else [(n,) for n in self.living if n != self.token]

    def _cooperation_args(self) -> list[tuple[str, ...]]:
        """A kind of building with an action to take (one not used yet when cooperation
        takes an action, and none once two actions are used)."""
        if self.game.options["cooperation"] == "action" and len(self.used) >= 2:
            return []
        return [
            (kind,)
            for kind in BUILDINGS
            if self._building_actions(kind)
            and (self.game.options["cooperation"] == "bonus" or kind not in self.used)
        ]

    def _patrols_args(self) -> list[tuple[str, ...]]:
        """A living resident who is intimidated."""
        return [(n,) for n in self.living if n in self.intimidated]

    def _confession_args(self) -> list[tuple[str, ...]]:
        """No argument: one play."""
        return [()]

    def _sixth_sense_args(self) -> list[tuple[str, ...]]:
        """None: the card is played only in a reaction window."""
        return []

    _DETECTIVE_CARD_ARGS: ClassVar[dict[str, Callable[[Cards], list[tuple[str, ...]]]]] = {
        "testimony": _testimony_args,
        "curfew": _curfew_args,
        "vehicle": _vehicle_args,
        "cordon": _cordon_args,
        "raid": _raid_args,
        "profile": _profile_args,
        "covert-watch": _covert_watch_args,
        "cooperation": _cooperation_args,
        "patrols": _patrols_args,
        "confession": _confession_args,
        "sixth-sense": _sixth_sense_args,
    }
    """The arguments of each detective card, by its name."""

    def _legal_react(self, frame: Reaction) -> list[Action]:
        seat, top = frame.seat, self.chain[-1]
        actions: list[Action] = [Verb("pass")]
        hand = self._killer_hand if seat == KILLER else self._detective_hand
        if seat == DETECTIVE and "sixth-sense" in hand and top[0] == KILLER:
            actions.append(Play("sixth-sense"))
        if seat == KILLER and "bribe" in hand and top[0] == DETECTIVE:
            actions.append(Play("bribe"))
        return actions

    def _legal_alarm(self) -> list[Action]:
        actions: list[Action] = [Verb("pass")]
        if "false-alarm" in self._killer_hand and self.pawn is not None:
            actions += [
                Play("false-alarm", (district_text(d),))
                for d in DISTRICTS
                if 1 <= distance(self.pawn, d, self.adjacency) <= 2
            ]
        return actions

    def _do_react(self, frame: Reaction, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self._play(frame.seat, action)
        else:
            self._resolve_chain()

    def _do_alarm(self, frame: AlarmWindow, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self.context = frame
            self._play(KILLER, action, keep_context=True)

    def _play(self, seat: str, action: Play, keep_context: bool = False) -> None:
        """Put a card on the chain and open the other seat's reaction window."""
        if not keep_context and not self.chain:
            self.context = None
        if seat == KILLER:
            self._take_from(self._killer_hand, action.card)
            self.killer_hand_size -= 1
        else:
            self._take_from(self._detective_hand, action.card)
        self.chain.append((seat, action.card, action.args))
        self._emit(seen.Played(seat, action.card, action.args))
        opponent = other(seat)
        if action.card == "bomb" or not self.hand_size(opponent):
            self._resolve_chain()
        else:
            self._push(Reaction(opponent))

    def _resolve_chain(self) -> None:
        """Last in, first out: a counter cancels the card under it."""
        chain, context = self.chain, self.context
        self.chain, self.context = [], None
        while chain:
            seat, card, args = chain.pop()
            self._discard(seat, card)
            if card in COUNTERS:
                cancelled = chain.pop()
                self._discard(cancelled[0], cancelled[1])
                self._emit(seen.Cancelled(cancelled[0], cancelled[1]))
                if self.game.options["symbol_on_cancel"]:
                    self._symbol(cancelled[0], cancelled[1])
                if not chain:
                    self._cancelled(context)
                continue
            self._resolve(seat, card, args, context)

    def _cancelled(self, context: Opening | None) -> None:
        """What follows when the card a reaction answered was cancelled: a surveillance goes
        ahead; an answer is given after all, without the Blackmail."""
        match context:
            case CrowdWindow(name=name):
                self._surveillance(name)
            case AnswerQuestion():
                self._push(dataclasses.replace(context, blackmail=False))

    def _symbol(self, seat: str, card: str) -> None:
        opt = self.game.options
        if seat == KILLER and card in opt["killer_symbol_cards"]:
            self._give_evidence(1)
        if seat == DETECTIVE and card in opt["detective_symbol_cards"]:
            self._killer_draws()

    def _resolve(
        self, seat: str, card: str, args: tuple[str, ...], context: Opening | None
    ) -> None:
        if seat == KILLER:
            self._resolve_killer(card, args, context)
        else:
            self._resolve_detective(card, args)
        self._symbol(seat, card)

    def _resolve_killer(self, card: str, args: tuple[str, ...], context: Opening | None) -> None:
        districts = [read_district(a) for a in args]
        if card == "strike":
            self.strike = args[0]
        elif card == "graffiti":
            a, b = districts
            assert a is not None and b is not None
            self.buildings[b] = self.buildings.pop(a)
        elif card == "abduction":
            dest = districts[1]
            assert dest is not None
            if args[0] in self.pos and self.can_enter(args[0], dest):
                self._move_resident(args[0], dest, "abduction")
        elif card == "bomb":
            (where,) = districts
            assert where is not None
            self._pop_killer_frame()
            self._murder(tuple(self.at(where)), where, bomb=True)
        elif card == "message":
            eligible = len(self._intimidation_targets())
            owe_none = self.game.options["few_to_intimidate"] == "none" and eligible < 2
            for i, frame in enumerate(self.frames):
                if isinstance(frame, KillerTurn):
                    self.frames[i] = KillerTurn(0 if owe_none else min(frame.left + 2, eligible))
        elif card == "destroy-evidence":
            position = int(args[0])
            discarded = self.row[position - 1]
            if discarded is not None:
                self.detective_discard.append(discarded)
                self.row[position - 1] = None
            self.row_limit, self.row_destroyed = ROW - 1, True
        elif card == "stubborn-witnesses":
            self.stubborn = districts[0]
        elif card == "false-alarm":
            assert districts[0] is not None
            self.pawn = districts[0]
            self._emit(seen.Pawn(districts[0], 0))
        elif card == "crowd":
            self.token = args[0]
            self._emit(seen.TokenPlaced(args[0], "crowd"))
            self._push(CrowdChoice(args[0]))
        elif card == "blackmail":
            assert isinstance(context, AnswerQuestion)
            self._emit(
                seen.Answered(context.name, context.attr, context.value, None, context.source)
            )
            self._after_question()

    def _resolve_detective(self, card: str, args: tuple[str, ...]) -> None:
        if card == "testimony":
            question = None
            if len(args) > 2:
                attr, value = args[2].split(":", 1)
                question = (attr, value)
            self._push(PickWitness(args[:2], question))
        elif card == "curfew":
            attr, value = args[0].split(":", 1)
            self.curfew = (attr, value)
        elif card == "vehicle":
            dest = read_district(args[0])
            assert dest is not None
            self.pawn = dest
            self._emit(seen.Pawn(dest, 0))
        elif card == "cordon":
            self.cordon = read_district(args[0])
        elif card == "raid":
            self._group_move(DETECTIVE, args[0], "raid", chosen=True)
        elif card == "profile":
            self._push(NameMotive(args))
        elif card == "covert-watch":
            if args[0] in self.pos:
                self._place_token(args[0], "covert-watch")
        elif card == "cooperation":
            if self._building_actions(args[0]):
                self._push(Cooperation(args[0]))
        elif card == "patrols":
            self.intimidated.discard(args[0])
            self._emit(seen.Calm((args[0],), "patrols"))
        elif card == "confession":
            group = None if self._figurant is None else self.resident(self._figurant).group
            self._emit(seen.Confession(self._observed("confession", group)))
