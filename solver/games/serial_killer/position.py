"""An information set of Serial Killer read as tokens (rules/serial_killer.md §8).

Token `(g, k)` is the card that started at depth k of genre g's deck (0 = top); draws take
them in order, so the public log says which token every draw took. What a seat does not know
is the bijection from each genre's tokens to its traits and, for another player's overflow
discard, which of their tokens of the announced genre went to the lab (a `Discard`, whose
choice is named by its lab position). Every private view becomes a constraint on those,
tagged with its observation's index:

- a pin: the seat drew the token, discarded it, or the end revealed it;
- a hand check: a briefing showed player j's cards of the genre at that moment, so j's tokens
  still in hand then (drawn, minus the discards before) carry exactly those traits;
- a lab check: the card at a lab position, whose token is known or is a discard's choice.

Each constraint concerns one genre, so the genres are independent given the public record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engines import InformationSet, InvalidInformationSet
from engines.serial_killer import Components, SerialKiller, SerialKillerState, replay
from engines.serial_killer import observations as seen

Token = tuple[str, int]


def token_name(token: Token) -> str:
    return f"{token[0]}#{token[1]}"


@dataclass
class Discard:
    """Another player's overflow discard: one of `domain` (their tokens of the genre drawn
    before it) went to lab `position`."""

    source: int
    seat: int
    position: int
    domain: tuple[Token, ...]


@dataclass
class HandCheck:
    source: int
    seat: int
    drawn: tuple[Token, ...]  # the target's tokens of the genre drawn before the briefing
    discards: tuple[int, ...]  # lab positions of the target's earlier discards of the genre
    cards: frozenset[str]


@dataclass
class LabCheck:
    source: int
    position: int
    card: str


@dataclass
class GenrePlan:
    """Everything the seat's record says about one genre."""

    genre: str
    cards: tuple[str, ...]
    drawn: list[tuple[Token, int]] = field(default_factory=list)  # (token, drawing seat)
    drawn_at: dict[Token, int] = field(default_factory=dict)  # token -> its draw's index
    pins: dict[Token, tuple[str, int]] = field(default_factory=dict)  # token -> (card, source)
    discards: list[Discard] = field(default_factory=list)
    own_discards: dict[int, Token] = field(default_factory=dict)  # lab position -> token
    own_discard_at: dict[int, int] = field(default_factory=dict)  # lab position -> index
    revealed: str | None = None  # the profile's card, once the end has shown it
    hand_checks: list[HandCheck] = field(default_factory=list)
    lab_checks: list[LabCheck] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def tokens(self) -> tuple[Token, ...]:
        return tuple((self.genre, k) for k in range(self.size))

    @property
    def bottom(self) -> Token:
        return (self.genre, self.size - 1)

    def drawn_by(self, seat: int) -> list[Token]:
        return [token for token, who in self.drawn if who == seat]

    def locations(self, players: int) -> tuple[str, ...]:
        """Where a card of this genre can be now (the values of its `at:` variable)."""
        labs = [f"lab:{d.position}" for d in self.discards]
        labs += [f"lab:{p}" for p in self.own_discards]
        return ("deck", "profile", *(f"hand:{j}" for j in range(players)), *sorted(labs))


@dataclass
class Looks:
    """What one player chose to look at (public): briefings and lab views, by index."""

    briefings: list[tuple[int, int]] = field(default_factory=list)  # (index, target)
    labs: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (index, positions)


@dataclass
class Position:
    game: SerialKiller
    seat: int
    plans: dict[str, GenrePlan]
    looks: dict[int, Looks] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.game.players


@lru_cache(maxsize=16)
def public_view(info: InformationSet) -> SerialKillerState:
    """The position `info` describes, replayed with every action checked (IllegalAction if
    one is not legal); remembered for the last few, as validation, the hints and the
    advice all read it, and none changes it."""
    game = info.make_game()
    assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
    return replay(game, info.observations, info.seat, strict=True)


@lru_cache(maxsize=16)
def parse(info: InformationSet) -> Position:
    """The token reading of a (validated) information set (remembered for the last few: the
    model, the counter, the hints and the bots all read the same one; none changes it)."""
    game = SerialKiller.of(info)
    me = info.seat
    assert isinstance(me, int)
    _require_public_genres(game)
    parts = game.parts
    plans = {g.id: GenrePlan(g.id, g.cards) for g in parts.genres}
    lab_genre: dict[int, str] = {}
    last_draw: Token | None = None
    own: dict[str, Token] = {}  # own card -> its token
    observations = info.observations
    looks = {seat: Looks() for seat in game.seats if isinstance(seat, int)}
    for index, obs in enumerate(observations):
        match obs:
            case seen.BuyBriefing(seat=seat, targets=targets):
                looks[seat].briefings += [(index, t) for t in targets]
            case seen.BuyLab(seat=seat, positions=positions):
                looks[seat].labs.append((index, tuple(positions)))
            case seen.Draw(seat=seat, genre=genre):
                plan = plans[genre]
                last_draw = (plan.genre, len(plan.drawn))
                plan.drawn.append((last_draw, seat))
                plan.drawn_at[last_draw] = index
            case seen.SeeDraw(card=card):
                assert last_draw is not None
                own[card] = last_draw
                plans[last_draw[0]].pins[last_draw] = (card, index)
            case seen.LabPlaceGenre(seat=seat, position=position, genre=genre):
                plan = plans[genre]
                lab_genre[position] = plan.genre
                if seat == me:
                    shown = observations[index + 1]
                    assert isinstance(shown, seen.SeeDiscard)  # the game shows it next
                    plan.own_discards[position] = own[shown.card]
                    plan.own_discard_at[position] = index
                else:
                    plan.discards.append(Discard(index, seat, position, tuple(plan.drawn_by(seat))))
            case seen.SeeHand(target=target, cards=hand):
                _see_hand(plans, index, target, hand)
            case seen.SeeLab(cards=pairs):
                for position, card in pairs:
                    plans[lab_genre[position]].lab_checks.append(LabCheck(index, position, card))
            case seen.GameEnd(profile=profile):
                _reveal(plans, parts, index, profile)
    return Position(game, me, plans, looks)


def _require_public_genres(game: SerialKiller) -> None:
    """Raises InvalidInformationSet unless the card backs show their genre (the tokens are
    read genre by genre)."""
    if not game.options["genre_public"]:
        raise InvalidInformationSet(
            "serial-killer: the knowledge model needs the card backs to show their genre "
            "(option genre_public True)"
        )


def _see_hand(plans: dict[str, GenrePlan], index: int, target: int, hand: tuple[str, ...]) -> None:
    """A briefing showed `target`'s hand: per genre, a check of the tokens they drew, less
    their discards so far, against the cards of the genre seen."""
    for plan in plans.values():
        earlier = tuple(d.position for d in plan.discards if d.seat == target)
        cards = frozenset(c for c in hand if c in plan.cards)
        drawn = tuple(plan.drawn_by(target))
        plan.hand_checks.append(HandCheck(index, target, drawn, earlier, cards))


def _reveal(
    plans: dict[str, GenrePlan], parts: Components, index: int, profile: tuple[str, ...]
) -> None:
    """The end revealed the killer's profile: each card is its genre's bottom token."""
    for card in profile:
        plan = plans[parts.genre_of(card)]
        plan.pins.setdefault(plan.bottom, (card, index))
        plan.revealed = card
