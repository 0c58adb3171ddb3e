"""City Killer (Intuition mode), configured: options, setup, views, notation, words."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, TypeVar

from engines.actions import Action, Domain, choice_domain
from engines.city_killer import actions as act
from engines.city_killer import observations as seen
from engines.city_killer.material import (
    BUILDINGS,
    CORNERS,
    DETECTIVE_CARDS,
    DETECTIVE_DECK,
    DETECTIVE_SYMBOLS,
    DISTRICTS,
    FIXED_LAYOUT,
    GROUPS,
    KILLER,
    KILLER_CARDS,
    KILLER_DECK,
    KILLER_SYMBOLS,
    LOOKS,
    MOTIVES,
    PROFESSIONS,
    ROW,
    SCENES,
    SEATS,
    UNDER_SCENE,
    District,
    Resident,
    deck,
    district_text,
    pool,
    questions,
)
from engines.city_killer.motives import FAN_CODE, Predicates, read_predicates
from engines.city_killer.notation import Notation
from engines.city_killer.pool_file import read_pool
from engines.city_killer.state import UNKNOWN, CityKillerState
from engines.deal import Dealer, SeenBy
from engines.errors import ConfigError, InvalidAction, InvalidState
from engines.game import Game, Metadata, Option, next_observation
from engines.observations import InformationSet, Observation, ObservationKind
from engines.state import Setup
from engines.values import JsonReader, JsonValue, Seat, is_int


def _count(low: int, high: int) -> Any:
    return lambda value: is_int(value) and low <= value <= high


def _cards(allowed: Sequence[str]) -> Any:
    def check(value: JsonValue) -> bool:
        return (
            isinstance(value, list | tuple)
            and all(isinstance(v, str) and v in allowed for v in value)
            and len(set(value)) == len(value)
        )

    return check


def _mix(value: JsonValue) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == len(BUILDINGS)
        and all(is_int(v) and 0 <= v <= 20 for v in value)
        and sum(value) >= 4
    )


OPTION_DOCS = {
    "identity_choice": "the killer's identity: dealt at random, or chosen by him",
    "use_figurant": "whether the killer has a figurant, a second liar",
    "questionable": "«кроме незапуганных»: intimidated residents never answer, or only they do",
    "initial_placement": "2 residents per corner and 1 elsewhere, anywhere at random, or where "
    "the detective places them",
    "adjacency": "districts touch by an edge, or also by a corner",
    "district_capacity": "living residents a district holds",
    "building_layout": "the fixed checkerboard of buildings, or a random one",
    "free_move": "a step into a crime scene or full district costs 0, or jump there from anywhere",
    "group_move_distance": "how far a group move (C2, Fire station, Raid) takes a resident",
    "crime_scene_blocks_residents": "whether residents may not enter crime-scene districts",
    "evidence_on_no_murder": "whether the urgent call gives an evidence token without a murder",
    "examine_timing": "examining a crime scene is a free step after the call, or an action",
    "evidence_mix": "evidence tokens of each type: police, diner, hospital, fire",
    "killer_symbol_cards": "killer cards after which the detective takes an evidence token",
    "detective_symbol_cards": "detective cards after which the killer draws a card",
    "symbol_on_cancel": "whether a cancelled card still triggers its symbol",
    "card_play_is_action": "whether playing a detective card uses one of his two actions",
    "cooperation": "Cooperation's building action is a bonus, or counts as an action",
    "evidence_checks": "evidence checks per Detective phase",
    "surveillance_scope": "surveillance asks 'could you kill him now' in full, or motive only",
    "surveil_same_phase": "whether surveillance may follow the token's placing in one phase",
    "crowd_decline": "after a declined Crowd the token stays on its new carrier, or returns",
    "question_attributes": "what questions may name: looks, also group, also profession",
    "question_limit": "one question per resident per questioning, or per phase",
    "blackmail_trigger": "Blackmail needs 2 questionable residents, or the 2nd-3rd question",
    "testimony_order": "Testimony: the killer picks the witness before or after the question",
    "bomb_motive": "whether a Bomb needs a casualty fitting the motive",
    "bomb_curfew": "whether Curfew protects residents from the Bomb",
    "bomb_in_history": "whether Bomb casualties count among earlier victims for motives",
    "few_to_intimidate": "with fewer than 2 residents to flip: flip them all, or none",
    "destroy_evidence_end": "after Destroy evidence the row refills to 3 at the next C3, or never",
    "empty_deck": "an empty deck is not refilled, or its discards are reshuffled",
    "fire_empty_group": "a Fire station token of an empty group: the C2 rule, or nothing",
    "token_on_killed": "the surveillance token of a killed resident returns, or is lost",
    "confession_no_figurant": "without a figurant, Confession leaves the deck or has no effect",
    "accusation_target": "the accused must be alive, or may be anyone",
    "liar_model": "the solver's model of lies: a liar's answer says nothing, or is a coin flip",
    "ally_prior": "the solver's prior on the allies: uniform, or leaning to groups with more "
    "residents in play",
}
"""What each switch of section 8 does, for `sleuth games`."""


def _documented(options: tuple[Option, ...]) -> tuple[Option, ...]:
    return tuple(dataclasses.replace(o, doc=o.doc or OPTION_DOCS.get(o.name, "")) for o in options)


class CityKiller(Game[CityKillerState]):
    """The killer hides among the residents of a 4x4 city; the detective must name him and his
    motive after the fifth murder (rules/city_killer.md). Every default below is the
    specification's; each alternative is an ambiguity of the published rules (its section 8).

    Options, defaults first: `residents` 20 (fewer for tests) drawn from the first `pool` 54
    cards of the synthetic pool, or of `pool_file` (a JSON file of residents, format in
    engines/city_killer/pool_file.py; the package ships example_pool.json); `predicates_file`
    None (the motive predicates of unofficial fan code, shipped as data in motives.json) or a
    JSON file of predicates in the same format (engines/city_killer/motives.py);
    `identity_choice` random / choose; `use_figurant` True / False; `questionable` excluded /
    literal (the source's «кроме незапуганных» read literally: only intimidated
    residents answer); `initial_placement` corners (2 in each corner, 1 elsewhere) / random /
    detective (he places each resident in turn, in the order drawn, before the killer's
    secret choices: `place Vera 1,4`; the placement is public and, made by the detective
    before anything hidden is chosen, says nothing of the killer);
    `adjacency` orthogonal / 8-way; `district_capacity` 3; `building_layout` fixed / random;
    `free_move` zero_cost_step / teleport; `group_move_distance` 1 / any;
    `crime_scene_blocks_residents` False / True; `evidence_on_no_murder` False / True;
    `examine_timing` step / action; `evidence_mix` [5, 5, 5, 5] (police, diner, hospital,
    fire); `killer_symbol_cards`, `detective_symbol_cards` (the cards with ⚑ / ✦);
    `symbol_on_cancel` False / True; `card_play_is_action` False / True; `cooperation` bonus /
    action; `evidence_checks` unlimited / 1 per phase; `surveillance_scope` full / motive_only;
    `surveil_same_phase` True / False; `crowd_decline` stays / returns; `question_attributes`
    looks / group / profession; `question_limit` per_event / per_phase; `blackmail_trigger`
    two_questionable / second_question; `testimony_order` pick_then_ask / ask_then_pick;
    `bomb_motive` none / one_fits; `bomb_curfew` False / True; `bomb_in_history` False / True;
    `few_to_intimidate` all / none; `destroy_evidence_end` refill / never; `empty_deck` none /
    reshuffle; `fire_empty_group` c2 / nothing; `token_on_killed` returns / lost;
    `confession_no_figurant` remove / no_effect; `accusation_target` living / any;
    `liar_model` free / random (how the solver weighs a liar's answer: rules section 7);
    `ally_prior` uniform / strategic (the solver's prior on the allies: the killer keeps each
    of his 3 drawn tokens in proportion to 1 + its residents in play, as more allies are more
    residents who may lie for him; only probabilities change, not what is certain).

    Chosen here beyond the specification: a pawn takes at most 8 steps a phase (free steps
    could go on for ever); the murder (or Bomb, or refusal) ends the Killer phase, so a card
    gained at the murder waits for a later window; a reaction window opens whenever the other
    seat holds any card; a Cooperation's building action reaches from the pawn's district.
    """

    metadata = Metadata(
        name="city-killer",
        title="City Killer (Intuition mode)",
        seats="killer, detective",
        hidden="the killer's identity, figurant, motive and allies; both decks; the hands; "
        "the evidence tokens; the group-token stack",
        version=1,
        max_length="6 rounds",
    )
    observation_kinds = seen.KINDS
    notation_class = Notation
    options_spec = _documented((
        Option("residents", 20, check=_count(4, 20), describe_allowed="4 to 20",
               doc="residents in play (fewer for tests)"),
        Option("pool", 54, check=_count(4, 54), describe_allowed="4 to 54, at least residents",
               doc="the first cards of the pool the residents are drawn from"),
        Option("pool_file", None, (None,), check=lambda v: isinstance(v, str) and v != "",
               describe_allowed="None (the synthetic pool) or the path of a JSON file of "
               "residents", doc="a JSON file of residents to use instead of the synthetic pool"),
        Option("predicates_file", None, (None,), check=lambda v: isinstance(v, str) and v != "",
               describe_allowed="None (the fan-code predicates shipped in motives.json) or the "
               "path of a JSON file of predicates", doc="a JSON file of motive predicates to use "
               "instead of the shipped fan-code ones"),
        Option("identity_choice", "random", ("random", "choose")),
        Option("use_figurant", True, (True, False)),
        Option("questionable", "excluded", ("excluded", "literal")),
        Option("initial_placement", "corners", ("corners", "random", "detective")),
        Option("adjacency", "orthogonal", ("orthogonal", "8-way")),
        Option("district_capacity", 3, check=_count(2, 20), describe_allowed="2 to 20"),
        Option("building_layout", "fixed", ("fixed", "random")),
        Option("free_move", "zero_cost_step", ("zero_cost_step", "teleport")),
        Option("group_move_distance", 1, (1, "any")),
        Option("crime_scene_blocks_residents", False, (False, True)),
        Option("evidence_on_no_murder", False, (False, True)),
        Option("examine_timing", "step", ("step", "action")),
        Option("evidence_mix", (5, 5, 5, 5), check=_mix,
               describe_allowed="4 counts (police, diner, hospital, fire), 0 to 20, sum >= 4"),
        Option("killer_symbol_cards", KILLER_SYMBOLS, check=_cards(KILLER_CARDS),
               describe_allowed=f"distinct killer cards ({', '.join(KILLER_CARDS)})"),
        Option("detective_symbol_cards", DETECTIVE_SYMBOLS, check=_cards(DETECTIVE_CARDS),
               describe_allowed=f"distinct detective cards ({', '.join(DETECTIVE_CARDS)})"),
        Option("symbol_on_cancel", False, (False, True)),
        Option("card_play_is_action", False, (False, True)),
        Option("cooperation", "bonus", ("bonus", "action")),
        Option("evidence_checks", "unlimited", ("unlimited", 1)),
        Option("surveillance_scope", "full", ("full", "motive_only")),
        Option("surveil_same_phase", True, (True, False)),
        Option("crowd_decline", "stays", ("stays", "returns")),
        Option("question_attributes", "looks", ("looks", "group", "profession")),
        Option("question_limit", "per_event", ("per_event", "per_phase")),
        Option("blackmail_trigger", "two_questionable", ("two_questionable", "second_question")),
        Option("testimony_order", "pick_then_ask", ("pick_then_ask", "ask_then_pick")),
        Option("bomb_motive", "none", ("none", "one_fits")),
        Option("bomb_curfew", False, (False, True)),
        Option("bomb_in_history", False, (False, True)),
        Option("few_to_intimidate", "all", ("all", "none")),
        Option("destroy_evidence_end", "refill", ("refill", "never")),
        Option("empty_deck", "none", ("none", "reshuffle")),
        Option("fire_empty_group", "c2", ("c2", "nothing")),
        Option("token_on_killed", "returns", ("returns", "lost")),
        Option("confession_no_figurant", "remove", ("remove", "no_effect")),
        Option("accusation_target", "living", ("living", "any")),
        Option("liar_model", "free", ("free", "random")),
        Option("ally_prior", "uniform", ("uniform", "strategic")),
    ))  # fmt: skip

    def _check_options(self) -> None:
        self._views: dict[Seat, tuple[tuple[Observation, ...], CityKillerState]] = {}
        self._views_lock = threading.Lock()
        opt = self.options
        cards = pool(opt["pool"]) if opt["pool_file"] is None else read_pool(opt["pool_file"])
        self._people = {r.name: r for r in cards[: opt["pool"]]}
        path = opt["predicates_file"]
        self.predicates: Predicates = FAN_CODE if path is None else read_predicates(path)
        self._names = tuple(self._people)
        if len(self._names) < opt["residents"]:
            raise ConfigError(
                f"{self.name}: the pool ({len(self._names)} cards) must hold at least the "
                f"{opt['residents']} residents in play (options 'pool', 'pool_file', 'residents')"
            )
        if opt["residents"] > len(DISTRICTS) * opt["district_capacity"] - 4:
            raise ConfigError(f"{self.name}: {opt['residents']} residents do not fit the city")
        for key in ("evidence_mix", "killer_symbol_cards", "detective_symbol_cards"):
            opt[key] = tuple(opt[key])

    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    @property
    def names(self) -> tuple[str, ...]:
        """The residents of the pool this game draws from."""
        return self._names

    @property
    def professions(self) -> tuple[str, ...]:
        """The professions a question may name when the pool comes from a file (else none:
        the synthetic pool's)."""
        if self.options["pool_file"] is None:
            return ()
        return tuple(dict.fromkeys(r.profession for r in self._people.values()))

    def resident(self, name: str) -> Resident:
        """The card of a resident of the pool."""
        return self._people[name]

    def detective_deck(self) -> list[str]:
        cards = deck(DETECTIVE_DECK)
        opt = self.options
        if not opt["use_figurant"] and opt["confession_no_figurant"] == "remove":
            cards.remove("confession")
        return cards

    # --- setup ------------------------------------------------------------------------------
    # --- chance nodes, action ids, bounds, the tensor (engines/deal.py) ---------------------
    explicit_chance = True
    chance_in_play = True

    def _deal(self, dealer: Dealer, rng: random.Random) -> CityKillerState:
        """The residents and their districts (public), the buildings when random (public),
        the killer's identity, figurant, motive and three group tokens (his alone), then the
        decks and the evidence supply put in order (nobody sees them until drawn).

        Play draws too: the figurant of a chosen identity, reshuffled discards and the
        group tokens taken from the stack."""
        opt = self.options
        residents = dealer.sample(self.names, count=opt["residents"])
        placement = self._placement(residents, dealer)
        if opt["building_layout"] == "fixed":
            layout = sorted(FIXED_LAYOUT.items())
        else:
            places = dealer.sample(DISTRICTS, count=2 * len(BUILDINGS))
            layout = sorted(zip(places, [b for b in BUILDINGS for _ in range(2)], strict=True))
        killer: SeenBy = (KILLER,)
        identity = None
        if opt["identity_choice"] == "random":
            identity = dealer.choice(residents, killer)
        figurant = None
        if identity is not None and opt["use_figurant"]:
            figurant = dealer.choice([n for n in residents if n != identity], killer)
        motive = dealer.choice(MOTIVES, killer)
        drawn = dealer.sample(GROUPS, killer, count=3)
        killer_cards = deck(KILLER_DECK)  # a sample of equal cards draws their places
        order = dealer.sample(range(len(killer_cards)), ())
        killer_deck = [killer_cards[i] for i in order]
        detective_deck = dealer.shuffle(self.detective_deck(), [()] * len(self.detective_deck()))
        supply = [b for b, n in zip(BUILDINGS, opt["evidence_mix"], strict=True) for _ in range(n)]
        supply = dealer.shuffle(supply, [()] * len(supply))
        return self.arrange(
            rng, residents, placement, [[*d, kind] for d, kind in layout], identity, figurant,
            motive, drawn, killer_deck, detective_deck, supply,
        )  # fmt: skip

    def _placement(self, residents: Sequence[str], dealer: Dealer) -> list[list[Any]]:
        if self.options["initial_placement"] == "detective":
            return []  # he places them as his first decisions (state.begin)
        if self.options["initial_placement"] == "corners":
            slots = [d for d in CORNERS for _ in range(2)] + [
                d for d in DISTRICTS if d not in CORNERS
            ]
            # a corner is two slots: the draw is of slots (their places in this list)
            chosen = [slots[i] for i in dealer.sample(range(len(slots)), count=len(residents))]
        else:
            capacity, chosen = self.options["district_capacity"], []
            for _ in residents:
                room = [d for d in DISTRICTS if chosen.count(d) < capacity]
                chosen.append(dealer.choice(room))
        shuffled = dealer.sample(list(residents))
        return [[name, *district] for name, district in zip(shuffled, chosen, strict=True)]

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Places in a pile (a shuffle of equal cards draws places), districts, names,
        motives, groups and the cards and tokens."""
        piles = [len(deck(KILLER_DECK)), len(self.detective_deck()),
                 sum(self.options["evidence_mix"]), 2 * len(CORNERS) + len(DISTRICTS)]  # fmt: skip
        words = [*self.names, *MOTIVES, *GROUPS, *KILLER_CARDS, *DETECTIVE_CARDS, *BUILDINGS]
        return (*range(max(piles)), *DISTRICTS, *dict.fromkeys(words))

    ROUNDS = SCENES + 3
    """More rounds than a game can have: each round has a murder or a refusal, five murders
    end it and a third refusal too."""
    ROUND_DECISIONS = 400
    """A bound on one round's decisions, with a wide margin (random games take at most about
    60): eight steps and two actions of the detective, each question and its answer, each
    card played and its reaction window, each resident a group move shifts."""

    @property
    def max_game_length(self) -> int | None:
        """The setup's decisions (placements, identity, allies, the pawn's start), then at
        most `ROUND_DECISIONS` a round; the accusation."""
        return self.options["residents"] + 4 + self.ROUNDS * self.ROUND_DECISIONS

    def _max_play_draws(self) -> int:
        """The figurant; each decision may draw a group token or reshuffle a pile."""
        length = self.max_game_length
        assert length is not None
        return 1 + length * (1 + max(len(deck(KILLER_DECK)), len(self.detective_deck()),
                                     sum(self.options["evidence_mix"])))  # fmt: skip

    # The ids: an action is spelled word by word as its notation: a head (the verb, with
    # its fixed words: "answer yes", "evidence row 2", "play cordon"), then one id per
    # argument word (a name, a district "r,c", a group, a motive, a card, "attr:value").
    # A head always takes as many arguments for given options, so no spelling begins another.
    max_action_choices = 4

    @cached_property
    def _words(self) -> tuple[dict[str, int], list[str], dict[str, int]]:
        heads = [*act.BARE, *act.NAMED, *act.PLACED, *act.GROUPED, *act.ASKING, "answer yes",
                 "answer no", "keep", "name", "place", "shift", "evidence deck",
                 *(f"evidence row {i}" for i in range(1, ROW + 1)),
                 *(f"play {card}" for card in act.CARDS), "discard", "accuse"]  # fmt: skip
        looks = [f"{attr}:{value}" for attr, values in LOOKS.items() for value in values]
        asked = [f"{attr}:{value}" for attr, value in questions("profession", self.professions)]
        args = [*self.names, *(district_text(d) for d in DISTRICTS), *GROUPS, *MOTIVES,
                *KILLER_CARDS, *DETECTIVE_CARDS, *BUILDINGS, *looks, *asked,
                *(f"group:{g}" for g in GROUPS), *(str(i) for i in range(1, ROW + 1))]  # fmt: skip
        keys = list(dict.fromkeys([*heads, *args]))
        index = {key: i for i, key in enumerate(keys)}
        return index, keys, {head: index[head] for head in heads}

    def _num_distinct_actions(self) -> int:
        return len(self._words[1])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        index, _, heads = self._words
        words = str(action).split()
        for k in (3, 2, 1):
            head = heads.get(" ".join(words[:k]))
            if head is not None:
                try:
                    return (head, *(index[word] for word in words[k:]))
                except KeyError:
                    break
        raise InvalidAction(f"city-killer: {action} has no id (a word of it is unknown)")

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        _, keys, heads = self._words
        words = [keys[i] for i in ids]
        if words[0] not in heads:
            raise InvalidAction(f"city-killer: the ids {ids} do not begin with a verb")
        action = self.parse_action(" ".join(words))
        if self._action_ids(action) != ids:
            raise InvalidAction(f"city-killer: the ids {ids} do not spell an action")
        return action

    def choice_text(self, choice: int) -> str:
        return self._words[1][choice]

    def _observation_shape(self) -> tuple[int, ...]:
        cards = len(KILLER_CARDS) + len(DETECTIVE_CARDS)
        per_residents, per_district = 21 * self.options["residents"], 7 * len(DISTRICTS)
        tokens, row = len(MOTIVES) + 4 * len(GROUPS), ROW * len(DETECTIVE_CARDS)
        return (per_residents + per_district + tokens + row + cards + len(BUILDINGS) + 8,)

    def _encode(self, info: InformationSet) -> list[float]:
        """Per resident (in setup order): district, dead, intimidated, carrying the token,
        and for the killer his identity and figurant; per district: building, pawn, cordon,
        crime scene; the killer's motive, drawn tokens and allies; the tokens revealed and
        out; the row; my cards and evidence tokens; the round, murders, refusals, the
        killer's hand size, who moves and who I am."""
        view = self.seat_view(info)
        killer = info.seat == KILLER
        out: list[float] = []
        for name in view.residents:
            where = view.pos.get(name)
            out += [float(where == d) for d in DISTRICTS]
            out += [float(name in view.dead), float(name in view.intimidated)]
            out += [float(view.token == name)]
            out += [float(killer and name == view._identity)]
            out += [float(killer and name == view._figurant)]
        scenes = view.scene_districts()
        for d in DISTRICTS:
            out += [float(view.buildings.get(d) == kind) for kind in BUILDINGS]
            out += [float(view.pawn == d), float(view.cordon == d), float(d in scenes)]
        out += [float(killer and view._motive == m) for m in MOTIVES]
        out += [float(killer and g in view._drawn) for g in GROUPS]
        out += [float(killer and view._allies == g) for g in GROUPS]
        out += [float(g in view.revealed_tokens) for g in GROUPS]
        out += [float(g in view.out_tokens) for g in GROUPS]
        for card in view.row:
            out += [float(card == c) for c in DETECTIVE_CARDS]
        hand = view._killer_hand if killer else view._detective_hand
        out += [float(hand.count(c)) for c in KILLER_CARDS]
        out += [float(hand.count(c)) for c in DETECTIVE_CARDS]
        out += [float(not killer and view._evidence.count(b)) for b in BUILDINGS]
        out += [view.round / self.ROUNDS, view.murders / SCENES, view.refusals / 3]
        out.append(view.killer_hand_size / len(deck(KILLER_DECK)))
        out += [float(view.to_move == seat) for seat in SEATS]
        out += [float(info.seat == seat) for seat in SEATS]
        return out

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """The killer's identity, allies and kept card are his alone."""
        hidden = isinstance(action, act.Named | act.Grouped | act.Keep) and (
            str(action).split()[0] in ("identity", "allies") or isinstance(action, act.Keep)
        )
        return (seat,) if hidden else None

    def arrange(
        self,
        rng: random.Random,
        residents: Sequence[str],
        placement: Sequence[Sequence[Any]],
        buildings: Sequence[Sequence[Any]],
        identity: str | None,
        figurant: str | None,
        motive: str,
        drawn: Sequence[str],
        killer_deck: Sequence[str],
        detective_deck: Sequence[str],
        supply: Sequence[str],
    ) -> CityKillerState:
        """A new game with every hidden part given (tests, teaching, replays).

        `placement` is [name, row, column] per resident; `buildings` [row, column, kind];
        `identity` None when the option identity_choice is "choose"; `drawn` the killer's
        three group tokens; `killer_deck` all 14 killer cards, the first ten going two by two
        under the crime scenes 1-5; `detective_deck` and `supply` top first.

        Raises:
            InvalidState: any part that no setup of this game's options can have.
        """
        names = list(residents)
        where = self._check_residents(names, placement)
        layout = self._check_buildings(buildings)
        self._check_killer(names, identity, figurant, motive, drawn)
        self._check_supplies(killer_deck, detective_deck, supply)
        state = CityKillerState(self, rng)
        state._setup = Setup.record(
            rng, residents=names, placement=[list(p) for p in placement],
            buildings=[list(b) for b in buildings], identity=identity, figurant=figurant,
            motive=motive, drawn=list(drawn), killer_deck=list(killer_deck),
            detective_deck=list(detective_deck), supply=list(supply),
        )  # fmt: skip
        self._fill(state, names, where, layout)
        state._identity, state._figurant, state._motive = identity or "", figurant, motive
        state._drawn = tuple(drawn)
        state._stack = [g for g in GROUPS if g not in drawn]
        under = SCENES * UNDER_SCENE
        state._under = [list(killer_deck[i : i + UNDER_SCENE]) for i in range(0, under, 2)]
        state._killer_deck = list(killer_deck[under:])
        state._detective_deck = list(detective_deck)
        state._supply = list(supply)
        self._open(state)
        return state

    def _check_residents(
        self, names: list[str], placement: Sequence[Sequence[Any]]
    ) -> dict[str, District]:
        """Where each resident stands, refusing residents of the wrong number or not of the
        pool and a placement that does not fit the options or the districts' capacity."""
        opt = self.options
        if len(names) != opt["residents"] or len(set(names)) != len(names):
            raise InvalidState(f"the game needs {opt['residents']} different residents")
        if any(n not in self.names for n in names):
            raise InvalidState(f"the residents come from the pool: {', '.join(self.names)}")
        where = {p[0]: (p[1], p[2]) for p in placement}
        if opt["initial_placement"] == "detective":
            if placement:
                raise InvalidState("with initial_placement=detective the detective places "
                                   "the residents: the placement must be empty")  # fmt: skip
        elif sorted(where) != sorted(names) or len(placement) != len(names):
            raise InvalidState("the placement must place each resident once")
        if any(d not in DISTRICTS for d in where.values()):
            raise InvalidState("residents stand in districts 1,1 to 4,4")
        if any(list(where.values()).count(d) > opt["district_capacity"] for d in DISTRICTS):
            raise InvalidState("a district holds more residents than its capacity")
        return where

    @staticmethod
    def _check_buildings(buildings: Sequence[Sequence[Any]]) -> dict[District, str]:
        """The building in each district, refusing any layout but two of each kind in
        different districts."""
        layout = {(b[0], b[1]): b[2] for b in buildings}
        kinds = sorted(b[2] for b in buildings)
        if len(layout) != 8 or kinds != sorted(BUILDINGS * 2) or not set(layout) <= set(DISTRICTS):
            raise InvalidState("there are two buildings of each kind, in different districts")
        return layout

    def _check_killer(
        self,
        names: list[str],
        identity: str | None,
        figurant: str | None,
        motive: str,
        drawn: Sequence[str],
    ) -> None:
        """Refuse a killer's identity, figurant, motive or group tokens that the options or
        the residents do not allow."""
        opt = self.options
        if opt["identity_choice"] == "random":
            if identity not in names:
                raise InvalidState("the killer's identity is one of the residents")
        elif identity is not None:
            raise InvalidState("with identity_choice=choose the killer chooses his identity")
        if identity is not None and opt["use_figurant"]:
            if figurant not in names or figurant == identity:
                raise InvalidState("the figurant is another resident")
        elif figurant is not None:
            raise InvalidState("there is no figurant to give")
        if motive not in MOTIVES:
            raise InvalidState(f"the motive is one of {', '.join(MOTIVES)}")
        if len(set(drawn)) != 3 or not set(drawn) <= set(GROUPS):
            raise InvalidState("the killer draws three different group tokens")

    def _check_supplies(
        self, killer_deck: Sequence[str], detective_deck: Sequence[str], supply: Sequence[str]
    ) -> None:
        """Refuse decks or an evidence supply that do not hold this game's cards and tokens."""
        if sorted(killer_deck) != sorted(deck(KILLER_DECK)):
            raise InvalidState("the killer deck holds the 14 killer cards")
        if sorted(detective_deck) != sorted(self.detective_deck()):
            raise InvalidState("the detective deck holds the detective cards")
        mix = self.options["evidence_mix"]
        expected = [b for b, n in zip(BUILDINGS, mix, strict=True) for _ in range(n)]
        if sorted(supply) != sorted(expected):
            raise InvalidState("the evidence supply must hold the tokens of evidence_mix")

    def _fill(
        self,
        state: CityKillerState,
        names: list[str],
        where: Mapping[str, District],
        layout: Mapping[District, str],
    ) -> None:
        state.residents = tuple(names)
        state.pos = {n: where[n] for n in names if n in where}
        state.buildings = dict(sorted(layout.items()))

    def _open(self, state: CityKillerState) -> None:
        """The public setup, the row dealt, the setup decisions (same for a view)."""
        state._emit(
            seen.CitySetup(
                residents=state.residents,
                placement=tuple((n, *state.pos[n]) for n in state.residents if n in state.pos),
                buildings=tuple((*d, kind) for d, kind in sorted(state.buildings.items())),
            )
        )
        for i in range(ROW):
            state.row[i] = state._draw_detective_card(blind=False)
        state.row.reverse()  # the first card dealt lies rightmost
        state._emit(seen.Row(tuple(state.row)))
        state.begin()

    # --- a seat's moves read from its record (Game.moves_in) --------------------------------
    def _move_at(self, info: InformationSet, index: int) -> Action | None:
        """Each move is recorded first as its seat's `act`, in the action notation, but the
        killer's private choices (his identity, his allies, the card he keeps), which read
        "... ?" there: what he chose, he alone sees in the observation after it."""
        obs = info.observations[index]
        if not isinstance(obs, seen.Act) or obs.seat != info.seat:
            return None
        verb = str(obs.move).partition(" ")[0]
        if obs.move != f"{verb} {UNKNOWN}":
            return self.parse_action(obs.move)
        if verb == "identity":
            chosen = next_observation(info, index, seen.Identity, "the identity he chose")
            return act.Named(verb, chosen.name)
        if verb == "allies":
            allies = next_observation(info, index, seen.Allies, "the allies he kept")
            return act.Grouped(verb, allies.group)
        if verb == "keep":
            kept = next_observation(info, index, seen.Kept, "the card he kept")
            return act.Keep(kept.card)
        return self.parse_action(obs.move)  # no other move hides its choice: refused

    # --- views ------------------------------------------------------------------------------
    def awaits_outcome(self, info: InformationSet) -> bool:
        """Whether `info` was cut inside a move (a session typed up to an action whose outcome
        is not entered yet): its view stands in for the outcome, so it is no decision point."""
        return self.seat_view(info)._stood_in

    def seat_view(self, info: InformationSet) -> CityKillerState:
        """A state agreeing with `info` on the public record and the seat's own cards; what the
        seat cannot see is a placeholder, and each draw takes what `info` says it drew.

        The last view of each seat is kept and returned again, extended in place when `info`
        extends its record (the next decision of the same game): only the new observations
        are replayed. Callers read it and must not change it.
        """
        with self._views_lock:
            return self._extended_view(info)

    def _extended_view(self, info: InformationSet) -> CityKillerState:
        """`seat_view`, extending the kept view of the seat when `info` extends its record and
        tells nothing its replay stood in for: the secrets and the allies (read before any
        move is replayed), and a chance outcome a record cut inside a move had not shown yet
        (a token drawn, its observation after the cut). Otherwise it is replayed anew."""
        observations = info.observations
        cached = self._views.get(info.seat)
        start, state = 0, None
        if cached is not None and len(cached[0]) <= len(observations):
            kept_record, kept_state = cached
            if observations[: len(kept_record)] == kept_record:
                start, state = len(kept_record), kept_state
        if start and (state is None or state._stood_in or any(
            isinstance(obs, PLACEHELD) for obs in observations[start:]
        )):  # fmt: skip
            start, state = 0, None  # the kept view replayed stand-ins this record now names
        secrets = _last(observations, seen.Secrets)
        allies = _last(observations, seen.Allies)
        if state is None:
            state = self._blank_view(observations, secrets)
        else:
            assert state._script is not None
            for kind, queue in _script(observations[start:]).items():
                state._script[kind].extend(queue)
        state._kept.extend(obs.card for obs in observations[start:] if isinstance(obs, seen.Kept))
        if allies is not None:
            state._allies = allies.group
        names = state.residents
        for obs in observations[start:]:
            if not isinstance(obs, seen.Act):
                continue
            text = obs.move
            if text == f"identity {UNKNOWN}":
                action: Action = act.Named("identity", secrets.identity if secrets else names[0])
            elif text == f"allies {UNKNOWN}":
                action = act.Grouped("allies", state._allies or GROUPS[0])
            elif text == f"keep {UNKNOWN}":
                state._stood_in = state._stood_in or not state._kept  # its card comes later
                action = act.Keep(state._kept.popleft() if state._kept else UNKNOWN)
            else:
                action = self.parse_action(text)
            state.apply_trusted(action)
        if secrets is not None:
            state._identity, state._figurant = secrets.identity, secrets.figurant
            state._motive, state._drawn = secrets.motive, tuple(secrets.drawn)
        self._views[info.seat] = (observations, state)
        return state

    def _blank_view(
        self, observations: Sequence[Observation], secrets: seen.Secrets | None
    ) -> CityKillerState:
        """A view at the setup: the public placement, the seat's secrets, placeholders.

        Raises:
            KeyError: the record does not start with the setup.
        """
        setup = observations[0]
        if not isinstance(setup, seen.CitySetup):
            raise KeyError(f"the record starts with the setup, not {setup.kind!r}")
        state = CityKillerState(self, random.Random(0))
        names = list(setup.residents)
        where = {p[0]: (p[1], p[2]) for p in setup.placement}
        self._fill(state, names, where, {(b[0], b[1]): b[2] for b in setup.buildings})
        state._identity, state._motive, state._drawn = names[0], MOTIVES[0], tuple(GROUPS[:3])
        if secrets is not None:
            state._identity, state._figurant = secrets.identity, secrets.figurant
            state._motive, state._drawn = secrets.motive, tuple(secrets.drawn)
        state._stack = [UNKNOWN] * (len(GROUPS) - 3)
        state._under = [[UNKNOWN] * UNDER_SCENE for _ in range(SCENES)]
        state._killer_deck = [UNKNOWN] * (len(deck(KILLER_DECK)) - SCENES * UNDER_SCENE)
        state._detective_deck = [UNKNOWN] * len(self.detective_deck())
        state._supply = [UNKNOWN] * sum(self.options["evidence_mix"])
        state._script = _script(observations)
        if self.options["identity_choice"] == "choose":
            state._identity = ""
        self._open(state)
        return state

    # --- notation and words -------------------------------------------------------------------
    def _parse_action(self, text: str) -> Action:
        return act.parse(text, self.names)

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        name = choice_domain(self.names, "a resident of the pool")
        district = Domain(
            lambda v: type(v) is tuple and v in DISTRICTS, "a district (row, column), 1 to 4"
        )
        words = [v for values in LOOKS.values() for v in values]
        words += [*GROUPS, *(p for row in PROFESSIONS for p in row), *self.professions]
        arg = Domain(
            lambda v: type(v) is tuple and all(isinstance(a, str) and a for a in v),
            "a tuple of words",
        )
        return {
            act.Verb: {"word": choice_domain(act.BARE)},
            act.Named: {"verb": choice_domain(act.NAMED), "name": name},
            act.Placed: {"verb": choice_domain(act.PLACED), "district": district},
            act.Grouped: {"verb": choice_domain(act.GROUPED), "group": choice_domain(GROUPS)},
            act.Ask: {
                "verb": choice_domain(("ask", "diner")),
                "name": name,
                "attr": choice_domain((*LOOKS, "group", "profession")),
                "value": choice_domain(tuple(dict.fromkeys(words))),
            },
            act.Answer: {"yes": Domain(lambda v: isinstance(v, bool), "True or False")},
            act.Keep: {"item": choice_domain(KILLER_CARDS + BUILDINGS)},
            act.Reveal: {"motive": choice_domain(MOTIVES)},
            act.Place: {"name": name, "district": district},
            act.Shift: {"name": name, "district": district},
            act.Evidence: {"position": choice_domain((0, 1, 2, 3))},
            act.Play: {"card": choice_domain(act.CARDS), "args": arg},
            act.Discard: {"card": choice_domain(DETECTIVE_CARDS)},
            act.Accuse: {"name": name, "motive": choice_domain(MOTIVES)},
        }

    def _action_problem(self, action: Action) -> str | None:
        if isinstance(action, act.Ask):
            values = LOOKS.get(action.attr)
            if values is not None and action.value not in values:
                return f"{action.attr} is one of {', '.join(values)}"
        if isinstance(action, act.Play) and self.parse_action(str(action)) != action:
            return "its arguments are not written as the notation writes them"
        return None

    def _observation_text(self, kind: ObservationKind) -> str:
        if isinstance(kind, seen.CitySetup):  # its buildings are left out under a fixed layout
            return kind.text(self.options["building_layout"])
        return kind.text()

    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> CityKillerState:
        keys = ("residents", "placement", "buildings", "identity", "figurant", "motive", "drawn",
                "killer_deck", "detective_deck", "supply")  # fmt: skip
        setup = read.mapping(setup, "setup", keys)
        names = read.choices(setup["residents"], "setup.residents", self.names)
        placement = []
        for i, item in enumerate(read.array(setup["placement"], "setup.placement")):
            name, row, col = read.array(item, f"setup.placement[{i}]", 3)
            placement.append(
                [read.choice(name, f"setup.placement[{i}][0]", names),
                 read.number(row, f"setup.placement[{i}][1]", 1, 4),
                 read.number(col, f"setup.placement[{i}][2]", 1, 4)]
            )  # fmt: skip
        buildings = []
        for i, item in enumerate(read.array(setup["buildings"], "setup.buildings")):
            row, col, kind = read.array(item, f"setup.buildings[{i}]", 3)
            buildings.append(
                [read.number(row, f"setup.buildings[{i}][0]", 1, 4),
                 read.number(col, f"setup.buildings[{i}][1]", 1, 4),
                 read.choice(kind, f"setup.buildings[{i}][2]", BUILDINGS)]
            )  # fmt: skip
        identity = setup["identity"]
        if identity is not None:
            identity = read.choice(identity, "setup.identity", names)
        figurant = setup["figurant"]
        if figurant is not None:
            figurant = read.choice(figurant, "setup.figurant", names)
        motive = read.choice(setup["motive"], "setup.motive", MOTIVES)
        drawn = read.choices(setup["drawn"], "setup.drawn", GROUPS)
        killer_deck = read.choices(setup["killer_deck"], "setup.killer_deck", KILLER_CARDS, False)
        detective_deck = read.choices(
            setup["detective_deck"], "setup.detective_deck", DETECTIVE_CARDS, False
        )
        supply = read.choices(setup["supply"], "setup.supply", BUILDINGS, False)
        return self._arranged(
            lambda: self.arrange(rng, names, placement, buildings, identity, figurant, motive,
                                 drawn, killer_deck, detective_deck, supply),
            read,
        )  # fmt: skip


Seen = TypeVar("Seen", bound=Observation)
PLACEHELD = (seen.Secrets, seen.Allies)
"""The private observations a view reads before replaying any move (it stands placeholders
in for them when the seat has not learnt them)."""
_PILES = {"detective-deck": "detective-card", "evidence": "evidence", "killer-deck": "killer-card"}


def _script(observations: Sequence[Observation]) -> dict[str, deque[Any]]:
    """What each hidden draw gave, in order, as far as these observations show ("?" where
    they do not)."""
    script: dict[str, deque[Any]] = {kind: deque() for kind in (*_PILES.values(), "scene",
                                     "stack", "surveillance", "confession")}  # fmt: skip
    for i, obs in enumerate(observations):
        match obs:
            case seen.Draw(pile=pile, card=card):
                if card is None:
                    following = observations[i + 1] if i + 1 < len(observations) else None
                    if isinstance(following, seen.Drew):
                        card = following.card
                script[_PILES[pile]].append(UNKNOWN if card is None else card)
            case seen.SceneCards(cards=cards):
                script["scene"].extend(cards)
            case seen.GroupToken(group=group):
                script["stack"].append(group)
            case seen.Surveillance(answer=answer):
                script["surveillance"].append(answer)
            case seen.Confession(group=group):
                script["confession"].append(group)
    return script


def _last(observations: Sequence[Observation], kind: type[Seen]) -> Seen | None:
    """The last of `observations` of `kind`, if any."""
    found = None
    for obs in observations:
        if isinstance(obs, kind):
            found = obs
    return found
