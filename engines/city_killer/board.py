"""The City Killer position and its bookkeeping: the residents, the pawn, the killer's
secrets, the stack of decision frames, and what the rules ask of a position (who may be
questioned, killed, moved where). The referee (engines.city_killer.state) is this board with
one mixin per part of the rules over it: supplies, the Killer phase, the Detective phase,
questioning, cards and reaction windows, the City phase."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from engines.actions import Action
from engines.city_killer import actions as act
from engines.city_killer.frames import Frame, KillerTurn, Opening
from engines.city_killer.material import (
    CENTRAL,
    DETECTIVE,
    DISTRICTS,
    KILLER,
    ROW,
    District,
    Resident,
    Scene,
    neighbours,
    questions,
)
from engines.city_killer.observations import End, Moved, TokenPlaced
from engines.state import State
from engines.values import Seat

if TYPE_CHECKING:
    from engines.city_killer.game import CityKiller

UNKNOWN = "?"

Stage = Literal[
    "setup", "killer", "d1", "d1-evidence", "d2", "d3", "c1", "c2-detective", "c3", "end",
    "accusation",
]  # fmt: skip
"""Where the round is (rules section 3): the killer's phase, the detective's steps d1-d3, the
city's steps c1-c3, the round's end; "setup" before the first round, "accusation" after the
fifth murder. The state's JSON names it."""
MAX_STEPS = 8
"""Pawn steps per Detective phase (chosen): free steps could otherwise go on for ever."""
COUNTERS = {"sixth-sense": DETECTIVE, "bribe": KILLER}


def other(seat: str) -> str:
    return DETECTIVE if seat == KILLER else KILLER


class Board(State):
    """Public fields are what both seats see; hidden ones start with an underscore: the
    killer's identity, figurant, motive and allies, his drawn tokens and hand, the stack, the
    decks' orders, the cards under the scenes, the detective's hand and evidence tokens."""

    game: CityKiller

    if TYPE_CHECKING:  # the mixins that call across parts of the rules; each defines its own

        def _play(self, seat: str, action: act.Play, keep_context: bool = False) -> None: ...
        def _card_plays(self) -> list[Action]: ...
        def _group_move(self, seat: str, group: str, source: str, chosen: bool = False) -> None: ...
        def _murder(self, victims: tuple[str, ...], district: District, bomb: bool) -> None: ...
        def _pop_killer_frame(self) -> None: ...
        def _ask(self, action: act.Ask, source: str, blackmail: bool) -> None: ...
        def _after_question(self) -> None: ...
        def _surveil(self, name: str) -> None: ...
        def _surveillance(self, name: str) -> None: ...

    def __init__(self, game: CityKiller, rng: random.Random) -> None:
        super().__init__(game, rng)
        opt = game.options
        self.residents: tuple[str, ...] = ()
        self.pos: dict[str, District] = {}
        self.dead: list[str] = []
        self.earlier_victims: list[str] = []  # ordinary victims H, in order
        self.scenes: list[tuple[District, tuple[str, ...], bool]] = []  # (district, dead, bomb)
        self.intimidated: set[str] = set()
        self.buildings: dict[District, str] = {}
        self.pawn: District | None = None
        self.token: str | None = None  # the resident carrying the surveillance token
        self.token_fresh = False  # placed in this phase
        self.token_lost = False  # option token_on_killed=lost, after its carrier died
        self.refusals = 0
        self.round = 1
        self.stage: Stage = "setup"
        self.murdered = False  # a murder (or the Bomb) this round
        self.frames: list[Frame] = []
        self.chain: list[tuple[str, str, tuple[str, ...]]] = []
        self.context: Opening | None = None  # the window the chain's first card answered
        self.killer_hand_size = 0
        self.killer_discard: list[str] = []
        self.row: list[str | None] = [None] * ROW
        self.row_limit = ROW
        self.row_destroyed = False
        self.detective_discard: list[str] = []
        self.evidence_discard: list[str] = []
        self.revealed_tokens: list[str] = []  # every stack token drawn, in order
        self.out_tokens: list[str] = []  # tokens of empty groups, out of the game
        self.strike: str | None = None
        self.stubborn: District | None = None
        self.curfew: tuple[str, str] | None = None  # for the next Killer phase
        self.curfew_now: tuple[str, str] | None = None  # in force this Killer phase
        self.cordon: District | None = None
        self.mp = 0
        self.steps = 0
        self.used: list[str] = []  # action types used this Detective phase
        self.checks = 0
        self.examined = False
        self.questioned: set[str] = set()  # this phase
        self.over = False
        self.reason = ""
        self._winners: tuple[str, ...] = ()
        self.accusation: tuple[str, str] | None = None
        self.adjacency: str = opt["adjacency"]
        # hidden
        self._identity = ""
        self._figurant: str | None = None
        self._motive = ""
        self._allies = ""
        self._drawn: tuple[str, ...] = ()
        self._stack: list[str] = []
        self._killer_deck: list[str] = []
        self._under: list[list[str]] = []
        self._killer_hand: list[str] = []
        self._detective_deck: list[str] = []
        self._detective_hand: list[str] = []
        self._evidence: list[str] = []
        self._supply: list[str] = []
        self._pending_stack_tokens: list[str] = []
        self._script: dict[str, deque[Any]] | None = None  # a view's observed outcomes
        self._stood_in = False  # a view replayed an outcome its record had not shown yet
        self._kept: deque[str] = deque()  # a view's cards the killer kept, still to replay

    @property
    def to_move(self) -> Seat | None:
        if self.over:
            return None
        return self.frames[-1].seat

    def secrets(self) -> tuple[str, str | None, str, str]:
        """The killer's identity, his figurant (None while undrawn or unused), his motive and
        his allies' group: the truth ("" while not chosen yet)."""
        return self._identity, self._figurant, self._motive, self._allies

    def detective_hand(self) -> list[str]:
        """The cards in the detective's hand (the truth)."""
        return list(self._detective_hand)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self._winners

    @property
    def murders(self) -> int:
        return len(self.scenes)

    @property
    def living(self) -> list[str]:
        return [name for name in self.residents if name in self.pos]

    def at(self, district: District) -> list[str]:
        return [name for name in self.residents if self.pos.get(name) == district]

    def scene_districts(self) -> set[District]:
        return {district for district, _, _ in self.scenes}

    def resident(self, name: str) -> Resident:
        return self.game.resident(name)

    def questionable(self, name: str) -> bool:
        """Alive, not intimidated (the default reading of section 5.1), not on strike, not in
        the Stubborn witnesses' district."""
        if name not in self.pos:
            return False
        if self.game.options["questionable"] == "excluded" and name in self.intimidated:
            return False
        if self.game.options["questionable"] == "literal" and name not in self.intimidated:
            return False
        if self.strike is not None and self.resident(name).group == self.strike:
            return False
        return self.pos[name] != self.stubborn

    def is_liar(self, name: str) -> bool:
        return name in (self._identity, self._figurant) or self.resident(name).group == self._allies

    def scene_of(self, name: str) -> Scene:
        district = self.pos[name]
        return Scene(
            self.resident(name),
            len(self.at(district)) == 1,
            name in self.intimidated,
            district in CENTRAL,
            tuple(self.resident(x) for x in self.earlier_victims),
        )

    def protected(self, name: str, killing: bool) -> bool:
        """In the pawn's district, or shielded by Curfew or Cordon (`killing`: the Killer
        phase's protections; otherwise those that will hold in the next one)."""
        district = self.pos[name]
        if district == self.pawn or district == self.cordon:
            return True
        curfew = self.curfew_now if killing else self.curfew
        if curfew is None:
            return False
        attr, value = curfew
        return self.resident(name).attribute(attr) == value

    def legal_victim(self, name: str, killing: bool = True) -> bool:
        """Section 4.1: alive, not the killer, not by the pawn, fits the motive, unprotected."""
        if name not in self.pos or name == self._identity:
            return False
        if self.protected(name, killing):
            return False
        return self.game.predicates.fits(self._motive, self.scene_of(name))

    def can_enter(self, name: str, dest: District) -> bool:
        """Whether `name` may move to `dest`: room there, no Cordon on either end."""
        here = self.pos[name]
        if dest == here or self.cordon in (here, dest):
            return False
        if self.game.options["crime_scene_blocks_residents"] and dest in self.scene_districts():
            return False
        return len(self.at(dest)) < self.game.options["district_capacity"]

    def group_targets(self, name: str) -> list[District]:
        """Where a group move (C2, Fire station, Raid) may take `name`."""
        if self.game.options["group_move_distance"] == "any":
            places: Iterable[District] = DISTRICTS
        else:
            places = neighbours(self.pos[name], self.adjacency)
        return [d for d in places if self.can_enter(name, d)]

    def near(self, district: District) -> set[District]:
        return {district, *neighbours(district, self.adjacency)}

    def hand_size(self, seat: str) -> int:
        return self.killer_hand_size if seat == KILLER else len(self._detective_hand)

    def __repr__(self) -> str:
        return (
            f"<CityKillerState round {self.round} {self.stage} murders {self.murders} "
            f"to_move={self.to_move}>"
        )

    def _pop(self) -> Frame:
        return self.frames.pop()

    def _push(self, frame: Frame) -> None:
        self.frames.append(frame)

    def _move_resident(self, name: str, dest: District, source: str) -> None:
        self.pos[name] = dest
        self._emit(Moved(name, dest, source))

    def _place_token(self, name: str, source: str) -> None:
        self.token, self.token_fresh = name, True
        self._emit(TokenPlaced(name, source))

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        self.over, self._winners, self.reason = True, winners, reason
        self.frames.clear()
        self._emit(End(winners, reason, self._identity, self._motive, self._allies, self._figurant))

    def _intimidation_targets(self) -> list[str]:
        return [n for n in self.living if n not in self.intimidated and self.pos[n] != self.pawn]

    def intimidations_left(self, frame: KillerTurn) -> int:
        """Intimidations still owed: no more than there are residents to flip (a card may
        have moved some next to the pawn)."""
        return min(frame.left, len(self._intimidation_targets()))

    def _unplaced(self) -> list[str]:
        return [n for n in self.residents if n not in self.pos]

    def question_choices(self) -> tuple[tuple[str, str], ...]:
        """Every (attribute, value) a resident may be asked about, under the options."""
        return questions(self.game.options["question_attributes"], self.game.professions)

    def _to_question(self, district: District, asked: set[str]) -> list[str]:
        per_phase = self.game.options["question_limit"] == "per_phase"
        return [
            n
            for n in self.at(district)
            if self.questionable(n) and n not in asked and not (per_phase and n in self.questioned)
        ]

    def _building_actions(self, kind: str) -> list[Action]:
        """What the building of `kind` (police, diner, hospital, fire) next to the pawn
        offers now, to the residents within reach."""
        assert self.pawn is not None
        near = self.near(self.pawn)
        in_reach = [n for n in self.living if self.pos[n] in near]
        return _BUILDING_ACTIONS[kind](self, in_reach)

    def _police(self, in_reach: list[str]) -> list[Action]:
        if self.token_lost:
            return []
        return [act.Named("police", n) for n in in_reach if n != self.token]

    def _diner(self, in_reach: list[str]) -> list[Action]:
        per_phase = self.game.options["question_limit"] == "per_phase"
        return [
            act.Ask("diner", n, attr, value)
            for n in in_reach
            if self.questionable(n) and not (per_phase and n in self.questioned)
            for attr, value in self.question_choices()
        ]

    def _hospital(self, in_reach: list[str]) -> list[Action]:
        return [act.Named("hospital", n) for n in in_reach if n in self.intimidated]

    def _fire(self, in_reach: list[str]) -> list[Action]:
        return [act.Verb("fire")] if self._stack else []

    def _discard(self, seat: str, card: str) -> None:
        (self.killer_discard if seat == KILLER else self.detective_discard).append(card)


_BUILDING_ACTIONS: dict[str, Callable[[Board, list[str]], list[Action]]] = {
    "police": Board._police,
    "diner": Board._diner,
    "hospital": Board._hospital,
    "fire": Board._fire,
}
"""The actions each kind of building offers (`Board._building_actions`)."""
