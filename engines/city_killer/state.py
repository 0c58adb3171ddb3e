"""The City Killer referee: the city, the residents, both decks, the hidden killer, and the
stack of decisions pending.

Every decision is a *frame* on a stack: the seat to move answers the top frame (the killer's
turn in his phase, a question to answer, a reaction window, residents to move, ...). When the
stack is empty the round goes on by itself to the next step that needs a decision (`_advance`).
A card played goes on the *chain*; the other seat gets a reaction window whenever it holds any
card (a public count), so the windows never tell what a hand holds; passing resolves the
chain last in, first out.

A *view* (`CityKiller._view`) is a state built from one seat's observations: what that seat
cannot see is a placeholder "?", and each draw takes what the observations say it drew
(`_script`), so the seat's own legal actions can be listed from its information set.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engines.city_killer.actions import (
    Accuse,
    Answer,
    Ask,
    Discard,
    Evidence,
    Grouped,
    Keep,
    Named,
    Place,
    Placed,
    Play,
    Reveal,
    Shift,
    Verb,
    read_district,
)
from engines.city_killer.rules import (
    AGE,
    BUILDINGS,
    CENTRAL,
    DETECTIVE,
    DISTRICTS,
    GROUPS,
    KILLER,
    KILLER_PHASE_CARDS,
    MOTIVES,
    ROW,
    SCENES,
    District,
    Resident,
    Scene,
    distance,
    district_text,
    neighbours,
    questions,
)
from engines.core import Action, JsonValue, Observation, Seat, State

if TYPE_CHECKING:
    from engines.city_killer.game import CityKiller

UNKNOWN = "?"
MAX_STEPS = 8
"""Pawn steps per Detective phase (chosen): free steps could otherwise go on for ever."""
COUNTERS = {"sixth-sense": DETECTIVE, "bribe": KILLER}
Frame = dict[str, Any]


def other(seat: str) -> str:
    return DETECTIVE if seat == KILLER else KILLER


class CityKillerState(State):
    """Public fields are what both seats see; hidden ones start with an underscore: the
    killer's identity, figurant, motive and allies, his drawn tokens and hand, the stack, the
    decks' orders, the cards under the scenes, the detective's hand and evidence tokens."""

    game: CityKiller

    def __init__(self, game: CityKiller, rng: random.Random) -> None:
        super().__init__(game, rng)
        opt = game.options
        self.residents: tuple[str, ...] = ()
        self.pos: dict[str, District] = {}
        self.dead: list[str] = []
        self.history: list[str] = []  # ordinary victims H, in order
        self.scenes: list[tuple[District, tuple[str, ...], bool]] = []  # (district, dead, bomb)
        self.intimidated: set[str] = set()
        self.buildings: dict[District, str] = {}
        self.pawn: District | None = None
        self.token: str | None = None  # the resident carrying the surveillance token
        self.token_fresh = False  # placed in this phase
        self.token_lost = False  # option token_on_killed=lost, after its carrier died
        self.refusals = 0
        self.round = 1
        self.stage = "setup"
        self.murdered = False  # a murder (or the Bomb) this round
        self.frames: list[Frame] = []
        self.chain: list[tuple[str, str, tuple[str, ...]]] = []
        self.context: Frame = {}  # what the chain's first card answered
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
        self._kept: deque[str] = deque()  # a view's cards the killer kept, still to replay

    # --- views of the public state --------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        if self.over:
            return None
        return self.frames[-1]["seat"]

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
            tuple(self.resident(x) for x in self.history),
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

    # --- randomness and hidden draws -----------------------------------------------------
    def _observed(self, kind: str, value: Any) -> Any:
        """`value`, or in a view what the observations say came out."""
        if self._script is not None:
            queue = self._script.get(kind)
            if queue:
                return queue.popleft()
            return UNKNOWN
        return value

    def _draw_detective_card(self, blind: bool) -> str | None:
        deck = self._detective_deck
        if not deck and self.game.options["empty_deck"] == "reshuffle" and self.detective_discard:
            deck.extend(self.detective_discard)
            self.detective_discard.clear()
            self.rng.shuffle(deck)
            self._emit(Observation.of("reshuffle", pile="detective-deck", cards=len(deck)))
        if not deck:
            return None
        card = self._observed("detective-card", deck.pop(0))
        if blind:
            self._emit(Observation.of("draw", pile="detective-deck", seat=DETECTIVE, card=None))
            self._emit(Observation.of("drew", pile="detective-deck", card=card), to=[DETECTIVE])
        else:
            self._emit(Observation.of("draw", pile="detective-deck", seat="row", card=card))
        return card

    def _give_evidence(self, count: int = 1) -> list[str]:
        """The detective takes `count` random evidence tokens (he alone sees their types)."""
        drawn = []
        for _ in range(count):
            if not self._supply and self.evidence_discard:
                self._supply = list(self.evidence_discard)
                self.evidence_discard.clear()
                self.rng.shuffle(self._supply)
                self._emit(Observation.of("reshuffle", pile="evidence", cards=len(self._supply)))
            if not self._supply:
                break
            token = self._observed("evidence", self._supply.pop(0))
            self._emit(Observation.of("draw", pile="evidence", seat=DETECTIVE, card=None))
            self._emit(Observation.of("drew", pile="evidence", card=token), to=[DETECTIVE])
            drawn.append(token)
        self._evidence.extend(drawn)
        return drawn

    def _killer_draws(self) -> None:
        deck = self._killer_deck
        if not deck and self.game.options["empty_deck"] == "reshuffle" and self.killer_discard:
            deck.extend(self.killer_discard)
            self.killer_discard.clear()
            self.rng.shuffle(deck)
            self._emit(Observation.of("reshuffle", pile="killer-deck", cards=len(deck)))
        if not deck:
            return
        card = self._observed("killer-card", deck.pop(0))
        self._emit(Observation.of("draw", pile="killer-deck", seat=KILLER, card=None))
        self._emit(Observation.of("drew", pile="killer-deck", card=card), to=[KILLER])
        self._killer_hand.append(card)
        self.killer_hand_size += 1

    def _draw_stack(self, seat: str, source: str) -> str | None:
        """A random stack token, shown to both: the group it names."""
        if not self._stack:
            return None
        index = self.rng.randrange(len(self._stack))
        group = self._observed("stack", self._stack[index])
        if group in self._stack:
            self._stack.remove(group)
        elif self._stack:
            self._stack.pop()
        self.revealed_tokens.append(group)
        alive = any(self.resident(n).group == group for n in self.living)
        if not alive and (source == "city" or self.game.options["fire_empty_group"] == "c2"):
            self.out_tokens.append(group)
        elif source == "fire":
            self._stack.append(group)  # shuffled back at once: draws are uniform anyway
        else:
            self._pending_stack_tokens.append(group)
        self._emit(Observation.of("token", seat=seat, group=group, source=source, empty=not alive))
        return group

    def _take_from(self, hand: list[str], card: str) -> None:
        hand.remove(card if card in hand else UNKNOWN)

    # --- legal actions ---------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        frame = self.frames[-1]
        handler = getattr(self, "_legal_" + frame["kind"].replace("-", "_"))
        actions: list[Action] = handler(frame)
        return actions

    def _legal_identity(self, frame: Frame) -> list[Action]:
        return [Named("identity", name) for name in self.residents]

    def _legal_allies(self, frame: Frame) -> list[Action]:
        return [Grouped("allies", g) for g in GROUPS if g in self._drawn]

    def _unplaced(self) -> list[str]:
        return [n for n in self.residents if n not in self.pos]

    def _legal_place(self, frame: Frame) -> list[Action]:
        """The next resident, in the public order, into any district with room."""
        capacity = self.game.options["district_capacity"]
        name = self._unplaced()[0]
        return [Place(name, d) for d in DISTRICTS if len(self.at(d)) < capacity]

    def _legal_start(self, frame: Frame) -> list[Action]:
        return [Placed("start", d) for d in DISTRICTS]

    def _intimidation_targets(self) -> list[str]:
        return [n for n in self.living if n not in self.intimidated and self.pos[n] != self.pawn]

    def _left(self, frame: Frame) -> int:
        """Intimidations still owed: no more than there are residents to flip (a card may
        have moved some next to the pawn)."""
        return min(frame["left"], len(self._intimidation_targets()))

    def _legal_killer(self, frame: Frame) -> list[Action]:
        actions: list[Action] = []
        left = self._left(frame)
        if left:
            actions += [Named("intimidate", n) for n in self._intimidation_targets()]
        for card in dict.fromkeys(self._killer_hand):
            if card in KILLER_PHASE_CARDS and (card != "bomb" or not left):
                actions += [Play(card, args) for args in self._killer_card_args(card)]
        if not left:
            actions += [Named("murder", n) for n in self.living if self.legal_victim(n)]
            actions.append(Verb("refuse"))
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

    def _legal_keep(self, frame: Frame) -> list[Action]:
        return [Keep(card) for card in dict.fromkeys(frame["cards"])]

    def _legal_displace(self, frame: Frame) -> list[Action]:
        actions: list[Action] = []
        for name in frame["names"]:
            near = [
                d for d in neighbours(self.pos[name], self.adjacency) if self.can_enter(name, d)
            ]
            anywhere = near or [d for d in DISTRICTS if self.can_enter(name, d)]
            actions += [Shift(name, d) for d in anywhere]
        return actions

    def _legal_react(self, frame: Frame) -> list[Action]:
        seat, top = frame["seat"], self.chain[-1]
        actions: list[Action] = [Verb("pass")]
        hand = self._killer_hand if seat == KILLER else self._detective_hand
        if seat == DETECTIVE and "sixth-sense" in hand and top[0] == KILLER:
            actions.append(Play("sixth-sense"))
        if seat == KILLER and "bribe" in hand and top[0] == DETECTIVE:
            actions.append(Play("bribe"))
        return actions

    def _legal_alarm(self, frame: Frame) -> list[Action]:
        actions: list[Action] = [Verb("pass")]
        if "false-alarm" in self._killer_hand and self.pawn is not None:
            actions += [
                Play("false-alarm", (district_text(d),))
                for d in DISTRICTS
                if 1 <= distance(self.pawn, d, self.adjacency) <= 2
            ]
        return actions

    def _legal_examine(self, frame: Frame) -> list[Action]:
        return [Verb("examine"), Verb("pass")]

    def _legal_keep_evidence(self, frame: Frame) -> list[Action]:
        return [Keep(t) for t in dict.fromkeys(frame["drawn"])]

    def _legal_detective(self, frame: Frame) -> list[Action]:
        assert self.pawn is not None
        opt = self.game.options
        actions: list[Action] = [Placed("move", d) for d in self._steps()]
        here = self.pawn
        building = self.buildings.get(here)
        free_actions = len(self.used) < 2
        if free_actions and "interrogate" not in self.used and self._to_question(here, set()):
            actions.append(Verb("interrogate"))
        for kind in BUILDINGS:
            if building == kind and free_actions and kind not in self.used:
                actions += self._building_actions(kind)
        examine_here = here in self.scene_districts() and not self.examined
        if opt["examine_timing"] == "action" and free_actions and examine_here:
            actions.append(Verb("examine"))
        if self.token is not None and (opt["surveil_same_phase"] or not self.token_fresh):
            actions.append(Named("surveil", self.token))
        if building is not None and building in self._evidence and self._may_check():
            actions += [Evidence(i + 1) for i, card in enumerate(self.row) if card is not None]
            if self._detective_deck or (
                opt["empty_deck"] == "reshuffle" and self.detective_discard
            ):
                actions.append(Evidence(0))
        if not opt["card_play_is_action"] or (free_actions and "card" not in self.used):
            actions += self._card_plays()
        actions.append(Verb("end"))
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

    def _to_question(self, district: District, asked: set[str]) -> list[str]:
        per_phase = self.game.options["question_limit"] == "per_phase"
        return [
            n
            for n in self.at(district)
            if self.questionable(n) and n not in asked and not (per_phase and n in self.questioned)
        ]

    def _questions(self) -> tuple[tuple[str, str], ...]:
        return questions(self.game.options["question_attributes"], self.game.professions)

    def _building_actions(self, kind: str) -> list[Action]:
        assert self.pawn is not None
        near = self.near(self.pawn)
        in_reach = [n for n in self.living if self.pos[n] in near]
        if kind == "police":
            if self.token_lost:
                return []
            return [Named("police", n) for n in in_reach if n != self.token]
        if kind == "diner":
            per_phase = self.game.options["question_limit"] == "per_phase"
            return [
                Ask("diner", n, attr, value)
                for n in in_reach
                if self.questionable(n) and not (per_phase and n in self.questioned)
                for attr, value in self._questions()
            ]
        if kind == "hospital":
            return [Named("hospital", n) for n in in_reach if n in self.intimidated]
        assert kind == "fire", kind
        return [Verb("fire")] if self._stack else []

    def _card_plays(self) -> list[Action]:
        actions: list[Action] = []
        for card in dict.fromkeys(self._detective_hand):
            actions += [Play(card, args) for args in self._detective_card_args(card)]
        return actions

    def _detective_card_args(self, card: str) -> list[tuple[str, ...]]:
        assert self.pawn is not None
        if card == "testimony":
            names = [n for n in self.living if self.questionable(n)]
            if self.game.options["question_limit"] == "per_phase":
                names = [n for n in names if n not in self.questioned]
            pairs: list[tuple[str, ...]] = [
                (a, b) for i, a in enumerate(names) for b in names[i + 1 :]
            ]
            if self.game.options["testimony_order"] == "pick_then_ask":
                return pairs
            return [(a, b, f"{t}:{v}") for a, b in pairs for t, v in self._questions()]
        if card == "curfew":
            return [*((f"age:{a}",) for a in AGE), *((f"group:{g}",) for g in GROUPS)]
        if card == "vehicle":
            return [(district_text(d),) for d in neighbours(self.pawn, self.adjacency)]
        if card == "cordon":
            return [(district_text(d),) for d in DISTRICTS]
        if card == "raid":
            return [(g,) for g in GROUPS if any(self.resident(n).group == g for n in self.living)]
        if card == "profile":
            return [(a, b) for i, a in enumerate(MOTIVES) for b in MOTIVES[i + 1 :]]
        if card == "covert-watch":
            return [] if self.token_lost else [(n,) for n in self.living if n != self.token]
        if card == "cooperation":
            if self.game.options["cooperation"] == "action" and len(self.used) >= 2:
                return []
            return [
                (kind,)
                for kind in BUILDINGS
                if self._building_actions(kind)
                and (self.game.options["cooperation"] == "bonus" or kind not in self.used)
            ]
        if card == "patrols":
            return [(n,) for n in self.living if n in self.intimidated]
        if card == "confession":
            return [()]
        assert card == "sixth-sense", card
        return []

    def _legal_interrogation(self, frame: Frame) -> list[Action]:
        assert self.pawn is not None
        names = self._to_question(self.pawn, set(frame["asked"]))
        actions: list[Action] = [
            Ask("ask", n, attr, value) for n in names for attr, value in self._questions()
        ]
        return [*actions, Verb("done")]

    def _legal_testimony(self, frame: Frame) -> list[Action]:
        return [Ask("ask", frame["name"], attr, value) for attr, value in self._questions()]

    def _legal_answer(self, frame: Frame) -> list[Action]:
        truth = self.resident(self._identity).attribute(frame["attr"]) == frame["value"]
        if self.is_liar(frame["name"]):
            actions: list[Action] = [Answer(True), Answer(False)]
        else:
            actions = [Answer(truth)]
        if frame["blackmail"] and "blackmail" in self._killer_hand:
            actions.append(Play("blackmail"))
        return actions

    def _legal_pick(self, frame: Frame) -> list[Action]:
        return [Named("pick", n) for n in frame["pair"]]

    def _legal_profile(self, frame: Frame) -> list[Action]:
        allowed = [m for m in frame["pair"] if m != self._motive] or list(frame["pair"])
        return [Reveal(m) for m in allowed]

    def _legal_crowd(self, frame: Frame) -> list[Action]:
        actions: list[Action] = [Verb("pass")]
        if "crowd" in self._killer_hand:
            name = frame["name"]
            near = self.near(self.pos[name])
            actions += [
                Play("crowd", (n,)) for n in self.living if n != name and self.pos[n] in near
            ]
        return actions

    def _legal_crowd_choice(self, frame: Frame) -> list[Action]:
        return [Verb("proceed"), Verb("decline")]

    def _legal_hand(self, frame: Frame) -> list[Action]:
        plays = self._card_plays()
        return [*plays, *(Discard(card) for card in dict.fromkeys(self._detective_hand))]

    def _legal_moves(self, frame: Frame) -> list[Action]:
        actions: list[Action] = [
            Shift(n, d) for n in frame["names"] if n in self.pos for d in self.group_targets(n)
        ]
        return [*actions, Verb("done")]

    def _legal_group(self, frame: Frame) -> list[Action]:
        alive = {self.resident(n).group for n in self.living}
        return [Grouped("group", g) for g in GROUPS if g in alive]

    def _legal_cooperation(self, frame: Frame) -> list[Action]:
        return self._building_actions(frame["building"])

    def _legal_accuse(self, frame: Frame) -> list[Action]:
        names = (
            self.living if self.game.options["accusation_target"] == "living" else self.residents
        )
        return [Accuse(n, m) for n in names for m in MOTIVES]

    def _why_illegal(self, action: Action) -> str:
        frame = self.frames[-1]
        examples = ", ".join(str(a) for a in self._legal_actions()[:6])
        return (
            f"{action} is not legal now: the {frame['seat']} is to move ({_WHAT[frame['kind']]}); "
            f"legal moves include {examples}"
        )

    # --- applying -----------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        frame = self.frames[-1]
        seat = frame["seat"]
        self._emit(Observation.of("act", seat=seat, move=self._public_text(frame, action)))
        getattr(self, "_do_" + frame["kind"].replace("-", "_"))(frame, action)
        self._advance()

    def _public_text(self, frame: Frame, action: Action) -> str:
        """The action as the other seat sees it: the killer's private choices are hidden."""
        if frame["kind"] in ("identity", "allies", "keep"):
            return f"{str(action).split()[0]} {UNKNOWN}"
        return str(action)

    def _pop(self) -> Frame:
        return self.frames.pop()

    def _push(self, kind: str, seat: str, **fields: Any) -> None:
        self.frames.append({"kind": kind, "seat": seat, **fields})

    def _do_identity(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Named)
        self._pop()
        self._identity = action.name
        self._emit(Observation.of("identity", name=action.name), to=[KILLER])
        if self.game.options["use_figurant"] and self._script is None:
            others = [n for n in self.residents if n != action.name]
            self._figurant = self.rng.choice(others)
        self._emit_secrets()

    def _emit_secrets(self) -> None:
        self._emit(
            Observation.of(
                "secrets",
                identity=self._identity,
                figurant=self._figurant,
                motive=self._motive,
                drawn=sorted(self._drawn, key=GROUPS.index),
            ),
            to=[KILLER],
        )

    def _do_allies(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Grouped)
        self._pop()
        self._allies = action.group
        self._emit(Observation.of("allies", group=action.group), to=[KILLER])

    def _do_place(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Place)
        self.pos[action.name] = action.district
        if not self._unplaced():
            self._pop()

    def _do_start(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Placed)
        self._pop()
        self.pawn = action.district

    def _do_killer(self, frame: Frame, action: Action) -> None:
        if isinstance(action, Named) and action.verb == "intimidate":
            frame["left"] = self._left(frame) - 1
            self.intimidated.add(action.name)
            self._emit(Observation.of("intimidate", name=action.name))
        elif isinstance(action, Play):
            self._play(KILLER, action)
        elif isinstance(action, Named):
            self._pop()
            self._murder((action.name,), self.pos[action.name], bomb=False)
        else:
            self._pop()
            self.refusals += 1
            self._emit(Observation.of("refusal", round=self.round, count=self.refusals))
            if self.refusals >= 2:
                self._finish((DETECTIVE,), "the killer refused a second time")

    def _murder(self, victims: tuple[str, ...], district: District, bomb: bool) -> None:
        """The crime-scene procedure (section 4.1) for a murder or the Bomb."""
        number = self.murders + 1
        if not bomb:
            (victim,) = victims
            scene = self.scene_of(victim)
            self._emit(
                Observation.of(
                    "murder",
                    victim=victim,
                    district=list(district),
                    scene=number,
                    round=self.round,
                    alone=scene.alone,
                    intimidated=scene.intimidated,
                    history=list(self.history),
                )
            )
        else:
            self._emit(
                Observation.of(
                    "bomb", district=list(district), casualties=list(victims), scene=number,
                    round=self.round,
                )
            )  # fmt: skip
        for name in victims:
            del self.pos[name]
            self.intimidated.discard(name)
            self.dead.append(name)
            if self.token == name:
                self.token = None
                self.token_lost = self.game.options["token_on_killed"] == "lost"
                self._emit(Observation.of("token-back", name=name, lost=self.token_lost))
        if not bomb or self.game.options["bomb_in_history"]:
            self.history.extend(victims)
        self.scenes.append((district, victims, bomb))
        self.murdered = True
        cards = [self._observed("scene", card) for card in self._under[number - 1]]
        self._under[number - 1] = []
        self._emit(Observation.of("scene-cards", scene=number, cards=cards), to=[KILLER])
        self._push("keep", KILLER, cards=cards)

    def _do_keep(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Keep)
        self._pop()
        cards = list(frame["cards"])
        cards.remove(action.item if action.item in cards else UNKNOWN)
        self._killer_hand.append(action.item)
        self.killer_hand_size += 1
        self._killer_deck.extend(cards)
        self._emit(Observation.of("kept", card=action.item, buried=cards), to=[KILLER])

    def _do_displace(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Shift)
        self._move_resident(action.name, action.district, "urgent call")
        frame["names"].remove(action.name)
        if not any(isinstance(a, Shift) for a in self._legal_displace(frame)):
            self._pop()

    def _move_resident(self, name: str, dest: District, source: str) -> None:
        self.pos[name] = dest
        self._emit(Observation.of("moved", name=name, district=list(dest), source=source))

    def _do_react(self, frame: Frame, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self._play(frame["seat"], action)
        else:
            self._resolve_chain()

    def _do_alarm(self, frame: Frame, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self.context = {"kind": "alarm"}
            self._play(KILLER, action, keep_context=True)

    def _do_examine(self, frame: Frame, action: Action) -> None:
        self._pop()
        if action == Verb("examine"):
            self._examine()

    def _examine(self) -> None:
        self.examined = True
        drawn = self._give_evidence(2)
        self._emit(Observation.of("examine", district=list(self.pawn or (0, 0))))
        if len(drawn) == 2:
            for token in drawn:
                self._evidence.remove(token)
            self._push("keep-evidence", DETECTIVE, drawn=drawn)

    def _do_keep_evidence(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Keep)
        self._pop()
        drawn = list(frame["drawn"])
        drawn.remove(action.item if action.item in drawn else UNKNOWN)
        self._evidence.append(action.item)
        self.evidence_discard.extend(drawn)
        self._emit(Observation.of("evidence-discard", tokens=drawn))

    def _do_detective(self, frame: Frame, action: Action) -> None:
        if isinstance(action, Placed):
            cost = self._step_cost(action.district)
            self.mp -= cost
            self.steps += 1
            self.pawn = action.district
            self._emit(Observation.of("pawn", district=list(action.district), cost=cost))
        elif action == Verb("interrogate"):
            assert self.pawn is not None
            self.used.append("interrogate")
            count = len(self._to_question(self.pawn, set()))
            self._emit(Observation.of("interrogate", district=list(self.pawn)))
            self._push("interrogation", DETECTIVE, asked=[], start=count)
        elif action == Verb("examine"):
            self.used.append("examine")
            self._examine()
        elif action == Verb("end"):
            self._pop()
            self._emit(Observation.of("investigation-over", round=self.round))
        elif isinstance(action, Named) and action.verb == "surveil":
            self._surveil(action.name)
        elif isinstance(action, Evidence):
            self._evidence_check(action.position)
        elif isinstance(action, Play):
            if self.game.options["card_play_is_action"]:
                self.used.append("card")
            self._play(DETECTIVE, action)
        else:
            self._building(action, bonus=False)

    def _building(self, action: Action, bonus: bool) -> None:
        """A building's action (police, diner, hospital, fire); `bonus` for Cooperation."""
        if isinstance(action, Named) and action.verb == "police":
            kind = "police"
            self._place_token(action.name, "police")
        elif isinstance(action, Ask):
            kind = "diner"
            self._ask(action, "diner", blackmail=False)
        elif isinstance(action, Named):
            kind = "hospital"
            self.intimidated.discard(action.name)
            self._emit(Observation.of("calm", names=[action.name], source="hospital"))
        else:
            kind = "fire"
            group = self._draw_stack(DETECTIVE, "fire")
            assert group is not None
            self._group_move(DETECTIVE, group, "fire")
        if not bonus:
            self.used.append(kind)

    def _place_token(self, name: str, source: str) -> None:
        self.token, self.token_fresh = name, True
        self._emit(Observation.of("token-placed", name=name, source=source))

    def _ask(self, action: Ask, source: str, blackmail: bool) -> None:
        self._emit(
            Observation.of("question", name=action.name, attr=action.attr, value=action.value,
                           source=source)
        )  # fmt: skip
        self.questioned.add(action.name)
        self._push("answer", KILLER, name=action.name, attr=action.attr, value=action.value,
                   source=source, blackmail=blackmail)  # fmt: skip

    def _do_interrogation(self, frame: Frame, action: Action) -> None:
        if action == Verb("done"):
            self._pop()
            return
        assert isinstance(action, Ask)
        frame["asked"].append(action.name)
        trigger = self.game.options["blackmail_trigger"]
        blackmail = (
            frame["start"] >= 2 if trigger == "two_questionable" else len(frame["asked"]) in (2, 3)
        )
        self._ask(action, "interrogate", blackmail)

    def _after_question(self) -> None:
        """An interrogation with nobody left to ask ends by itself."""
        if self.frames and self.frames[-1]["kind"] == "interrogation":
            frame = self.frames[-1]
            assert self.pawn is not None
            if not self._to_question(self.pawn, set(frame["asked"])):
                self._pop()

    def _do_answer(self, frame: Frame, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self.context = {"kind": "answer", "frame": frame}
            self._play(KILLER, action, keep_context=True)
            return
        assert isinstance(action, Answer)
        self._emit(
            Observation.of("answer", name=frame["name"], attr=frame["attr"], value=frame["value"],
                           answer=action.yes, source=frame["source"])
        )  # fmt: skip
        self._after_question()

    def _do_testimony(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Ask)
        self._pop()
        self._ask(action, "testimony", blackmail=False)

    def _do_pick(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Named)
        self._pop()
        self._emit(Observation.of("witness", name=action.name, pair=list(frame["pair"])))
        if frame.get("question"):
            attr, value = frame["question"]
            self._ask(Ask("ask", action.name, attr, value), "testimony", blackmail=False)
        else:
            self._push("testimony", DETECTIVE, name=action.name)

    def _do_profile(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Reveal)
        self._pop()
        self._emit(Observation.of("profile", pair=list(frame["pair"]), named=action.motive))

    def _surveil(self, name: str) -> None:
        self._emit(Observation.of("surveil", name=name))
        if self.killer_hand_size:
            self._push("crowd", KILLER, name=name)
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
            Observation.of(
                "surveillance", name=name, district=list(district), alone=scene.alone,
                intimidated=scene.intimidated, blocked=blocked, history=list(self.history),
                answer=answer,
            )
        )  # fmt: skip

    def _do_crowd(self, frame: Frame, action: Action) -> None:
        self._pop()
        if isinstance(action, Play):
            self.context = {"kind": "surveil", "name": frame["name"]}
            self._play(KILLER, action, keep_context=True)
        else:
            self._surveillance(frame["name"])

    def _do_crowd_choice(self, frame: Frame, action: Action) -> None:
        self._pop()
        if action == Verb("proceed"):
            self._surveillance(frame["name"])
        else:
            if self.game.options["crowd_decline"] == "returns":
                self.token = None
            self._emit(Observation.of("declined", name=frame["name"]))

    def _do_hand(self, frame: Frame, action: Action) -> None:
        self._pop()
        if isinstance(action, Discard):
            self._take_from(self._detective_hand, action.card)
            self.detective_discard.append(action.card)
            self._emit(Observation.of("discard", card=action.card))
        else:
            assert isinstance(action, Play)
            self._play(DETECTIVE, action)

    def _do_moves(self, frame: Frame, action: Action) -> None:
        if action == Verb("done"):
            self._pop()
            return
        assert isinstance(action, Shift)
        self._move_resident(action.name, action.district, frame["source"])
        frame["names"].remove(action.name)
        if not frame["names"]:
            self._pop()

    def _do_group(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Grouped)
        self._pop()
        self._emit(Observation.of("group-chosen", seat=frame["seat"], group=action.group))
        self._group_move(frame["seat"], action.group, frame["source"], chosen=True)

    def _group_move(self, seat: str, group: str, source: str, chosen: bool = False) -> None:
        names = [n for n in self.living if self.resident(n).group == group]
        if names:
            self._push("moves", seat, names=names, source=source, group=group)
        elif not chosen and (source != "fire" or self.game.options["fire_empty_group"] == "c2"):
            self._push("group", seat, source=source)

    def _do_cooperation(self, frame: Frame, action: Action) -> None:
        self._pop()
        self._building(action, bonus=self.game.options["cooperation"] == "bonus")

    def _do_accuse(self, frame: Frame, action: Action) -> None:
        assert isinstance(action, Accuse)
        self._pop()
        self.accusation = (action.name, action.motive)
        right = action.name == self._identity and action.motive == self._motive
        self._emit(Observation.of("accusation", name=action.name, motive=action.motive))
        if right:
            self._finish((DETECTIVE,), "the detective named the killer and his motive")
        else:
            self._finish((KILLER,), "the detective's accusation was wrong")

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        self.over, self._winners, self.reason = True, winners, reason
        self.frames.clear()
        self._emit(
            Observation.of(
                "end", winners=list(winners), reason=reason, identity=self._identity,
                motive=self._motive, allies=self._allies, figurant=self._figurant,
            )
        )  # fmt: skip

    # --- evidence checks and the card row --------------------------------------------------
    def _evidence_check(self, position: int) -> None:
        assert self.pawn is not None
        kind = self.buildings[self.pawn]
        self._take_from(self._evidence, kind)
        self.evidence_discard.append(kind)
        self.checks += 1
        if position == 0:
            self._emit(Observation.of("evidence-check", token=kind, position=0, card=None))
            card = self._draw_detective_card(blind=True)
        else:
            card = self.row[position - 1]
            self._emit(Observation.of("evidence-check", token=kind, position=position, card=card))
            self.row[1:position] = self.row[0 : position - 1]
            self.row[0] = None
            self._refill(1)
        if card is not None:
            self._gain(card)

    def _refill(self, count: int) -> None:
        """Deal up to `count` cards into position 1 onwards, while the row has room."""
        for _ in range(count):
            if sum(c is not None for c in self.row) >= self.row_limit or self.row[0] is not None:
                return
            card = self._draw_detective_card(blind=False)
            if card is None:
                return
            self.row[0] = card

    def _gain(self, card: str) -> None:
        self._detective_hand.append(card)
        if len(self._detective_hand) > 1:
            self._push("hand", DETECTIVE)

    def _city_row(self) -> None:
        """C3: the rightmost card leaves, the rest slide right, a new card comes in at
        position 1 (after Destroy evidence, the row is refilled to three)."""
        cards = [c for c in self.row if c is not None]
        if cards:
            self.detective_discard.append(cards.pop())
        deal = 1
        if self.row_destroyed:
            self.row_destroyed = False
            if self.game.options["destroy_evidence_end"] == "refill":
                self.row_limit = ROW
                deal = ROW - len(cards)
        self.row = [None] * (ROW - len(cards)) + cards
        for _ in range(deal):
            if len(cards) >= self.row_limit:
                break
            card = self._draw_detective_card(blind=False)
            if card is None:
                break
            self.row[max(i for i, c in enumerate(self.row) if c is None)] = card
            cards.append(card)
        self._emit(Observation.of("row", cards=list(self.row)))

    # --- cards ---------------------------------------------------------------------------------
    def _play(self, seat: str, action: Play, keep_context: bool = False) -> None:
        """Put a card on the chain and open the other seat's reaction window."""
        if not keep_context and not self.chain:
            self.context = {}
        if seat == KILLER:
            self._take_from(self._killer_hand, action.card)
            self.killer_hand_size -= 1
        else:
            self._take_from(self._detective_hand, action.card)
        self.chain.append((seat, action.card, action.args))
        self._emit(Observation.of("play", seat=seat, card=action.card, args=list(action.args)))
        opponent = other(seat)
        if action.card == "bomb" or not self.hand_size(opponent):
            self._resolve_chain()
        else:
            self._push("react", opponent)

    def _resolve_chain(self) -> None:
        """Last in, first out: a counter cancels the card under it."""
        chain, context = self.chain, self.context
        self.chain, self.context = [], {}
        while chain:
            seat, card, args = chain.pop()
            self._discard(seat, card)
            if card in COUNTERS:
                cancelled = chain.pop()
                self._discard(cancelled[0], cancelled[1])
                self._emit(Observation.of("cancelled", seat=cancelled[0], card=cancelled[1]))
                if self.game.options["symbol_on_cancel"]:
                    self._symbol(cancelled[0], cancelled[1])
                if not chain:
                    self._cancelled(context)
                continue
            self._resolve(seat, card, args, context)

    def _discard(self, seat: str, card: str) -> None:
        (self.killer_discard if seat == KILLER else self.detective_discard).append(card)

    def _cancelled(self, context: Frame) -> None:
        """What follows when the card a reaction answered was cancelled."""
        kind = context.get("kind")
        if kind == "surveil":
            self._surveillance(context["name"])
        elif kind == "answer":
            frame = dict(context["frame"], blackmail=False)
            self.frames.append(frame)

    def _symbol(self, seat: str, card: str) -> None:
        opt = self.game.options
        if seat == KILLER and card in opt["killer_symbol_cards"]:
            self._give_evidence(1)
        if seat == DETECTIVE and card in opt["detective_symbol_cards"]:
            self._killer_draws()

    def _resolve(self, seat: str, card: str, args: tuple[str, ...], context: Frame) -> None:
        if seat == KILLER:
            self._resolve_killer(card, args, context)
        else:
            self._resolve_detective(card, args)
        self._symbol(seat, card)

    def _resolve_killer(self, card: str, args: tuple[str, ...], context: Frame) -> None:
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
            for frame in self.frames:
                if frame["kind"] == "killer":
                    eligible = len(self._intimidation_targets())
                    frame["left"] = min(frame["left"] + 2, eligible)
                    if self.game.options["few_to_intimidate"] == "none" and eligible < 2:
                        frame["left"] = 0
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
            self._emit(Observation.of("pawn", district=list(districts[0]), cost=0))
        elif card == "crowd":
            self.token = args[0]
            self._emit(Observation.of("token-placed", name=args[0], source="crowd"))
            self._push("crowd-choice", DETECTIVE, name=args[0])
        elif card == "blackmail":
            frame = context["frame"]
            self._emit(
                Observation.of("answer", name=frame["name"], attr=frame["attr"],
                               value=frame["value"], answer=None, source=frame["source"])
            )  # fmt: skip
            self._after_question()

    def _pop_killer_frame(self) -> None:
        self.frames = [f for f in self.frames if f["kind"] != "killer"]

    def _resolve_detective(self, card: str, args: tuple[str, ...]) -> None:
        if card == "testimony":
            question = tuple(args[2].split(":", 1)) if len(args) > 2 else None
            self._push("pick", KILLER, pair=list(args[:2]), question=question)
        elif card == "curfew":
            attr, value = args[0].split(":", 1)
            self.curfew = (attr, value)
        elif card == "vehicle":
            dest = read_district(args[0])
            assert dest is not None
            self.pawn = dest
            self._emit(Observation.of("pawn", district=list(dest), cost=0))
        elif card == "cordon":
            self.cordon = read_district(args[0])
        elif card == "raid":
            self._group_move(DETECTIVE, args[0], "raid", chosen=True)
        elif card == "profile":
            self._push("profile", KILLER, pair=list(args))
        elif card == "covert-watch":
            if args[0] in self.pos:
                self._place_token(args[0], "covert-watch")
        elif card == "cooperation":
            if self._building_actions(args[0]):
                self._push("cooperation", DETECTIVE, building=args[0])
        elif card == "patrols":
            self.intimidated.discard(args[0])
            self._emit(Observation.of("calm", names=[args[0]], source="patrols"))
        elif card == "confession":
            group = None if self._figurant is None else self.resident(self._figurant).group
            self._emit(Observation.of("confession", group=self._observed("confession", group)))

    # --- the round ------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the round's automatic steps until someone must decide or the game is over."""
        while not self.frames and not self.over and not self.chain:
            getattr(self, "_stage_" + self.stage.replace("-", "_"))()

    def begin(self) -> None:
        """Setup decisions: the placement and the identity (options), the allies, the pawn."""
        self._push("start", DETECTIVE)
        self._push("allies", KILLER)
        if not self._identity:
            self._push("identity", KILLER)
        else:
            self._emit_secrets()
        if self._unplaced():
            self._push("place", DETECTIVE)
        self.stage = "killer"

    def _stage_killer(self) -> None:
        self.curfew_now, self.curfew = self.curfew, None
        self.murdered = False
        eligible = len(self._intimidation_targets())
        left = min(2, eligible)
        if eligible < 2 and self.game.options["few_to_intimidate"] == "none":
            left = 0
        self._emit(Observation.of("round", round=self.round))
        self._push("killer", KILLER, left=left)
        self.stage = "d1"

    def _stage_d1(self) -> None:
        self.curfew_now = None
        self.cordon = None
        self.mp, self.steps, self.used, self.checks = 2, 0, [], 0
        self.examined, self.questioned, self.token_fresh = False, set(), False
        self.stage = "d1-evidence"
        if self.murdered:
            district = self.scenes[-1][0]
            self.pawn = district
            self._emit(Observation.of("pawn", district=list(district), cost=0))
            names = self.at(district)
            if names:
                self._push("displace", DETECTIVE, names=names)

    def _stage_d1_evidence(self) -> None:
        self.stage = "d2"
        if self.murdered or self.game.options["evidence_on_no_murder"]:
            self._give_evidence(1)
        if self.murdered and self.killer_hand_size:
            self._push("alarm", KILLER)

    def _stage_d2(self) -> None:
        self.stage = "d3"
        timing = self.game.options["examine_timing"]
        if timing == "step" and self.pawn in self.scene_districts():
            self._push("examine", DETECTIVE)

    def _stage_d3(self) -> None:
        self.stage = "c1"
        self._push("detective", DETECTIVE)

    def _stage_c1(self) -> None:
        self.strike, self.stubborn, self.token_fresh = None, None, False
        calmed = [n for n in self.living if n in self.intimidated and self.pos[n] == self.pawn]
        self.intimidated -= set(calmed)
        self._emit(Observation.of("calm", names=calmed, source="city"))
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
            self._push("accuse", DETECTIVE)
        else:
            self.round += 1
            self.stage = "killer"

    # --- checks and copies -------------------------------------------------------------------
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
        holding = not any(f["kind"] == "hand" for f in self.frames) and not self.chain
        if len(self._detective_hand) > 1 and holding:
            broken.append("the detective holds more than one card")
        if self.token is not None and self.token not in self.pos:
            broken.append("the surveillance token is on a dead resident")
        if self.killer_hand_size != len(self._killer_hand):
            broken.append("the killer's hand size is not his hand's")
        return broken

    def clone(self) -> CityKillerState:
        twin = copy.copy(self)
        self._copy_core_into(twin)
        for name in _MUTABLE:
            setattr(twin, name, copy.deepcopy(getattr(self, name)))
        return twin

    def _to_dict(self) -> dict[str, JsonValue]:
        def places(items: Iterable[tuple[str, District]]) -> list[JsonValue]:
            return [[name, list(d)] for name, d in items]

        return {
            "round": self.round,
            "stage": self.stage,
            "positions": places((n, self.pos[n]) for n in self.residents if n in self.pos),
            "dead": list(self.dead),
            "history": list(self.history),
            "scenes": [[list(d), list(v), b] for d, v, b in self.scenes],
            "intimidated": sorted(self.intimidated),
            "buildings": [[list(d), kind] for d, kind in sorted(self.buildings.items())],
            "pawn": None if self.pawn is None else list(self.pawn),
            "token": self.token,
            "refusals": self.refusals,
            "frames": [_plain(frame) for frame in self.frames],
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


def _plain(value: Any) -> JsonValue:
    if isinstance(value, dict):
        return [[key, _plain(item)] for key, item in sorted(value.items())]
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, set):
        return sorted(value)
    return value


_MUTABLE = (
    "pos", "dead", "history", "scenes", "intimidated", "buildings", "frames", "chain", "context",
    "killer_discard", "row", "detective_discard", "evidence_discard", "revealed_tokens",
    "out_tokens", "used", "questioned", "_stack", "_killer_deck", "_under", "_killer_hand",
    "_detective_deck", "_detective_hand", "_evidence", "_supply", "_pending_stack_tokens",
    "_script", "_kept",
)  # fmt: skip
_WHAT = {
    "identity": "choosing his identity",
    "allies": "choosing his allies",
    "place": "placing the residents, in the order drawn",
    "start": "placing his pawn",
    "killer": "intimidating, playing cards, then the murder",
    "keep": "keeping one of the two cards",
    "displace": "moving the residents off the crime scene",
    "react": "a reaction window: play a counter or pass",
    "alarm": "the False alarm window: play it or pass",
    "examine": "examining the crime scene or passing",
    "keep-evidence": "keeping one of the two evidence tokens",
    "detective": "investigating",
    "interrogation": "asking the residents here, or done",
    "answer": "answering the question",
    "pick": "picking the witness",
    "testimony": "asking the witness",
    "profile": "naming a motive that is not his",
    "crowd": "the Crowd window: play it or pass",
    "crowd-choice": "proceeding with the surveillance or declining",
    "hand": "playing or discarding a card (one card at most)",
    "moves": "moving residents of the group, or done",
    "group": "choosing a group to move",
    "cooperation": "the building action of Cooperation",
    "accuse": "the accusation",
}
