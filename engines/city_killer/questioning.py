"""City Killer's questions and surveillance (rules sections 5.3-5.5): interrogation, the
diner and Testimony, the killer's answers (honest residents truthfully, liars as he likes),
Profile, and surveillance with the Crowd window."""

from __future__ import annotations

from engines.actions import Action
from engines.city_killer import actions as act
from engines.city_killer import observations as seen
from engines.city_killer.frames import (
    AnswerQuestion,
    AskWitness,
    CrowdChoice,
    CrowdWindow,
    Interrogation,
    NameMotive,
    PickWitness,
)
from engines.city_killer.material import KILLER
from engines.city_killer.supplies import Supplies


class Questioning(Supplies):
    """Questions, answers, Testimony, Profile and surveillance."""

    def _legal_interrogation(self, frame: Interrogation) -> list[Action]:
        assert self.pawn is not None
        names = self._to_question(self.pawn, set(frame.asked))
        actions: list[Action] = [
            act.Ask("ask", n, attr, value) for n in names for attr, value in self.question_choices()
        ]
        return [*actions, act.Verb("done")]

    def _legal_testimony(self, frame: AskWitness) -> list[Action]:
        return [act.Ask("ask", frame.name, attr, value) for attr, value in self.question_choices()]

    def _legal_answer(self, frame: AnswerQuestion) -> list[Action]:
        truth = self.resident(self._identity).attribute(frame.attr) == frame.value
        if self.is_liar(frame.name):
            actions: list[Action] = [act.Answer(True), act.Answer(False)]
        else:
            actions = [act.Answer(truth)]
        if frame.blackmail and "blackmail" in self._killer_hand:
            actions.append(act.Play("blackmail"))
        return actions

    def _legal_pick(self, frame: PickWitness) -> list[Action]:
        return [act.Named("pick", n) for n in frame.pair]

    def _legal_profile(self, frame: NameMotive) -> list[Action]:
        allowed = [m for m in frame.pair if m != self._motive] or list(frame.pair)
        return [act.Reveal(m) for m in allowed]

    def _legal_crowd(self, frame: CrowdWindow) -> list[Action]:
        actions: list[Action] = [act.Verb("pass")]
        if "crowd" in self._killer_hand:
            name = frame.name
            near = self.near(self.pos[name])
            actions += [
                act.Play("crowd", (n,)) for n in self.living if n != name and self.pos[n] in near
            ]
        return actions

    def _legal_crowd_choice(self) -> list[Action]:
        return [act.Verb("proceed"), act.Verb("decline")]

    def _ask(self, action: act.Ask, source: str, blackmail: bool) -> None:
        self._emit(seen.Question(action.name, action.attr, action.value, source))
        self.questioned.add(action.name)
        self._push(AnswerQuestion(action.name, action.attr, action.value, source, blackmail))

    def _do_interrogation(self, frame: Interrogation, action: Action) -> None:
        if action == act.Verb("done"):
            self._pop()
            return
        assert isinstance(action, act.Ask)
        frame = frame.asking(action.name)
        self.frames[-1] = frame
        trigger = self.game.options["blackmail_trigger"]
        blackmail = (
            frame.start >= 2 if trigger == "two_questionable" else len(frame.asked) in (2, 3)
        )
        self._ask(action, "interrogate", blackmail)

    def _after_question(self) -> None:
        """An interrogation with nobody left to ask ends by itself."""
        if self.frames and isinstance(frame := self.frames[-1], Interrogation):
            assert self.pawn is not None
            if not self._to_question(self.pawn, set(frame.asked)):
                self._pop()

    def _do_answer(self, frame: AnswerQuestion, action: Action) -> None:
        self._pop()
        if isinstance(action, act.Play):
            self.context = frame
            self._play(KILLER, action, keep_context=True)
            return
        assert isinstance(action, act.Answer)
        self._emit(seen.Answered(frame.name, frame.attr, frame.value, action.yes, frame.source))
        self._after_question()

    def _do_testimony(self, action: Action) -> None:
        assert isinstance(action, act.Ask)
        self._pop()
        self._ask(action, "testimony", blackmail=False)

    def _do_pick(self, frame: PickWitness, action: Action) -> None:
        assert isinstance(action, act.Named)
        self._pop()
        self._emit(seen.Witness(action.name, frame.pair))
        if frame.question is not None:
            attr, value = frame.question
            self._ask(act.Ask("ask", action.name, attr, value), "testimony", blackmail=False)
        else:
            self._push(AskWitness(action.name))

    def _do_profile(self, frame: NameMotive, action: Action) -> None:
        assert isinstance(action, act.Reveal)
        self._pop()
        self._emit(seen.Profile(frame.pair, action.motive))

    def _surveil(self, name: str) -> None:
        self._emit(seen.Surveil(name))
        if self.killer_hand_size:
            self._push(CrowdWindow(name))
        else:
            self._surveillance(name)

    def _surveillance(self, name: str) -> None:
        """The token returns; the killer answers truthfully whether he could kill `name` now."""
        self.token = None
        district = self.pos[name]
        scene = self.scene_of(name)
        blocked = self.protected(name, killing=False)
        if self.game.options["surveillance_scope"] == "full":
            truth = self.legal_victim(name, killing=False)
        else:
            truth = name != self._identity and self.game.predicates.fits(self._motive, scene)
        answer = self._observed("surveillance", truth)
        self._emit(
            seen.Surveillance(
                name=name,
                district=district,
                alone=scene.alone,
                intimidated=scene.intimidated,
                blocked=blocked,
                history=tuple(self.earlier_victims),
                answer=answer,
            )
        )

    def _do_crowd(self, frame: CrowdWindow, action: Action) -> None:
        self._pop()
        if isinstance(action, act.Play):
            self.context = frame
            self._play(KILLER, action, keep_context=True)
        else:
            self._surveillance(frame.name)

    def _do_crowd_choice(self, frame: CrowdChoice, action: Action) -> None:
        self._pop()
        if action == act.Verb("proceed"):
            self._surveillance(frame.name)
        else:
            if self.game.options["crowd_decline"] == "returns":
                self.token = None
            self._emit(seen.Declined(frame.name))
