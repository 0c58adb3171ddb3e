"""City Killer's setup decisions and Killer phase (rules sections 3 and 4.1): the identity,
the allies, the placement and the pawn; intimidation, the killer's cards, the murder and its
crime-scene procedure, refusals."""

from __future__ import annotations

from engines.actions import Action
from engines.city_killer import actions as act
from engines.city_killer import observations as seen
from engines.city_killer.board import UNKNOWN
from engines.city_killer.frames import (
    ChooseAllies,
    ChooseIdentity,
    KeepCard,
    KillerTurn,
    PlacePawn,
    PlaceResidents,
)
from engines.city_killer.material import (
    DETECTIVE,
    DISTRICTS,
    GROUPS,
    KILLER,
    KILLER_PHASE_CARDS,
    District,
    distance,
    district_text,
    neighbours,
)
from engines.city_killer.supplies import Supplies


class KillerPhase(Supplies):
    """The setup decisions and the Killer phase."""

    def begin(self) -> None:
        """Setup decisions: the placement and the identity (options), the allies, the pawn."""
        self._push(PlacePawn())
        self._push(ChooseAllies())
        if not self._identity:
            self._push(ChooseIdentity())
        else:
            self._emit_secrets()
        if self._unplaced():
            self._push(PlaceResidents())
        self.stage = "killer"

    def _stage_killer(self) -> None:
        self.curfew_now, self.curfew = self.curfew, None
        self.murdered = False
        eligible = len(self._intimidation_targets())
        left = min(2, eligible)
        if eligible < 2 and self.game.options["few_to_intimidate"] == "none":
            left = 0
        self._emit(seen.Round(self.round))
        self._push(KillerTurn(left))
        self.stage = "d1"

    def _legal_identity(self) -> list[Action]:
        return [act.Named("identity", name) for name in self.residents]

    def _legal_allies(self) -> list[Action]:
        return [act.Grouped("allies", g) for g in GROUPS if g in self._drawn]

    def _legal_place(self) -> list[Action]:
        """The next resident, in the public order, into any district with room."""
        capacity = self.game.options["district_capacity"]
        name = self._unplaced()[0]
        return [act.Place(name, d) for d in DISTRICTS if len(self.at(d)) < capacity]

    def _legal_start(self) -> list[Action]:
        return [act.Placed("start", d) for d in DISTRICTS]

    def _legal_killer(self, frame: KillerTurn) -> list[Action]:
        actions: list[Action] = []
        left = self.intimidations_left(frame)
        if left:
            actions += [act.Named("intimidate", n) for n in self._intimidation_targets()]
        for card in dict.fromkeys(self._killer_hand):
            if card in KILLER_PHASE_CARDS and (card != "bomb" or not left):
                actions += [act.Play(card, args) for args in self._killer_card_args(card)]
        if not left:
            actions += [act.Named("murder", n) for n in self.living if self.legal_victim(n)]
            actions.append(act.Verb("refuse"))
        return actions

    def _killer_card_args(self, card: str) -> list[tuple[str, ...]]:
        if card == "strike":
            return [(g,) for g in GROUPS]
        if card == "graffiti":
            return [
                (district_text(a), district_text(b))
                for a in sorted(self.buildings)
                for b in neighbours(a, self.adjacency)
                if b not in self.buildings
            ]
        if card == "abduction":
            return [
                (n, district_text(d))
                for n in self.living
                for d in DISTRICTS
                if 1 <= distance(self.pos[n], d, self.adjacency) <= 2 and self.can_enter(n, d)
            ]
        if card == "bomb":
            return [(district_text(d),) for d in DISTRICTS if self._bomb_target(d)]
        if card == "message":
            return [()]
        if card == "destroy-evidence":
            return [(str(i + 1),) for i, c in enumerate(self.row) if c is not None]
        assert card == "stubborn-witnesses", card
        return [(district_text(d),) for d in DISTRICTS]

    def _bomb_target(self, district: District) -> bool:
        """Section 2.6: residents there, no pawn, no Cordon, not the killer's district (and
        the options: a casualty fitting the motive, nobody under Curfew)."""
        here = self.at(district)
        if not here or district in (self.pawn, self.cordon) or self._identity in here:
            return False
        opt = self.game.options
        if opt["bomb_motive"] == "one_fits" and not any(
            self.game.predicates.fits(self._motive, self.scene_of(n)) for n in here
        ):
            return False
        return not (opt["bomb_curfew"] and any(self.protected(n, killing=True) for n in here))

    def _legal_keep(self, frame: KeepCard) -> list[Action]:
        return [act.Keep(card) for card in dict.fromkeys(frame.cards)]

    def _do_identity(self, action: Action) -> None:
        assert isinstance(action, act.Named)
        self._pop()
        self._identity = action.name
        self._emit(seen.Identity(action.name), to=[KILLER])
        if self.game.options["use_figurant"] and self._script is None:
            others = [n for n in self.residents if n != action.name]
            self._figurant = self._chance_draw(others, (KILLER,))
        self._emit_secrets()

    def _emit_secrets(self) -> None:
        drawn = tuple(sorted(self._drawn, key=GROUPS.index))
        self._emit(seen.Secrets(self._identity, self._figurant, self._motive, drawn), to=[KILLER])

    def _do_allies(self, action: Action) -> None:
        assert isinstance(action, act.Grouped)
        self._pop()
        self._allies = action.group
        self._emit(seen.Allies(action.group), to=[KILLER])

    def _do_place(self, action: Action) -> None:
        assert isinstance(action, act.Place)
        self.pos[action.name] = action.district
        if not self._unplaced():
            self._pop()

    def _do_start(self, action: Action) -> None:
        assert isinstance(action, act.Placed)
        self._pop()
        self.pawn = action.district

    def _do_killer(self, frame: KillerTurn, action: Action) -> None:
        if isinstance(action, act.Named) and action.verb == "intimidate":
            self.frames[-1] = KillerTurn(self.intimidations_left(frame) - 1)
            self.intimidated.add(action.name)
            self._emit(seen.Intimidation(action.name))
        elif isinstance(action, act.Play):
            self._play(KILLER, action)
        elif isinstance(action, act.Named):
            self._pop()
            self._murder((action.name,), self.pos[action.name], bomb=False)
        else:
            self._pop()
            self.refusals += 1
            self._emit(seen.Refusal(self.round, self.refusals))
            if self.refusals >= 2:
                self._finish((DETECTIVE,), "the killer refused a second time")

    def _murder(self, victims: tuple[str, ...], district: District, bomb: bool) -> None:
        """The crime-scene procedure (section 4.1) for a murder or the Bomb."""
        number = self.murders + 1
        if not bomb:
            (victim,) = victims
            scene = self.scene_of(victim)
            self._emit(
                seen.Murder(
                    victim=victim,
                    district=district,
                    scene=number,
                    round=self.round,
                    alone=scene.alone,
                    intimidated=scene.intimidated,
                    history=tuple(self.earlier_victims),
                )
            )
        else:
            self._emit(seen.Bomb(district, victims, number, self.round))
        for name in victims:
            del self.pos[name]
            self.intimidated.discard(name)
            self.dead.append(name)
            if self.token == name:
                self.token = None
                self.token_lost = self.game.options["token_on_killed"] == "lost"
                self._emit(seen.TokenBack(name, self.token_lost))
        if not bomb or self.game.options["bomb_in_history"]:
            self.earlier_victims.extend(victims)
        self.scenes.append((district, victims, bomb))
        self.murdered = True
        cards = [self._observed("scene", card) for card in self._under[number - 1]]
        self._under[number - 1] = []
        self._emit(seen.SceneCards(number, tuple(cards)), to=[KILLER])
        self._push(KeepCard(tuple(cards)))

    def _do_keep(self, frame: KeepCard, action: Action) -> None:
        assert isinstance(action, act.Keep)
        self._pop()
        cards = list(frame.cards)
        if action.item in cards:
            cards.remove(action.item)
        else:  # a view whose record stops before the killer's kept card: a stand-in goes
            cards.remove(UNKNOWN if UNKNOWN in cards else cards[-1])
        self._killer_hand.append(action.item)
        self.killer_hand_size += 1
        self._killer_deck.extend(cards)
        self._emit(seen.Kept(action.item, tuple(cards)), to=[KILLER])

    def _pop_killer_frame(self) -> None:
        self.frames = [f for f in self.frames if not isinstance(f, KillerTurn)]
