"""Serial Killer, configured: options (rules/serial_killer.md §9), setup, the view from an
information set, notation and the words for observations."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engines.actions import Action, Domain, choice_domain
from engines.deal import Dealer
from engines.errors import ConfigError, IllegalAction, InvalidAction, InvalidState
from engines.game import Game, Metadata, Option, next_observation
from engines.observations import InformationSet, Observation
from engines.serial_killer import actions as act
from engines.serial_killer import observations as seen
from engines.serial_killer.material import COLOURS, Components, load_components
from engines.serial_killer.notation import Notation
from engines.serial_killer.state import (
    DICE,
    DISTRICTS,
    FACES,
    HAND_LIMIT,
    WEAPON_MAX,
    ChanceExhausted,
    Recorded,
    SerialKillerState,
)
from engines.state import Setup
from engines.values import JsonReader, JsonValue, Seat, is_int


def _int_from(low: int, high: int | None = None) -> Any:
    def check(value: JsonValue) -> bool:
        return is_int(value) and value >= low and (high is None or value <= high)

    return check


def _probability(value: JsonValue) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _flag(name: str, default: bool, doc: str) -> Option:
    return Option(name, default, (False, True), doc=doc)


def _choice(name: str, values: tuple[str, ...], doc: str) -> Option:
    """An option that is one of some named `values`, the first its default."""
    return Option(name, values[0], values, doc=doc)


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
    _choice("cost_model", ("face", "flat"), "(#1) a die costs its face, or 1"),
    _choice(
        "substitution", ("no-three", "always"), "(#2) when a 4, 5 or 6 may be bought as Investigate"
    ),
    _number("dice_per_pick", 1, 1, "(#3) dice a pick may buy"),
    _choice(
        "sopralluogo_trigger",
        ("or", "both"),
        "(#4) relocation when a face is low or high, or only when both",
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
    _choice("hunted_mode", ("once", "per-district"), "(#6) the hunted bonus"),
    _number("hunted_bonus", 5, 0, "(#6) ferocity added when pawns share a district"),
    _choice(
        "caught_mode",
        ("at-least", "crossing", "above"),
        "(#7) caught when F >= P at each round's end, only the round after the "
        "crossing, or when F > P",
    ),
    _number("surcharge", 1, 0, "(#7) extra points per buy for a caught player"),
    _number("declare_base", 5, 0, "(#8) dice a declaration rolls besides its points"),
    _number("points_per_die", 1, 1, "(#8) points per extra declaration die"),
    _choice("declare_timing", ("r4", "pick"), "(#9) declare at R4, or instead of a pick"),
    _flag("failed_test_lockout", False, "(#10) a failed declaration locks the player out"),
    _flag("declared_players_act", False, "(#11) declared players keep buying"),
    _flag(
        "final_round_requires_no_purchase",
        False,
        "(#12) the final round keeps the no-purchase condition",
    ),
    _choice("end_trigger", ("all", "any"), "(#13) the final round: all or any deck out"),
    _flag(
        "end_when_all_declared",
        True,
        "(#14) the game ends when everyone has declared (always, when declared players may"
        " not act)",
    ),
    _choice(
        "unreachable_scope",
        ("all", "undeclared"),
        "(#15) whose reach of the ferocity counts for the collective loss",
    ),
    _choice(
        "unreachable_outcome",
        ("all-lose", "reveal"),
        "(#15) all lose, or the declarations are judged",
    ),
    _choice(
        "lab_view",
        ("per-card", "all-or-nothing"),
        "(#16) pay per rotated card seen, or for all or none",
    ),
    _number("pollution_cost", 1, 0, "(#16) points per rotated lab card seen"),
    _choice(
        "pollution_target",
        ("lowest", "placed"),
        "(#17) a pollution 1 rotates the lowest unrotated card, or the one just placed",
    ),
    _choice("briefing_scope", ("one", "all"), "(#18) one player's hand, or all there"),
    _choice(
        "first_player_timing",
        ("next-round", "immediate"),
        "(#19) when a first-player claim takes effect",
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


class SerialKiller(Game[SerialKillerState]):
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
    observation_kinds = seen.KINDS
    notation_class = Notation
    options_spec = OPTIONS

    def _check_options(self) -> None:
        # a declaration is one id per genre, a lab view one per position and "done"
        self.max_action_choices = max(len(self.parts.genres), self.lab_size + 1)
        first = self.options["first_player"]
        if first != "random" and first >= self.players:
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
    # --- chance nodes, action ids, bounds, the tensor (engines/deal.py) -------------------
    explicit_chance = True
    chance_in_play = True

    def _deal(self, dealer: Dealer, rng: random.Random) -> SerialKillerState:
        """The first player (when random), each deck shuffled (nobody sees the order), then
        the districts the decks lie on (public). Play draws the dice when they are rolled."""
        first = self.options["first_player"]
        if first == "random":
            first = dealer.choice(range(self.players))
        decks = {}
        for genre in self.parts.genres:
            decks[genre.id] = dealer.shuffle(genre.cards, [()] * len(genre.cards))
        places = dealer.sample(DISTRICTS, count=len(self.parts.genres))
        districts = dict(zip(self.parts.genre_ids, places, strict=True))
        return self.arrange(rng, decks, districts, first)

    @cached_property
    def max_dice(self) -> int:
        """The most dice a declaration can roll (points only go down)."""
        options = self.options
        return int(options["declare_base"] + options["start_points"] // options["points_per_die"])

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Whole numbers (first player, districts, faces, declaration sums), then the cards."""
        top = max(FACES * self.max_dice, len(DISTRICTS), self.players - 1)
        return (*range(top + 1), *self.parts.ids)

    @cached_property
    def round_bound(self) -> int | None:
        """A bound on the rounds (None: the options allow a game without end).

        Every buy costs at least a point, so at most players x start_points dice are bought;
        a round that leaves ten dice unbought (five or fewer bought) raises the ferocity by
        one at least, and once it passes six times the most dice anyone can roll nobody can
        reach it and the game ends. Only when every player has declared, declared players act,
        the game goes on after everyone declared and only undeclared players' reach counts,
        can rounds go on for ever; then only the option `max_rounds` bounds them."""
        options, cap = self.options, self.options["max_rounds"]
        endless = (
            options["unreachable_scope"] == "undeclared"
            and options["declared_players_act"]
            and not options["end_when_all_declared"]
        )
        if endless:
            return None if cap is None else int(cap)
        bound = (
            self.players * options["start_points"] // 6
            + max(0, FACES * self.max_dice - options["start_ferocity"])
            + 2
        )
        return bound if cap is None else min(bound, int(cap))

    @property
    def max_buys(self) -> int:
        return int(self.players * self.options["start_points"])

    @property
    def max_game_length(self) -> int | None:
        """Each pawn placed once; per round a pass and a declaration or skip per player; per
        buy the buy, the end of its pick and a discard."""
        rounds = self.round_bound
        return None if rounds is None else self.players * (1 + 2 * rounds) + 3 * self.max_buys

    def _max_play_draws(self) -> int:
        """Per round 15 dice, a relocation and a declaration per player; a pollution die
        per discard (none counted when the rounds have no bound)."""
        rounds = self.round_bound
        return 0 if rounds is None else rounds * (DICE + 2 * self.players) + self.max_buys

    # The ids: the placements, pass, end, skip, weapon, first, the moves, the investigations
    # (faces 3-6), the briefings (no target, then each seat), a discard per card; then two
    # blocks spelled in parts: a declaration is one id per genre in genre order (the card
    # of that genre), a lab view one id per paid position, in increasing order, then "done".
    @cached_property
    def _numbering(self) -> tuple[dict[object, int], list[object]]:
        parts = self.parts
        keys: list[object] = [act.Place(d) for d in DISTRICTS]
        keys += [act.Pass(), act.End(), act.Skip(), act.Weapon(), act.First()]
        keys += [act.Move(d) for d in DISTRICTS]
        keys += [act.Investigate(face) for face in (3, 4, 5, 6)]
        keys += [act.Briefing(None), *(act.Briefing(seat) for seat in range(self.players))]
        keys += [act.Discard(card) for card in parts.ids]
        keys += [(act.Declare, card) for card in parts.ids]
        keys += [(act.Lab, p) for p in range(1, self.lab_size + 1)] + [(act.Lab, None)]
        return {key: i for i, key in enumerate(keys)}, keys

    @property
    def lab_size(self) -> int:
        """The most cards the lab can hold: every card but each deck's last."""
        return sum(len(genre.cards) - 1 for genre in self.parts.genres)

    def _num_distinct_actions(self) -> int:
        return len(self._numbering[1])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        index = self._numbering[0]
        if isinstance(action, act.Declare):
            return tuple(index[(act.Declare, card)] for card in action.profile)
        if isinstance(action, act.Lab):
            return (*(index[(act.Lab, p)] for p in action.positions), index[(act.Lab, None)])
        found = index.get(action)
        if found is None:
            raise InvalidAction(f"serial-killer: {action} has no id")
        return (found,)

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        keys = self._numbering[1]
        parts = [keys[i] for i in ids]
        first = parts[0]
        if not isinstance(first, tuple):
            if len(ids) > 1:
                raise InvalidAction(f"serial-killer: {first} is one id, not {len(ids)}")
            assert isinstance(first, Action)
            return first
        kind = first[0]
        if not all(isinstance(part, tuple) and part[0] is kind for part in parts):
            raise InvalidAction(f"serial-killer: the ids {ids} mix kinds of action")
        values = [part[1] for part in parts]  # type: ignore[index]
        if kind is act.Declare:
            genres = [self.parts.genre_of(card) for card in values]
            if genres != list(self.parts.genre_ids):
                raise InvalidAction(
                    f"serial-killer: a declaration is one card per genre, in the order "
                    f"{', '.join(self.parts.genre_ids)}; the ids {ids} are not"
                )
            return act.Declare(tuple(values))
        positions = values[:-1]
        if values[-1] is not None or None in positions or positions != sorted(set(positions)):
            raise InvalidAction(
                f"serial-killer: a lab view is its positions in increasing order, then done; "
                f"the ids {ids} are not"
            )
        return act.Lab(tuple(positions))

    def choice_text(self, choice: int) -> str:
        key = self._numbering[1][choice]
        if isinstance(key, tuple):
            kind, value = key
            if kind is act.Declare:
                return f"declare {value} (one card of the profile)"
            return "lab: done" if value is None else f"lab: pay for position {value}"
        return str(key)

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """A discarded card and a declared profile are seen by their player alone."""
        return (seat,) if isinstance(action, act.Discard | act.Declare) else None

    def _observation_shape(self) -> tuple[int, ...]:
        cards, genres, n = len(self.parts.ids), len(self.parts.genres), self.players
        return (3 * cards + 8 * genres + 16 * n + self.lab_size * (3 + genres) + 15,)

    def _encode(self, info: InformationSet) -> list[float]:
        """Per card: in my hand, seen by me, known in the lab; per genre: deck size and
        district; per seat: points, pawn, hand size, declared, caught, locked, passed, to
        move, me; per lab position: filled, rotated, mine, genre; then ferocity, weapon,
        round, the pool, the phase and the final round."""
        view = self.seat_view(info)
        me = info.seat
        assert isinstance(me, int)
        parts, options = self.parts, self.options
        in_lab: set[str] = set()
        for obs in info.observations:
            match obs:
                case seen.SeeDiscard(card=card):
                    in_lab.add(card)
                case seen.SeeLab(cards=cards):
                    in_lab.update(card for _, card in cards)
        hand, seen_cards = set(view._hands[me]), view._seen[me]
        out: list[float] = []
        for card in parts.ids:
            out += [float(card in hand), float(card in seen_cards), float(card in in_lab)]
        for genre in parts.genres:
            out.append(view.deck_size(genre.id) / len(genre.cards))
            out += [float(view.deck_district[genre.id] == d) for d in DISTRICTS]
        start = options["start_points"]
        for seat in range(self.players):
            out.append(view.points_left[seat] / start)
            out += [float(view.pawn[seat] == d) for d in (None, *DISTRICTS)]
            out.append(len(view.hand_genres[seat]) / (HAND_LIMIT + 1))
            out += [float(view.seq[seat] is not None), float(view.caught[seat])]
            out += [float(view.locked[seat]), float(view.passed[seat])]
            out += [float(view.to_move == seat), float(seat == me)]
        for p in range(self.lab_size):
            filled = p < len(view.lab_genres)
            out += [float(filled), float(filled and view.rotated[p])]
            out.append(float(filled and view.lab_owner[p] == me))
            out += [float(filled and view.lab_genres[p] == g) for g in parts.genre_ids]
        rounds = self.round_bound or max(view.round, 1)
        out += [view.ferocity / (FACES * self.max_dice or 1), view.weapon / WEAPON_MAX]
        out.append(view.round / rounds)
        out += [k / DICE for k in view.pool]
        out += [float(view.phase == p) for p in ("place", "buy", "discard", "declare", "over")]
        out.append(float(view.final_round))
        return out

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
            seen.Start(
                self.players,
                first_player,
                tuple((g, districts[g], len(decks[g])) for g in parts.genre_ids),
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

    def _move_at(self, info: InformationSet, index: int) -> Action | None:
        """Read from the observations that show the seat its own moves (`own_move`)."""
        return own_move(self, info, index)

    # --- the view from an information set ---------------------------------------------------
    def seat_view(self, info: InformationSet) -> SerialKillerState:
        """The public course of the game replayed with the recorded chance outcomes, hidden
        cards as placeholders (`AGE.?`) and the seat's own cards as it saw them."""
        me = info.seat
        assert isinstance(me, int)
        return replay(self, info.observations, me)

    # --- notation ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> act.SerialKillerAction:
        return act.parse(text, self.parts, self.players)

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
            act.Place: {"district": district},
            act.Pass: {},
            act.End: {},
            act.Skip: {},
            act.Weapon: {},
            act.Move: {"district": district},
            act.Investigate: {"face": choice_domain((3, 4, 5, 6), "a face from 3 to 6")},
            act.Briefing: {
                "target": choice_domain(
                    (None, *self.seats), f"None or a seat from 0 to {self.players - 1}"
                )
            },
            act.First: {},
            act.Lab: {"positions": positions},
            act.Discard: {"card": choice_domain(parts.ids, "a card id of this game")},
            act.Declare: {"profile": profile},
        }


def _dice_with_total(count: int, total: int) -> tuple[int, ...]:
    """Some `count` dice summing to `total` (a view needs the sum, not the faces)."""
    dice = [1] * count
    rest = total - count
    for i in range(count):
        step = min(FACES - 1, rest)
        dice[i] += step
        rest -= step
    return tuple(dice)


def _recorded_chance(observations: tuple[Observation, ...]) -> list[Recorded]:
    """The chance outcomes the observations record, in order, each with its source."""
    script: list[Recorded] = []
    for index, obs in enumerate(observations):
        source = f"observation {index} ({obs.kind})"
        match obs:
            case seen.Roll(counts=counts):
                faces = tuple(f for f, k in enumerate(counts, 1) for _ in range(k))
                script.append(Recorded(source, DICE, faces))
            case seen.Relocated(district=district):
                script.append(Recorded(source, None, (district,)))
            case seen.Pollution(die=die):
                script.append(Recorded(source, 1, (die,)))
            case seen.Attempt(dice=count, total=total):
                dice = _dice_with_total(count, total)
                script.append(Recorded(source, len(dice), dice))
    return script


def replay(
    game: SerialKiller, observations: tuple[Observation, ...], me: int, strict: bool = False
) -> SerialKillerState:
    """A state following `observations` (seat `me`'s), with placeholder hidden cards; with
    `strict`, each action is checked as `apply` checks it (IllegalAction if it is not legal,
    or if a recorded chance outcome is not the roll the rules make there).

    The observations must have passed the solver's check of each field's type and range
    (`solver.validation.validate` does it first): the replay allocates what they say."""
    view = _start_view(game, observations)
    own_draws = [obs.card for obs in observations if isinstance(obs, seen.SeeDraw)]
    own_discards = [obs.card for obs in observations if isinstance(obs, seen.SeeDiscard)]
    placeholder = tuple(f"{g}.?" for g in game.parts.genre_ids)
    for index, obs in enumerate(observations):
        action: Action | None = None
        match obs:
            case seen.Placed(district=district):
                action = act.Place(district)
            case seen.Passed():
                action = act.Pass()
            case seen.PickEnded():
                action = act.End()
            case seen.Skipped():
                action = act.Skip()
            case seen.Declaration(profile=profile):  # the seat's own, which it alone sees first
                action = act.Declare(tuple(profile))
            case seen.Attempt(seat=seat):
                action = _attempted(seat, observations, index, me, placeholder)
            case seen.LabPlace(seat=seat):
                if seat == me and not own_discards:
                    break  # the record stops before the seat's own discard is shown
                action = act.Discard(_lab_discard(view, obs, me, own_discards))
            case seen.Buy():
                action = _replayed_buy(view, obs, me, own_draws)
        if action is not None and not _replay_action(view, action, strict):
            break
    view._seen[me] = seen.cards_seen(observations)
    return view


def _start_view(game: SerialKiller, observations: tuple[Observation, ...]) -> SerialKillerState:
    """A view of the setup the record starts with (decks of placeholder cards), to be
    replayed with the chance outcomes the record holds."""
    setup = observations[0]
    assert isinstance(setup, seen.Start)
    decks = {g: [f"{g}.?"] * size for g, _, size in setup.decks}
    districts = {g: d for g, d, _ in setup.decks}
    view = SerialKillerState(game, random.Random(0), decks, districts, setup.first_player)
    view._emit(setup)
    view._script = _recorded_chance(observations)
    return view


def _attempted(
    seat: int,
    observations: tuple[Observation, ...],
    index: int,
    me: int,
    placeholder: tuple[str, ...],
) -> Action | None:
    """The declaration `seat`'s attempt at `index` makes: none for the seat's own attempt
    after its declaration (recorded just before, as it alone sees it first), else a profile
    of placeholder cards."""
    if seat == me and index and isinstance(observations[index - 1], seen.Declaration):
        return None
    return act.Declare(placeholder)


def _replayed_buy(view: SerialKillerState, obs: seen.Buy, me: int, own_draws: list[str]) -> Action:
    """The buy `obs` records; for an Investigate of the seat's own, the card it saw drawn
    goes on top of the deck first (taken from `own_draws`)."""
    action = _bought(view, obs)
    if isinstance(action, act.Investigate) and obs.seat == me and own_draws:
        _put_on_top(view, me, own_draws.pop(0))
    return action


def _lab_discard(
    view: SerialKillerState, obs: seen.LabPlace, me: int, own_discards: list[str]
) -> str:
    """The card a lab placement discards: the seat's own as it saw it (taken from
    `own_discards`), else a placeholder of the genre shown, else the first card in hand."""
    if obs.seat == me:
        return own_discards.pop(0)
    genre = obs.genre if isinstance(obs, seen.LabPlaceGenre) else None
    hand = view._hands[obs.seat]
    return next((c for c in hand if c == f"{genre}.?"), hand[0] if hand else "?")


def _replay_action(view: SerialKillerState, action: Action, strict: bool) -> bool:
    """Apply one recorded action (checked first when `strict`); False when the record's
    chance outcomes run out before it is done (the view then waits for the next one)."""
    reason = view._illegal_reason(action) if strict and not view.is_over else None
    if strict and (reason is not None or view.is_over):
        raise IllegalAction(reason or f"{action} comes after the end of the game")
    try:
        view.apply_trusted(action)
    except ChanceExhausted as stop:
        view.waiting_for = stop.what
        return False
    return True


def _put_on_top(view: SerialKillerState, me: int, card: str) -> None:
    """The card `me` draws next is `card` (no deck in its district: the buy is illegal)."""
    genre = view.deck_at.get(view.pawn[me] or 0)
    if genre is not None:
        view._decks[genre][0] = card


def action_of(state: SerialKillerState, obs: Observation) -> Action | None:
    """The action an observation records, with what it does not show left as a
    placeholder: a discard's card (`Discard("?")`) and a declared profile (all "?"); None
    for an observation of no action."""
    match obs:
        case seen.Attempt():
            return act.Declare(tuple("?" for _ in state.game.parts.genres))
        case seen.LabPlace():
            return act.Discard("?")
        case seen.Buy():
            return _bought(state, obs)
    return _said(obs)


def own_move(game: SerialKiller, info: InformationSet, index: int) -> Action | None:
    """The move of `info.seat` that observation `index` begins (`Game.moves_in`), or None.
    Each move is shown first by an observation naming its seat; what others do not see
    of its own moves, the seat sees first (its declared profile) or next (the card it put
    in the lab), and which lab positions a view paid for follows from those rotated."""
    obs = info.observations[index]
    if not isinstance(obs, seen.Seated) or obs.seat != info.seat:
        return None
    match obs:
        case seen.Declaration(profile=profile):
            return act.Declare(tuple(profile))
        case seen.LabPlace():
            put = next_observation(info, index, seen.SeeDiscard, "the card it put in the lab")
            return act.Discard(put.card)
        case seen.Buy():
            return _buy_shown(game, obs, _rotated(info.observations[:index]))
    return _said(obs)


def _said(obs: Observation) -> Action | None:
    """The action an observation of it says in full (a pass, an ended pick, a skipped
    declaration, a placement), or None."""
    match obs:
        case seen.Passed():
            return act.Pass()
        case seen.PickEnded():
            return act.End()
        case seen.Skipped():
            return act.Skip()
        case seen.Placed(district=district):
            return act.Place(district)
    return None


def _rotated(observations: Sequence[Observation]) -> set[int]:
    """The lab positions the pollution die has rotated in `observations` (as `rotated`)."""
    return {
        obs.position
        for obs in observations
        if isinstance(obs, seen.Pollution) and isinstance(obs.position, int)
    }


def _bought(view: SerialKillerState, obs: seen.Buy) -> Action:
    """The buy a `buy` observation records (its shape is its action's: the validation
    checks it)."""
    return _buy_shown(view.game, obs, {p for p, turned in enumerate(view.rotated, 1) if turned})


def _buy_shown(game: SerialKiller, obs: seen.Buy, rotated: set[int]) -> Action:
    """The buy `obs` records, `rotated` the lab positions turned before it (a lab view
    shows the unrotated ones and those paid for)."""
    match obs:
        case seen.BuyWeapon():
            return act.Weapon()
        case seen.BuyMove(district=district):
            return act.Move(district)
        case seen.BuyBriefing(targets=targets):
            if game.options["briefing_scope"] == "all":
                return act.Briefing(None)
            return act.Briefing(targets[0])
        case seen.BuyLab(positions=positions):
            return act.Lab(tuple(p for p in positions if p in rotated))
    return act.First() if obs.action == "first" else act.Investigate(obs.face)
