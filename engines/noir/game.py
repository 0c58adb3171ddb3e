"""Noir: Killer vs Inspector, configured: options, setup, notation, words for observations."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines.actions import POSITIVE, Action, Domain, choice_domain
from engines.deal import Dealer, SeenBy
from engines.errors import ConfigError, IllegalAction, InvalidState
from engines.game import Game, Metadata, Option, next_observation, positive_int
from engines.noir import actions as act
from engines.noir import observations as seen
from engines.noir.grid import LINES, Grid
from engines.noir.material import (
    EDITION_KILLS,
    HAND,
    INSPECTOR,
    KILLER,
    SEATS,
    SIZES,
    kills_needed,
    other_seat,
    suspects,
)
from engines.noir.notation import Notation
from engines.noir.state import NoirState
from engines.observations import InformationSet, Observation
from engines.state import Setup
from engines.values import JsonReader, JsonValue, Seat


class Noir(Game[NoirState]):
    """A killer and an inspector, each hiding as one suspect of a shifting grid (rules/noir.md).

    Options, defaults first ("chosen" marks a gap in the rules filled here):

    - `grid` 5 / 4 / 3: the grid is grid x grid suspects, the first grid * grid names of
      `NAMES`; the smaller grids exist for brute-force checks of the solver.
    - `kills_to_win` 16 / 14: kills that win on 5x5 (14 is the Black Box edition). Smaller grids
      keep the same share of the 23 suspects who are neither player (chosen): 10 / 9 on 4x4,
      5 / 4 on 3x3; `Noir.kills_to_win` gives the count in force.
    - `reverse_shift_ban` True / False: a shift may not restore the grid the opponent's shift of
      the turn before changed (on a line of two cards both directions would). No shift is
      banned after a shift that made lines collapse (chosen: none can undo it).
    - `kill_canvas` True / False: killing a publicly innocent suspect asks the inspector
      whether his identity is adjacent to it, on the grid as the victim falls (chosen: before
      any collapse the kill causes).
    - `deck` "shared" / "separate": with "separate" the killer draws his identity and his
      disguises from his own deck of all the suspects, and the inspector's deck holds every
      suspect but the killer's first identity (chosen, so the inspector's four cards are
      surely not the killer). The inspector may then draw a later identity of the killer;
      exonerated, it gets the canvas "?", as no card is adjacent to itself.
    - `citizen_arrest` False / True: the variant "arrest with a citizen", at most 3 times.
    - `turn_limit` 500 (chosen), a positive integer: after that many turns the game ends and
      both seats share the win, so machine play always ends.

    Also chosen: an arrest may name the inspector's identity itself; an arrest with a citizen
    names an alive suspect beside the agent; a line of one card cannot shift; exonerating with
    an empty deck takes a card of the hand without drawing; a card no longer on the grid is
    adjacent to nothing (its canvas is "?"); a kill of the inspector still collapses the grid.

    Notation (see `engines.noir.actions`): `kill Ada`, `disguise`, `shift row 2 left`,
    `shift column 3 up` (1-based, on the current grid), `identity Dora`, `draw`,
    `exonerate Bruno`, `arrest Clara`, `citizen-arrest Eve with Finn`.
    """

    metadata = Metadata(
        name="noir",
        title="Noir: Killer vs Inspector",
        seats="killer, inspector",
        hidden="the killer's identity, the inspector's identity and hand, the deck order",
        version=2,
        max_length="turn_limit turns (default 500)",
    )
    observation_kinds = seen.KINDS
    notation_class = Notation
    options_spec = (
        Option("grid", 5, SIZES, doc="the grid's side: 5 (the game), 4 or 3 (for tests)"),
        Option("kills_to_win", 16, EDITION_KILLS,
               doc="kills that win on 5x5 (14: Black Box edition); scaled on smaller grids"),
        Option("reverse_shift_ban", True, (True, False),
               doc="whether a shift may not undo the opponent's previous shift"),
        Option("kill_canvas", True, (True, False),
               doc="whether killing an innocent asks the inspector for a canvas"),
        Option("deck", "shared", ("shared", "separate"),
               doc="one deck for both, or the killer has his own deck"),
        Option("citizen_arrest", False, (False, True),
               doc="the variant 'arrest with a citizen' (at most three times)"),
        Option("turn_limit", 500, check=positive_int, describe_allowed="a positive integer",
               doc="(chosen) turns after which the game ends with a shared win"),
    )  # fmt: skip

    def _check_options(self) -> None:
        """Refuse look-alikes the `in` test lets through (1 for True, 5.0 for 5)."""
        for spec in self.options_spec:
            value = self.options[spec.name]
            if type(value) is not type(spec.default):
                raise ConfigError(
                    f"{self.name}: option {spec.name!r} cannot be {value!r}; "
                    f"allowed: {spec.allowed_text()}"
                )

    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    @property
    def suspects(self) -> tuple[str, ...]:
        return suspects(self.options["grid"])

    @property
    def kills_to_win(self) -> int:
        return kills_needed(self.options["kills_to_win"], self.options["grid"])

    # --- setup -----------------------------------------------------------------------------
    # --- the deal as chance nodes, the action ids, the tensor (engines/deal.py) -----------
    explicit_chance = True

    def _deal(self, dealer: Dealer, rng: random.Random) -> NoirState:
        """The grid is laid (public), then each deck is put in order, top card first: the
        killer sees his deck's top card, the inspector the four he draws; the rest nobody."""
        names, size = list(self.suspects), self.options["grid"]
        laid = dealer.sample(names)
        grid = tuple(tuple(laid[i * size : (i + 1) * size]) for i in range(size))
        killer_deck = None
        order: list[SeenBy] = [(INSPECTOR,)] * HAND + [()] * len(names)
        if self.options["deck"] == "separate":
            killer_deck = dealer.sample(names, places=[(KILLER,)] + [()] * (len(names) - 1))
            names.remove(killer_deck[0])
        else:
            order = [(KILLER,), *order]
        return self.arrange(rng, grid, dealer.sample(names, places=order), killer_deck)

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        return self.suspects

    def _action_universe(self) -> list[Action]:
        names, size = self.suspects, self.options["grid"]
        return [
            *(act.Kill(name) for name in names),
            act.Disguise(),
            *(act.Shift(line, i, d) for line, ways in LINES.items() for i in range(1, size + 1)
              for d in ways),
            *(act.Identity(name) for name in names),
            act.Draw(),
            *(act.Exonerate(name) for name in names),
            *(act.Arrest(name) for name in names),
            *(act.CitizenArrest(name, agent) for name in names for agent in names if agent != name),
        ]  # fmt: skip

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """Only the inspector knows which identity he chose."""
        return (INSPECTOR,) if isinstance(action, act.Identity) else None

    @property
    def max_game_length(self) -> int | None:
        """A turn is at most three actions (the inspector's identity, a draw, an exoneration)."""
        return 3 * self.options["turn_limit"] + 3

    def _observation_shape(self) -> tuple[int, ...]:
        n, size = len(self.suspects), self.options["grid"]
        shifts = 2 * 2 * size
        return (n * (size * size + 7) + 2 + 2 + 3 + 1 + shifts + 4,)

    def _encode(self, info: InformationSet) -> list[float]:
        """Per suspect: where on the grid, dead, innocent, revealed, spent, discarded, my
        identity, in my hand; then whose turn and view, the phase,
        the pending draw, the protected shift, the turn, the kills and the decks' sizes."""
        view = self.seat_view(info)
        size, limit = self.options["grid"], self.options["turn_limit"]
        place = {name: (r, c) for r, row in enumerate(view.grid) for c, name in enumerate(row)}
        mine = view._killer if info.seat == KILLER else view._inspector
        sets = [set(view.dead), view.innocent, set(view.revealed), set(view.spent)]
        sets += [set(view.discarded), {mine} if mine else set(), set(view._hand)]
        out: list[float] = []
        for name in self.suspects:
            cell = [0.0] * (size * size)
            if name in place:
                r, c = place[name]
                cell[r * size + c] = 1.0
            out += cell + [float(name in group) for group in sets]
        out += [float(view.to_move == seat) for seat in SEATS]
        out += [float(info.seat == seat) for seat in SEATS]
        out += [float(view.phase == phase) for phase in ("opening", "identity", "play")]
        out.append(float(view.drawn))
        shifts = [(line, i, d) for line, ways in LINES.items() for i in range(1, size + 1)
                  for d in ways]  # fmt: skip
        protected = view.protected
        out += [float(protected is not None and (protected.line, protected.index,
                protected.direction) == shift) for shift in shifts]  # fmt: skip
        n = len(self.suspects)
        out += [view.turns / limit, view.kills / self.kills_to_win]
        out += [view.cards_left(KILLER) / n, view.cards_left(INSPECTOR) / n]
        return out

    def arrange(
        self,
        rng: random.Random,
        grid: Sequence[Sequence[str]],
        deck: Sequence[str],
        killer_deck: Sequence[str] | None = None,
    ) -> NoirState:
        """A new game with the grid and deck orders given, top card first (tests, teaching).

        With one shared deck `deck` holds every suspect; with separate decks `killer_deck`
        holds every suspect and `deck` all but the killer's first identity, `killer_deck[0]`.

        Raises:
            InvalidState: the grid or a deck does not hold the right suspects.
        """
        size, names = self.options["grid"], sorted(self.suspects)
        rows: Grid = tuple(tuple(row) for row in grid)
        if len(rows) != size or any(len(row) != size for row in rows):
            raise InvalidState(f"the grid must be {size} rows of {size} suspects")
        if sorted(name for row in rows for name in row) != names:
            raise InvalidState(f"the grid must hold each of {', '.join(self.suspects)} once")
        separate = self.options["deck"] == "separate"
        if separate != (killer_deck is not None):
            raise InvalidState(
                "the killer has his own deck exactly when the option deck is separate"
            )
        expected = names
        if killer_deck is not None:
            if sorted(killer_deck) != names:
                raise InvalidState("the killer's deck must hold each suspect once")
            expected = sorted(set(names) - {killer_deck[0]})
        if sorted(deck) != expected:
            raise InvalidState(f"the deck must hold each of {', '.join(expected)} once")
        state = NoirState(self, rng, rows, deck, killer_deck)
        state._setup = Setup.record(
            rng,
            grid=[list(row) for row in rows],
            deck=list(deck),
            killer_deck=None if killer_deck is None else list(killer_deck),
        )
        state._deal()
        return state

    def reconstruct(self, info: InformationSet, hidden: Mapping[str, JsonValue]) -> NoirState:
        """The state `info` describes, with its hidden part taken from `hidden`.

        `hidden` has the format of `NoirState.hidden()`: "deck", the inspector's deck (the only
        deck unless the option `deck` is "separate") in its order at setup, top first;
        "killer_deck", the killer's own deck at setup (separate decks only); and
        "inspector_identity", the inspector's chosen identity (needed once he has chosen, unless
        `info` is the inspector's own). The guess fixes the killer's identities, the inspector's
        hand and every draw; the actions are replayed from the observations.

        Raises:
            InvalidState: `hidden` is malformed or contradicts an observation in `info`.
        """
        if info.game != self.name or dict(info.options) != dict(self.option_items()):
            raise InvalidState(f"the information set is not of this game ({self!r})")
        setups = [obs for obs in info.observations if isinstance(obs, seen.Layout)]
        if not setups:
            raise InvalidState("the information set has no setup")
        identity = hidden.get("inspector_identity")
        if identity is None and info.seat == INSPECTOR:
            identity = next(
                (obs.suspect for obs in info.observations
                 if isinstance(obs, seen.IdentityTold) and obs.seat == INSPECTOR),
                None,
            )  # fmt: skip
        if "deck" not in hidden:
            raise InvalidState("the guess needs the deck order ('deck')")
        killer_deck = hidden.get("killer_deck")
        state = self.arrange(random.Random(0), setups[0].rows, hidden["deck"], killer_deck)
        for obs in info.observations:
            action = self._action_of(obs, identity)
            if action is None:
                continue
            try:
                state.apply(action)
            except IllegalAction as error:
                raise InvalidState(f"the guess makes a seen action impossible: {error}") from None
        if state.information_set(info.seat).observations != info.observations:
            raise InvalidState("the guess contradicts what the information set saw")
        return state

    def _action_of(self, obs: Observation, identity: str | None) -> act.NoirAction | None:
        """The action an observation records (None for observations of no action)."""
        match obs:
            case seen.Killed(suspect=suspect):
                return act.Kill(suspect)
            case seen.Shifted(line=line, index=index, direction=direction):
                return act.Shift(line, index, direction)
            case seen.DisguiseTried():
                return act.Disguise()
            case seen.ChoseIdentity():
                if identity is None:
                    raise InvalidState(
                        "the guess needs the inspector's identity ('inspector_identity')"
                    )
                return act.Identity(identity)
            case seen.DrawMade():
                return act.Draw()
            case seen.Exonerated(suspect=suspect):
                return act.Exonerate(suspect)
            case seen.Arrested(suspect=suspect):
                return act.Arrest(suspect)
            case seen.CitizenArrested(suspect=suspect, agent=agent):
                return act.CitizenArrest(suspect, agent)
        return None

    def _move_at(self, info: InformationSet, index: int) -> act.NoirAction | None:
        """Each move is shown first by a public observation naming its seat and what it did
        (`seen.ActionSeen`), but the inspector's choice of identity: which one, he alone sees
        in the observation after it."""
        obs = info.observations[index]
        if not isinstance(obs, seen.ActionSeen) or obs.seat != info.seat:
            return None
        identity = None
        if isinstance(obs, seen.ChoseIdentity):
            told = next_observation(info, index, seen.IdentityTold, "the identity he chose")
            identity = told.suspect
        return self._action_of(obs, identity)

    def public_state(self, info: InformationSet) -> NoirState:
        """The position `info` describes as far as it is public, plus the seat's own cards:
        grid, dead, whose turn, the last shift and the cards left in each deck are exact; the
        opponent's cards are blank stand-ins, so callers must not read them."""
        return self.seat_view(info)

    def seat_view(self, info: InformationSet) -> NoirState:
        """A state agreeing with `info` on all that the seat's own legal actions depend on: the
        public record (grid, dead, whose turn, the last shift, cards left in each deck) and
        the seat's own identity and hand. The opponent's cards are not filled in."""
        size, separate = self.options["grid"], self.options["deck"] == "separate"
        setup = info.observations[0]
        if not isinstance(setup, seen.Layout):
            raise InvalidState("the information set does not start with the setup")
        rows = setup.rows
        stand_in = ("",) * (size * size)
        view = NoirState(self, random.Random(0), rows, stand_in[: -1 if separate else None],
                         stand_in if separate else None)  # fmt: skip
        view._deck_top, view._killer_top = (HAND, 1) if separate else (HAND + 1, 0)
        view._killer = ""
        last = _follow_record(view, info.observations, separate)
        view.drawn = isinstance(info.observations[-1], seen.DrawMade | seen.Drew)
        if view.drawn:
            view.current = INSPECTOR
        if self.options["reverse_shift_ban"]:
            view.protected = last
        return view

    # --- notation and words ----------------------------------------------------------------
    def _parse_action(self, text: str) -> act.NoirAction:
        return act.parse(text, self.suspects)

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        suspect = choice_domain(
            self.suspects, f"a suspect of this grid: {', '.join(self.suspects)}"
        )
        directions = tuple(direction for pair in LINES.values() for direction in pair)
        return {
            act.Kill: {"suspect": suspect},
            act.Disguise: {},
            act.Shift: {
                "line": choice_domain(tuple(LINES)),
                "index": POSITIVE,
                "direction": choice_domain(directions),
            },
            act.Identity: {"suspect": suspect},
            act.Draw: {},
            act.Exonerate: {"suspect": suspect},
            act.Arrest: {"suspect": suspect},
            act.CitizenArrest: {"suspect": suspect, "agent": suspect},
        }

    def _action_problem(self, action: Action) -> str | None:
        if isinstance(action, act.Shift) and action.direction not in LINES[action.line]:
            return f"a {action.line} shifts {' or '.join(LINES[action.line])}"
        return None

    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> NoirState:
        setup = read.mapping(setup, "setup", ("grid", "deck", "killer_deck"))
        names = self.suspects
        grid = [
            read.choices(row, f"setup.grid[{i}]", names)
            for i, row in enumerate(read.array(setup["grid"], "setup.grid"))
        ]
        deck = read.choices(setup["deck"], "setup.deck", names)
        killer_deck = setup["killer_deck"]
        if killer_deck is not None:
            killer_deck = read.choices(killer_deck, "setup.killer_deck", names)
        return self._arranged(lambda: self.arrange(rng, grid, deck, killer_deck), read)


def _follow_record(
    view: NoirState, observations: Sequence[Observation], separate: bool
) -> act.Shift | None:
    """Bring a blank view up to date with one seat's record: the grid, the dead, the phase,
    the cards drawn from each deck, the seat's identity and hand, whose turn it is; return
    the last turn's shift (None when that turn was no shift or a collapse followed it)."""
    last: act.Shift | None = None
    for obs in observations:
        match obs:
            case seen.Shifted(rows=rows) | seen.Collapsed(rows=rows):
                view.grid = rows
            case seen.Killed(suspect=victim):
                view.dead.append(victim)
                view.phase = "identity" if view.phase == "opening" else view.phase
            case seen.IdentityTold(seat=seat, suspect=suspect):
                if seat == KILLER:
                    view._killer = suspect
                else:
                    view._inspector = suspect
                    view._hand.remove(suspect)
            case seen.Hand(cards=cards):
                view._hand = list(cards)
            case seen.ChoseIdentity():
                view.phase = "play"
            case seen.DisguiseTried():
                _follow_disguise(view, obs, separate)
            case seen.DrawMade():
                view._deck_top += 1
            case seen.Drew(suspect=card):
                view._hand.append(card)
            case seen.Exonerated(suspect=card):
                view.exonerated.append(card)
                if card in view._hand:
                    view._hand.remove(card)
            case seen.CitizenArrested(agent=agent):
                view.spent.append(agent)
                if agent in view._hand:
                    view._hand.remove(agent)
            case seen.End():
                view.over = True
        if isinstance(obs, seen.TurnEnding):
            last = (
                act.Shift(obs.line, obs.index, obs.direction)
                if isinstance(obs, seen.Shifted)
                else None
            )
            view.current = other_seat(view.current)
        elif isinstance(obs, seen.Collapsed):
            last = None  # no shift undoes a collapse
    return last


def _follow_disguise(view: NoirState, obs: seen.DisguiseTried, separate: bool) -> None:
    """A disguise draws the killer's next card: the killer's deck's, or with one deck the
    shared deck's; it shows the former identity, or the card drawn when it fails."""
    if separate:
        view._killer_top += 1
    else:
        view._deck_top += 1
    if isinstance(obs, seen.Disguised):
        view.revealed.append(obs.former)
    elif isinstance(obs, seen.DisguiseFailed):
        view.discarded.append(obs.drawn)
