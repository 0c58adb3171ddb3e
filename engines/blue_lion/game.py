"""Blue Lion, configured: options, setup (the toss), notation and the words for observations."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import permutations

from engines.actions import BOOL, Action, Domain, choice_domain
from engines.blue_lion import actions as act
from engines.blue_lion import observations as seen
from engines.blue_lion.material import ICONS, PAIRS, SEATS, TILES
from engines.blue_lion.notation import Notation
from engines.blue_lion.state import BlueLionState, listed
from engines.deal import Dealer
from engines.errors import IncompleteInformationSet, InvalidState
from engines.game import Game, Metadata, Option, positive_int
from engines.observations import InformationSet
from engines.state import Setup
from engines.values import JsonReader, JsonValue, Seat, one_of, quote


class BlueLion(Game[BlueLionState]):
    """Two thieves build and rework a line of six double-sided tiles (rules/blue_lion.md)."""

    metadata = Metadata(
        name="blue-lion",
        title="Blue Lion",
        seats="lupin, fujiko",
        hidden="the backs of unturned tiles, hidden from both players alike",
        version=2,
        max_length="turn_limit turns (default 200)",
    )
    observation_kinds = seen.KINDS
    notation_class = Notation
    options_spec = (
        Option(
            "first_player", "random", ("random", "lupin", "fujiko"), doc="who lays the first tile"
        ),
        Option(
            "passing",
            "phase-1",
            ("phase-1", "any-time"),
            doc="when the single pass of the game may be used",
        ),
        Option(
            "phase1_scoring",
            True,
            (True, False),
            doc="whether combinations made while building the line score",
        ),
        Option(
            "swap_zone",
            "interior",
            ("interior", "centre"),
            doc="which adjacent pairs may be swapped in phase 2",
        ),
        Option(
            "target",
            7,
            check=positive_int,
            describe_allowed="a positive integer",
            doc="points that win",
        ),
        Option(
            "turn_limit",
            200,
            (None,),
            check=positive_int,
            describe_allowed="a positive integer or None",
            doc="(chosen) turns after which the higher score wins, a tie shares the win",
        ),
    )

    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    # --- the deal as chance nodes, the action ids, the tensor (engines/deal.py) -----------
    explicit_chance = True

    def _deal(self, dealer: Dealer, rng: random.Random) -> BlueLionState:
        """The toss: the six pairs to the tiles (seen by nobody), then each tile's up face,
        then the first player when it is random."""
        labels = dealer.sample([_label(pair) for pair in PAIRS], seen_by=())
        pairs = {tile: frozenset(label) for tile, label in zip(TILES, labels, strict=True)}
        up = {tile: dealer.choice(sorted(pair)) for tile, pair in pairs.items()}
        first = self.options["first_player"]
        if first == "random":
            first = dealer.choice(SEATS)
        return self.arrange(rng, pairs, up, first)

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        return (*(_label(pair) for pair in PAIRS), *ICONS, *SEATS)

    def _action_universe(self) -> list[Action]:
        """Lays, the pass, moves, swaps, flips, returns; in that order, fields in order."""
        flips = (False, True)
        return [
            *(act.Lay(t, end, f) for t in TILES for end in (None, *act.ENDS) for f in flips),
            act.Pass(),
            *(act.MoveEnd(t) for t in TILES),
            *(act.Swap(a, b) for a in TILES for b in TILES if a != b),
            *(act.Flip(t) for t in TILES),
            *(act.Return(t, end, f) for t in TILES for end in act.ENDS for f in flips),
        ]

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        """Found by identity for the instances `legal_actions` lists (hashing a dataclass
        cost more than the rest of listing a state's ids); the numbering is the same for
        every option, so one table serves every game."""
        found = _IDS.get(id(action))
        if found is None:
            found = super()._action_ids(action)
            if listed(action):
                _IDS[id(action)] = found
        return found

    @property
    def max_game_length(self) -> int | None:
        """Each turn is a main action and at most one return per tile."""
        limit = self.options["turn_limit"]
        return None if limit is None else limit * (1 + len(TILES))

    def _observation_shape(self) -> tuple[int, ...]:
        return (len(TILES) * _TILE_FEATURES + 2 * 3 + 5 + self.num_distinct_actions,)

    def _encode(self, info: InformationSet) -> list[float]:
        """Per tile: where it is, its up face, the faces seen on it; then the scores (over
        the target), whose turn and whose view, the turn's flags, the previous main action.
        Everything but the seat is public in Blue Lion."""
        view = self.public_state(info)
        shown = seen.faces_shown(info.observations)
        out: list[float] = []
        for tile in TILES:
            place = [0.0] * 9
            if tile in view.pool:
                place[0] = 1.0
            elif tile in view.line:
                place[1 + view.line.index(tile)] = 1.0
            else:
                place[7 if tile in view.aside else 8] = 1.0
            out += place
            out += [float(view.up[tile] == icon) for icon in ICONS]
            out += [float(icon in shown[tile]) for icon in ICONS]
        target, limit = self.options["target"], self.options["turn_limit"]
        out += [view.scores[seat] / target for seat in SEATS]
        out += [float(view.to_move == seat) for seat in SEATS]
        out += [float(info.seat == seat) for seat in SEATS]
        out += [float(view.main_done), float(view.passed), float(view.phase == 2)]
        out += [view.turns / limit if limit else 0.0, float(view.over)]
        last = [0.0] * self.num_distinct_actions
        if view.last_main is not None:
            last[self.action_id(view.last_main)] = 1.0
        return out + last

    def arrange(
        self,
        rng: random.Random,
        pairs: Mapping[str, frozenset[str]],
        up: Mapping[str, str],
        first: str,
    ) -> BlueLionState:
        """A new game with the tiles, faces and first player given (for tests and teaching).

        Raises:
            InvalidState: the tiles do not carry the six pairs of icons once each, a tile does
                not show one of its own faces, or `first` is not a seat.
        """
        _check_setup(pairs, up, first)
        state = BlueLionState(self, rng, pairs, up, first)
        state._setup = Setup.record(
            rng,
            pairs={tile: sorted(pair) for tile, pair in pairs.items()},
            up=dict(up),
            first=first,
        )
        for tile in TILES:
            state._emit(seen.Toss(tile, up[tile]))
        state._emit(seen.First(first))
        return state

    def reconstruct(
        self, info: InformationSet, pairs: Mapping[str, frozenset[str]]
    ) -> BlueLionState:
        """The state `info` describes, with the hidden tile pairs taken from `pairs`.

        Raises:
            InvalidState: `pairs` contradicts a face seen in `info`.
        """
        up = {obs.tile: obs.face for obs in info.observations if isinstance(obs, seen.Toss)}
        first = next((obs.seat for obs in info.observations if isinstance(obs, seen.First)), None)
        if len(up) < len(TILES) or first is None:
            raise IncompleteInformationSet(
                f"the toss is not finished: {len(up)} of {len(TILES)} tiles have landed"
                + ("" if len(up) < len(TILES) else " and nobody starts yet"),
                waiting_for="the rest of the toss" if len(up) < len(TILES) else "who starts",
            )
        for tile, face in up.items():
            if face not in pairs[tile]:
                raise InvalidState(
                    f"{tile} landed showing {face}, not one of {sorted(pairs[tile])}"
                )
        state = self.arrange(random.Random(0), pairs, up, first)
        for obs in info.observations:
            if isinstance(obs, seen.Act):
                state.apply(self.parse_action(obs.action))
        if state.information_set(info.seat).observations != info.observations:
            raise InvalidState("these tile pairs contradict a face seen during the game")
        return state

    def public_state(self, info: InformationSet) -> BlueLionState:
        """The position `info` describes, with placeholder backs consistent with every face seen.

        Everything public (line, faces, scores, whose turn) is exact; the backs are one guess
        among the consistent ones, so callers must not read them.
        """
        shown = seen.faces_shown(info.observations)
        for perm in permutations(PAIRS):
            if all(shown[tile] <= pair for tile, pair in zip(TILES, perm, strict=True)):
                return self.reconstruct(info, dict(zip(TILES, perm, strict=True)))
        raise InvalidState("no assignment of the six pairs shows every face seen")

    def seat_view(self, info: InformationSet) -> BlueLionState:
        return self.public_state(info)

    def _move_at(self, info: InformationSet, index: int) -> Action | None:
        """Each move is recorded first, whole, as its seat's `act` (Blue Lion hides no choice:
        the faces a flip shows follow it)."""
        obs = info.observations[index]
        if isinstance(obs, seen.Act) and obs.seat == info.seat:
            return self.parse_action(obs.action)
        return None

    def _parse_action(self, text: str) -> act.BlueLionAction:
        return act.parse(text)

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        tile = choice_domain(TILES, "a tile t1..t6")
        end = choice_domain(act.ENDS, "'left', 'right'")
        return {
            act.Lay: {"tile": tile, "end": choice_domain((*act.ENDS, None)), "flip": BOOL},
            act.Pass: {},
            act.MoveEnd: {"tile": tile},
            act.Swap: {"first": tile, "second": tile},
            act.Flip: {"tile": tile},
            act.Return: {"tile": tile, "end": end, "flip": BOOL},
        }

    def _action_problem(self, action: Action) -> str | None:
        if isinstance(action, act.Swap) and action.first == action.second:
            return "a swap exchanges two different tiles"
        return None

    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> BlueLionState:
        setup = read.mapping(setup, "setup", ("pairs", "up", "first"))
        pairs = read.mapping(setup["pairs"], "setup.pairs", TILES)
        up = read.mapping(setup["up"], "setup.up", TILES)
        faces = {}
        for tile in TILES:
            faces[tile] = frozenset(read.choices(pairs[tile], f"setup.pairs.{tile}", ICONS))
            if len(faces[tile]) != 2:
                read.fail(f"setup.pairs.{tile}", pairs[tile], "two different icons of L, F, Z, B")
            read.choice(up[tile], f"setup.up.{tile}", ICONS)
        first = read.choice(setup["first"], "setup.first", SEATS)
        return self._arranged(lambda: self.arrange(rng, faces, up, first), read)


def _check_setup(pairs: Mapping[str, frozenset[str]], up: Mapping[str, str], first: str) -> None:
    """What `arrange` refuses: see its docstring."""
    if sorted(pairs) != list(TILES) or sorted(map(sorted, pairs.values())) != _PAIRS:
        raise InvalidState(
            f"the tiles {', '.join(TILES)} must carry the six pairs of two different icons, "
            f"each once, not {quote(dict(pairs))}"
        )
    if sorted(up) != list(TILES) or any(up[tile] not in pairs[tile] for tile in TILES):
        raise InvalidState(f"each tile must show one of its own two faces, not {quote(dict(up))}")
    if not one_of(first, SEATS):
        raise InvalidState(f"the first player cannot be {quote(first)}; allowed: lupin, fujiko")


_PAIRS = sorted(map(sorted, PAIRS))
_IDS: dict[int, tuple[int, ...]] = {}
"""The ids of each listed action instance, by the instance's id (it lives as long as the
module, so no other object has that id)."""
_TILE_FEATURES = 9 + 4 + 4


def _label(pair: frozenset[str]) -> str:
    """A pair of icons as one chance outcome: its two letters in icon order ("LF")."""
    return "".join(icon for icon in ICONS if icon in pair)
