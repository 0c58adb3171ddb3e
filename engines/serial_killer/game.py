"""Serial Killer, configured: options (rules/serial_killer.md §9), setup, the view from an
information set, notation and the words for observations."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from engines.core import (
    Action,
    Domain,
    Game,
    IllegalAction,
    InformationSet,
    InvalidState,
    JsonReader,
    JsonValue,
    Metadata,
    Observation,
    Option,
    Seat,
    Setup,
    choice_domain,
    is_int,
)
from engines.serial_killer.actions import (
    Briefing,
    Declare,
    Discard,
    End,
    First,
    Investigate,
    Lab,
    Move,
    Pass,
    Place,
    SerialKillerAction,
    Skip,
    Weapon,
    parse,
)
from engines.serial_killer.cards import COLOURS, Components, load_components
from engines.serial_killer.notation import HELP, Notation, observation_text
from engines.serial_killer.state import DISTRICTS, FACES, ChanceExhausted, SerialKillerState


def _int_from(low: int, high: int | None = None) -> Any:
    def check(value: JsonValue) -> bool:
        return is_int(value) and value >= low and (high is None or value <= high)

    return check


def _probability(value: JsonValue) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _flag(name: str, default: bool, doc: str) -> Option:
    return Option(name, default, (False, True), doc=doc)


def _number(name: str, default: int, low: int, doc: str, high: int | None = None) -> Option:
    allowed = f"a whole number from {low}" + ("" if high is None else f" to {high}")
    return Option(name, default, check=_int_from(low, high), describe_allowed=allowed, doc=doc)


OPTIONS = (
    _number("players", 4, 3, "number of players", 5),
    Option(
        "first_player",
        "random",
        ("random",),
        check=_int_from(0, 4),
        describe_allowed="'random' or a seat number below players",
        doc="who starts (chosen at random by the rules)",
    ),
    _number("genres", 7, 1, "(#24) genres in play: fewer for brute-force checks", 7),
    _number("traits_per_genre", 6, 2, "(#24) traits (cards) per genre", 6),
    _number("start_points", 80, 1, "investigation points each player starts with (confirmed 80)"),
    _number("start_ferocity", 50, 0, "where the killer marker starts (confirmed 50)"),
    Option("cost_model", "face", ("face", "flat"), doc="(#1) a die costs its face, or 1"),
    Option(
        "substitution",
        "no-three",
        ("no-three", "always"),
        doc="(#2) when a 4, 5 or 6 may be bought as Investigate",
    ),
    _number("dice_per_pick", 1, 1, "(#3) dice a pick may buy"),
    Option(
        "sopralluogo_trigger",
        "or",
        ("or", "both"),
        doc="(#4) relocation when a face is low or high, or only when both",
    ),
    _number("sopralluogo_low", 0, 0, "(#4) a face with at most this many dice is low", 15),
    _number("sopralluogo_high", 5, 0, "(#4) a face with more than this many dice is high", 15),
    Option(
        "central_park_prob",
        1 / 7,
        check=_probability,
        describe_allowed="a probability from 0 to 1",
        doc="(#5) chance a relocation die sends a pawn to Central Park",
    ),
    Option("hunted_mode", "once", ("once", "per-district"), doc="(#6) the hunted bonus"),
    _number("hunted_bonus", 5, 0, "(#6) ferocity added when pawns share a district"),
    Option(
        "caught_mode",
        "at-least",
        ("at-least", "crossing", "above"),
        doc="(#7) caught when F >= P at each round's end, only the round after the "
        "crossing, or when F > P",
    ),
    _number("surcharge", 1, 0, "(#7) extra points per buy for a caught player"),
    _number("declare_base", 5, 0, "(#8) dice a declaration rolls besides its points"),
    _number("points_per_die", 1, 1, "(#8) points per extra declaration die"),
    Option("declare_timing", "r4", ("r4", "pick"), doc="(#9) declare at R4, or instead of a pick"),
    _flag("failed_test_lockout", False, "(#10) a failed declaration locks the player out"),
    _flag("declared_players_act", False, "(#11) declared players keep buying"),
    _flag(
        "final_round_requires_no_purchase",
        False,
        "(#12) the final round keeps the no-purchase condition",
    ),
    Option("end_trigger", "all", ("all", "any"), doc="(#13) the final round: all or any deck out"),
    _flag(
        "end_when_all_declared",
        True,
        "(#14) the game ends when everyone has declared (always, when declared players may"
        " not act)",
    ),
    Option(
        "unreachable_scope",
        "all",
        ("all", "undeclared"),
        doc="(#15) whose reach of the ferocity counts for the collective loss",
    ),
    Option(
        "unreachable_outcome",
        "all-lose",
        ("all-lose", "reveal"),
        doc="(#15) all lose, or the declarations are judged",
    ),
    Option(
        "lab_view",
        "per-card",
        ("per-card", "all-or-nothing"),
        doc="(#16) pay per rotated card seen, or for all or none",
    ),
    _number("pollution_cost", 1, 0, "(#16) points per rotated lab card seen"),
    Option(
        "pollution_target",
        "lowest",
        ("lowest", "placed"),
        doc="(#17) a pollution 1 rotates the lowest unrotated card, or the one just placed",
    ),
    Option("briefing_scope", "one", ("one", "all"), doc="(#18) one player's hand, or all there"),
    Option(
        "first_player_timing",
        "next-round",
        ("next-round", "immediate"),
        doc="(#19) when a first-player claim takes effect",
    ),
    _flag("rotate_first_player", False, "(#19) the first player passes left when unclaimed"),
    _flag("genre_public", True, "(#20) card backs show the genre"),
    _flag("allow_dead_buys", True, "(#21) Weapon at 10 may be bought (and does nothing)"),
    _number("uniform_roll_bonus", 0, 0, "(#22) ferocity added when all 15 dice are equal"),
    Option(
        "max_rounds",
        None,
        (None,),
        check=_int_from(1),
        describe_allowed="None or a positive integer",
        doc="(#23) a round cap after which the killer wins",
    ),
)


class SerialKiller(Game):
    """Race to declare the killer's seven-trait profile before ferocity outruns you."""

    metadata = Metadata(
        name="serial-killer",
        title="Serial Killer (Profiler)",
        seats="0..n-1 (red, blue, green, yellow, black), clockwise",
        hidden="the bottom card of each deck (the profile), deck order, others' hands, "
        "the lab cards others discarded, and sealed declarations",
        version=1,
        max_length="until the decks run out, everyone declares or nobody can reach ferocity",
    )
    options_spec = OPTIONS

    def _check_options(self) -> None:
        first = self.options["first_player"]
        if first != "random" and first >= self.players:
            from engines.core import ConfigError

            raise ConfigError(
                f"serial-killer: option 'first_player' cannot be {first!r} with "
                f"{self.players} players; allowed: 'random' or 0 to {self.players - 1}"
            )

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(range(self.players))

    @cached_property
    def parts(self) -> Components:
        return load_components(self.options["genres"], self.options["traits_per_genre"])

    def colour(self, seat: int) -> str:
        return COLOURS[seat]

    # --- setup -----------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> SerialKillerState:
        rng = random.Random(seed)
        first = self.options["first_player"]
        if first == "random":
            first = rng.randrange(self.players)
        decks = {}
        for genre in self.parts.genres:
            cards = list(genre.cards)
            rng.shuffle(cards)
            decks[genre.id] = cards
        places = rng.sample(DISTRICTS, len(self.parts.genres))
        districts = dict(zip(self.parts.genre_ids, places, strict=True))
        return self.arrange(rng, decks, districts, first)

    def arrange(
        self,
        rng: random.Random,
        decks: Mapping[str, list[str]],
        districts: Mapping[str, int],
        first_player: int,
    ) -> SerialKillerState:
        """A new game with the decks (top first) on the districts given.

        Raises:
            InvalidState: a deck is not its genre's cards, the districts are not distinct
                districts 1-7, or the first player is not a seat.
        """
        parts = self.parts
        if sorted(decks) != sorted(parts.genre_ids) or sorted(districts) != sorted(decks):
            raise InvalidState(f"there is one deck per genre: {', '.join(parts.genre_ids)}")
        for genre in parts.genres:
            if sorted(decks[genre.id]) != sorted(genre.cards):
                raise InvalidState(f"the {genre.id} deck must hold {', '.join(genre.cards)}")
        places = list(districts.values())
        if len(set(places)) != len(places) or not set(places) <= set(DISTRICTS):
            raise InvalidState("each deck lies on its own district, 1 to 7")
        if first_player not in self.seats:
            raise InvalidState(f"the first player must be a seat, 0 to {self.players - 1}")
        state = SerialKillerState(self, rng, dict(decks), dict(districts), first_player)
        state._setup = Setup.record(
            rng,
            decks={g: list(cards) for g, cards in decks.items()},
            districts=dict(districts),
            first_player=first_player,
        )
        state._emit(
            Observation.of(
                "setup",
                players=self.players,
                first_player=first_player,
                decks=[[g, districts[g], len(decks[g])] for g in parts.genre_ids],
            )
        )
        return state

    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> SerialKillerState:
        setup = read.mapping(setup, "setup", ("decks", "districts", "first_player"))
        decks = read.mapping(setup["decks"], "setup.decks", self.parts.genre_ids)
        cards = {
            g: read.choices(decks[g], f"setup.decks.{g}", self.parts.by_genre[g].cards)
            for g in self.parts.genre_ids
        }
        places = read.mapping(setup["districts"], "setup.districts", self.parts.genre_ids)
        districts = {
            g: read.choice(places[g], f"setup.districts.{g}", DISTRICTS)
            for g in self.parts.genre_ids
        }
        first = read.choice(setup["first_player"], "setup.first_player", self.seats)
        return self._arranged(lambda: self.arrange(rng, cards, districts, first), read)

    # --- the view from an information set ---------------------------------------------------
    def _view(self, info: InformationSet) -> SerialKillerState:
        """The public course of the game replayed with the recorded chance outcomes, hidden
        cards as placeholders (`AGE.?`) and the seat's own cards as it saw them."""
        me = info.seat
        assert isinstance(me, int)
        return replay(self, info.observations, me)

    # --- notation ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> SerialKillerAction:
        return parse(text, self.parts, self.players)

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        parts = self.parts
        district = choice_domain(DISTRICTS, "a district, 1 to 7")
        profile = Domain(
            lambda value: (
                type(value) is tuple
                and len(value) == len(parts.genres)
                and all(
                    isinstance(card, str) and card in genre.cards
                    for card, genre in zip(value, parts.genres, strict=True)
                )
            ),
            f"a tuple of one card per genre, in the order {', '.join(parts.genre_ids)}",
        )
        positions = Domain(
            lambda value: (
                type(value) is tuple
                and all(is_int(p) and p > 0 for p in value)
                and list(value) == sorted(set(value))
            ),
            "a sorted tuple of distinct lab positions, from 1",
        )
        return {
            Place: {"district": district},
            Pass: {},
            End: {},
            Skip: {},
            Weapon: {},
            Move: {"district": district},
            Investigate: {"face": choice_domain((3, 4, 5, 6), "a face from 3 to 6")},
            Briefing: {
                "target": choice_domain(
                    (None, *self.seats), f"None or a seat from 0 to {self.players - 1}"
                )
            },
            First: {},
            Lab: {"positions": positions},
            Discard: {"card": choice_domain(parts.ids, "a card id of this game")},
            Declare: {"profile": profile},
        }

    def describe(self, observation: Observation) -> str:
        return describe(self, observation)

    @cached_property
    def _notation(self) -> Notation:
        return Notation(self)

    def _parse_entry(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        assert isinstance(seat, int)
        return self._notation.parse(text, seat, before)

    def _observation_text(self, observation: Observation) -> str:
        return observation_text(observation)

    def _notation_help(self) -> list[tuple[str, str]]:
        return list(HELP)

    def _notation_words(self) -> list[str]:
        return self._notation.words()


def who(seat: object) -> str:
    return COLOURS[seat] if isinstance(seat, int) and 0 <= seat < len(COLOURS) else str(seat)


def describe(game: SerialKiller, obs: Observation) -> str:
    """One plain sentence per kind of observation."""
    kind, get = obs.kind, obs.get
    if kind == "setup":
        decks = ", ".join(f"{g} on {d}" for g, d, _ in get("decks"))
        return f"{get('players')} players; {who(get('first_player'))} starts; decks: {decks}"
    if kind == "place":
        return f"{who(get('seat'))} placed the pawn on district {get('district')}"
    if kind == "roll":
        counts = ", ".join(f"{k}x{f}" for f, k in enumerate(get("counts"), 1))
        return f"round {get('round')} rolled {counts}"
    if kind == "relocate":
        return f"{who(get('seat'))} was relocated to district {get('district')}"
    if kind == "pass":
        return f"{who(get('seat'))} passed"
    if kind == "end_pick":
        return f"{who(get('seat'))} ended the pick"
    if kind == "skip":
        return f"{who(get('seat'))} did not attempt a declaration"
    if kind == "buy":
        extra = ""
        if get("action") == "move":
            extra = f" to district {get('district')}"
        elif get("action") == "briefing":
            extra = " of " + " and ".join(who(t) for t in get("targets"))
        elif get("action") == "lab":
            extra = f", positions {', '.join(map(str, get('positions')))}"
        elif get("action") == "weapon":
            extra = f" (weapon track {get('weapon')})"
        return (
            f"{who(get('seat'))} bought a {get('face')} for {get('action')}{extra} "
            f"({get('cost')} points, {get('points')} left)"
        )
    if kind == "draw":
        return (
            f"{who(get('seat'))} drew a {get('genre')} card in district {get('district')} "
            f"({get('deck_size') - 1} left to draw there)"
        )
    if kind == "see_draw":
        return f"{who(get('seat'))} drew {get('card')}"
    if kind == "lab_place":
        genre = f"a {get('genre')} card" if get("genre") else "a card"
        return f"{who(get('seat'))} put {genre} in the lab at position {get('position')}"
    if kind == "see_discard":
        return f"{who(get('seat'))} put {get('card')} in the lab at position {get('position')}"
    if kind == "pollution":
        turned = get("position")
        what = "nothing rotated" if turned is None else f"lab position {turned} rotated"
        return f"the pollution die showed {get('die')}: {what}"
    if kind == "see_hand":
        return f"{who(get('seat'))} saw {who(get('target'))}'s hand: {', '.join(get('cards'))}"
    if kind == "see_lab":
        seen = ", ".join(f"{p}: {c}" for p, c in get("cards"))
        return f"{who(get('seat'))} saw the lab: {seen}"
    if kind == "declaration":
        return f"{who(get('seat'))} committed the profile {' '.join(get('profile'))}"
    if kind == "attempt":
        result = f"succeeded (declaration {get('seq')})" if get("success") else "failed"
        return (
            f"{who(get('seat'))} rolled {get('dice')} dice for {get('total')} against "
            f"ferocity {get('ferocity')}: {result}"
        )
    if kind == "round_end":
        return (
            f"round {get('round')} ended: unused dice {get('unused')}, hunted +{get('hunted')}, "
            f"ferocity {get('ferocity')}, first player {who(get('first_player'))}"
        )
    if kind == "end":
        winners = get("winners")
        result = f"{who(winners[0])} won" if winners else "the killer won"
        profile = " ".join(get("profile"))
        return f"the game ended ({get('reason')}): the profile was {profile}; {result}"
    return f"{kind}: {dict(obs.fields)}"


def _dice_with_total(count: int, total: int) -> list[int]:
    """Some `count` dice summing to `total` (a view needs the sum, not the faces)."""
    dice = [1] * count
    rest = total - count
    for i in range(count):
        step = min(FACES - 1, rest)
        dice[i] += step
        rest -= step
    return dice


def replay(
    game: SerialKiller, observations: tuple[Observation, ...], me: int, strict: bool = False
) -> SerialKillerState:
    """A state following `observations` (seat `me`'s), with placeholder hidden cards; with
    `strict`, each action is checked as `apply` checks it (IllegalAction if it is not legal)."""
    setup = observations[0]
    decks = {g: [f"{g}.?"] * size for g, _, size in setup["decks"]}
    districts = {g: d for g, d, _ in setup["decks"]}
    view = SerialKillerState(game, random.Random(0), decks, districts, setup["first_player"])
    view._emit(setup)
    script: list[Any] = []
    for obs in observations:
        if obs.kind == "roll":
            script.append([f for f, k in enumerate(obs["counts"], 1) for _ in range(k)])
        elif obs.kind == "relocate":
            script.append(obs["district"])
        elif obs.kind == "pollution":
            script.append([obs["die"]])
        elif obs.kind == "attempt":
            script.append(_dice_with_total(obs["dice"], obs["total"]))
    view._script = script
    own_draws = [obs["card"] for obs in observations if obs.kind == "see_draw"]
    own_discards = [obs["card"] for obs in observations if obs.kind == "see_discard"]
    placeholder = tuple(f"{g}.?" for g in game.parts.genre_ids)
    for index, obs in enumerate(observations):
        kind = obs.kind
        action: Action | None = None
        if kind == "place":
            action = Place(obs["district"])
        elif kind == "pass":
            action = Pass()
        elif kind == "end_pick":
            action = End()
        elif kind == "skip":
            action = Skip()
        elif kind == "attempt":
            mine = obs["seat"] == me and index and observations[index - 1].kind == "declaration"
            action = Declare(tuple(observations[index - 1]["profile"]) if mine else placeholder)
        elif kind == "lab_place":
            seat = obs["seat"]
            if seat == me and own_discards:
                card = own_discards.pop(0)
            elif seat == me:
                break  # the record stops before the seat's own discard is shown
            else:
                genre = obs.get("genre")
                hand = view._hands[seat]
                card = next((c for c in hand if c == f"{genre}.?"), hand[0])
            action = Discard(card)
        elif kind == "buy":
            action = _bought(view, obs)
            if isinstance(action, Investigate) and obs["seat"] == me and own_draws:
                genre = view.deck_at[view.pawn[me] or 0]
                view._decks[genre][0] = own_draws.pop(0)
        if action is not None:
            reason = view._illegal_reason(action) if strict and not view.is_over else None
            if strict and (reason is not None or view.is_over):
                raise IllegalAction(reason or f"{action} comes after the end of the game")
            try:
                view.apply_trusted(action)
            except ChanceExhausted as stop:
                view.waiting_for = stop.what
                break
    seen: set[str] = set()
    for obs in observations:
        if obs.kind in ("see_draw", "see_discard"):
            seen.add(obs["card"])
        elif obs.kind == "see_hand":
            seen.update(obs["cards"])
        elif obs.kind == "see_lab":
            seen.update(card for _, card in obs["cards"])
    view._seen[me] = seen
    return view


def _bought(view: SerialKillerState, obs: Observation) -> Action:
    """The buy a `buy` observation records."""
    kind = obs["action"]
    if kind == "weapon":
        return Weapon()
    if kind == "move":
        return Move(obs["district"])
    if kind == "investigate":
        return Investigate(obs["face"])
    if kind == "briefing":
        targets = obs["targets"]
        if view.game.options["briefing_scope"] == "all":
            return Briefing(None)
        return Briefing(targets[0])
    if kind == "first":
        return First()
    return Lab(tuple(p for p in obs["positions"] if view.rotated[p - 1]))
