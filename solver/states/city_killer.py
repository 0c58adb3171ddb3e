"""Whole City Killer states drawn from a seat's posterior (`solver.sample_state`).

The killer's identity, motive, allies and figurant come from a world of the Deduction; the
piles (the killer's deck with the cards under the crime scenes, the detective's deck, the
evidence supply) are read from the record as slots, one per card drawn, in draw order. A slot
the seat saw holds its card; a slot of the other seat's hand takes the card it is later seen
to play, discard or check (a random one of that hand's unknown slots, as nothing public tells
them apart), and the killer's hidden keep is a random one of the scene's two cards. What no
observation names is then dealt at random from what is left of each pile, so the other seat's
unseen cards are uniform given what it was seen to use (its choices are not modelled). The
state is built from that setup and replayed through the rules, its chance outcomes given;
a proposal that does not replay the record exactly is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from engines import ConfigError, InformationSet, InvalidState, State
from engines.city_killer import CityKiller, CityKillerState
from engines.city_killer import observations as seen
from engines.city_killer.actions import Grouped, Keep, Named
from engines.city_killer.material import (
    BUILDINGS,
    DETECTIVE,
    GROUPS,
    KILLER,
    KILLER_DECK,
    SCENES,
    UNDER_SCENE,
    deck,
)
from engines.errors import IllegalAction, InvalidAction
from engines.observations import Observation
from solver.deduction import Deduction
from solver.games.city_killer import NONE, F, G, K, M

TRIES = 30


@dataclass(eq=False)
class Slot:
    """One card of a pile: known (`card`) or still to be dealt (compared by identity)."""

    card: str | None = None


class _Piles:
    """The slots of every pile and hand, followed through one seat's record."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.under = [[Slot() for _ in range(UNDER_SCENE)] for _ in range(SCENES)]
        self.killer_start = [Slot() for _ in range(len(deck(KILLER_DECK)) - SCENES * UNDER_SCENE)]
        self.killer_queue = list(self.killer_start)
        self.detective: list[Slot] = []  # the detective deck's draws, in order
        self.evidence: list[Slot] = []  # the supply's draws, in order
        self.hands: dict[str, list[Slot]] = {KILLER: [], DETECTIVE: []}
        self.tokens: list[Slot] = []  # the detective's evidence tokens
        self.pair: list[Slot] = []  # the two cards of the last crime scene
        self.examined: list[Slot] = []  # the two tokens of the last examination
        self.kept: list[Slot] = []  # the card the killer kept at each crime scene

    def use(self, held: list[Slot], card: str) -> None:
        """`card` leaves `held`: its slot, or a random unknown one, which is then `card`."""
        for slot in held:
            if slot.card == card:
                held.remove(slot)
                return
        unknown = [slot for slot in held if slot.card is None]
        if not unknown:
            raise _Retry
        slot = self.rng.choice(unknown)
        slot.card = card
        held.remove(slot)

    def keep(self, known: str | None) -> None:
        """The killer keeps one of the scene's two cards (the one he saw he kept, or
        either); the other goes under his deck."""
        pair = self.pair
        if known is None:
            kept = self.rng.choice(pair)
        else:
            matching = [s for s in pair if s.card == known] or [s for s in pair if s.card is None]
            if not matching:
                raise _Retry
            kept = matching[0]
            kept.card = known
        self.hands[KILLER].append(kept)
        self.killer_queue += [s for s in pair if s is not kept]
        self.kept.append(kept)

    def draw(self, pile: str, seat: str, card: str | None) -> None:
        """A draw from `pile` by `seat` (`card`: what it is, if known): the killer deck's
        next slot to his hand, a new detective card (to the detective's hand when his), or a
        new evidence token, examined with the one before."""
        if pile == "killer-deck":
            if not self.killer_queue:
                raise _Retry
            slot = self.killer_queue.pop(0)
            _know(slot, card)
            self.hands[KILLER].append(slot)
        elif pile == "detective-deck":
            slot = Slot(card)
            self.detective.append(slot)
            if seat == DETECTIVE:
                self.hands[DETECTIVE].append(slot)
        else:
            slot = Slot(card)
            self.evidence.append(slot)
            self.tokens.append(slot)
            self.examined = [*self.examined[-1:], slot]

    def keep_token(self, token: str) -> None:
        """The detective keeps `token`, one of the two he examined; the other is the one
        left examined (for its discard)."""
        pair = self.examined
        self.tokens = [s for s in self.tokens if s not in pair]
        self.use(list(pair), token)  # which of the two is the kept one
        kept = next(s for s in pair if s.card == token)
        self.tokens.append(kept)
        self.examined = [s for s in pair if s is not kept]


class _Retry(Exception):
    """This proposal cannot replay the record; draw another."""


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    """A City Killer state replaying `info` exactly (see the module's docstring).

    Raises:
        ConfigError: the option empty_deck is "reshuffle" (reshuffled piles are not read).
        InvalidState: no proposal replayed the record in `TRIES` draws.
    """
    game = CityKiller.of(info)
    if game.options["empty_deck"] == "reshuffle":
        raise ConfigError(
            "city-killer: no state sampler with empty_deck=reshuffle (reshuffled piles "
            "are not read); use empty_deck=none"
        )
    for _ in range(TRIES):
        (world,) = d.sample(1, seed=rng.randrange(2**32))
        try:
            state = _propose(game, info, world, rng)
        except (_Retry, IllegalAction, InvalidAction, InvalidState):
            continue
        if state.information_set(info.seat) == info:
            return state
    raise InvalidState(f"city-killer: no sampled state replayed the record in {TRIES} draws")


class _Secrets(NamedTuple):
    """The killer's secrets in one proposal, and the three groups he drew (his allies
    among them)."""

    identity: str
    motive: str
    allies: str
    figurant: str | None
    drawn: list[str]


def _propose(
    game: CityKiller, info: InformationSet, world: Mapping[str, Hashable], rng: random.Random
) -> CityKillerState:
    """A state of `world` whose piles follow the record, replayed through its actions
    (raises _Retry when the record cannot be followed)."""
    obs = info.observations
    piles = _Piles(rng)
    secrets = _secrets(game, obs, world, rng)
    draws: list[object] = []
    for i, o in enumerate(obs):
        after = obs[i + 1] if i + 1 < len(obs) else None
        seen_card = after.card if isinstance(after, seen.Drew) else None
        _follow(piles, o, after, seen_card, secrets.figurant, draws)
    killer_cards = [s for pair in piles.under for s in pair] + piles.killer_start
    _deal_piles(game, piles, killer_cards, rng)
    state = _arranged(game, obs[0], secrets, piles, killer_cards)
    state._given = draws
    _replay(game, state, obs, secrets, piles)
    return state


def _secrets(
    game: CityKiller,
    obs: tuple[Observation, ...],
    world: Mapping[str, Hashable],
    rng: random.Random,
) -> _Secrets:
    """The killer's secrets: as the end showed them, or the killer saw them, else the
    world's (a world without a figurant is retried when the game has one)."""
    secrets = next((o for o in obs if isinstance(o, seen.Secrets)), None)
    kept = next((o.group for o in obs if isinstance(o, seen.Allies)), None)
    identity = str(world[K]) if secrets is None else secrets.identity
    motive = str(world[M]) if secrets is None else secrets.motive
    allies = str(world[G]) if kept is None else kept
    figurant: str | None = None
    if game.options["use_figurant"]:
        figurant = str(world[F]) if secrets is None else secrets.figurant
        if figurant == NONE:
            raise _Retry
    end = next((o for o in obs if isinstance(o, seen.End)), None)
    if end is not None:  # the end shows the killer's secrets
        identity, motive, allies = end.identity, end.motive, end.allies
        figurant = end.figurant if game.options["use_figurant"] else None
    drawn = _drawn_groups(obs, secrets, allies, rng)
    return _Secrets(identity, motive, allies, figurant, drawn)


def _drawn_groups(
    obs: tuple[Observation, ...], secrets: seen.Secrets | None, allies: str, rng: random.Random
) -> list[str]:
    """The three groups the killer drew: as he saw them, else his allies and two at random
    of the groups never revealed."""
    if secrets is not None:
        return list(secrets.drawn)
    revealed = {o.group for o in obs if isinstance(o, seen.GroupToken)}
    others = [g for g in GROUPS if g != allies and g not in revealed]
    return [allies, *rng.sample(others, 2)]


def _deal_piles(
    game: CityKiller, piles: _Piles, killer_cards: list[Slot], rng: random.Random
) -> None:
    """Fill the detective deck and the evidence supply with unknown slots up to their size,
    and deal every pile's unknown slots the cards no observation named."""
    detective_size = len(game.detective_deck())
    piles.detective += [Slot() for _ in range(detective_size - len(piles.detective))]
    supply = sum(game.options["evidence_mix"])
    piles.evidence += [Slot() for _ in range(supply - len(piles.evidence))]
    mix = [
        b for b, n in zip(BUILDINGS, game.options["evidence_mix"], strict=True) for _ in range(n)
    ]
    for slots, cards in (
        (killer_cards, deck(KILLER_DECK)),
        (piles.detective, game.detective_deck()),
        (piles.evidence, mix),
    ):
        _deal(slots, cards, rng)


def _arranged(
    game: CityKiller, setup: Observation, secrets: _Secrets, piles: _Piles, killer_cards: list[Slot]
) -> CityKillerState:
    """The state set up as the record's city, with these secrets and the dealt piles (the
    identity and figurant left to the killer's choice when he chooses them)."""
    assert isinstance(setup, seen.CitySetup)
    placement = [list(p) for p in setup.placement]
    chosen = game.options["identity_choice"] == "choose"
    return game.arrange(
        random.Random(0),
        list(setup.residents),
        placement,
        [list(b) for b in setup.buildings],
        None if chosen else secrets.identity,
        None if chosen else secrets.figurant,
        secrets.motive,
        secrets.drawn,
        [str(s.card) for s in killer_cards],
        [str(s.card) for s in piles.detective],
        [str(s.card) for s in piles.evidence],
    )


def _replay(
    game: CityKiller,
    state: CityKillerState,
    obs: tuple[Observation, ...],
    secrets: _Secrets,
    piles: _Piles,
) -> None:
    """Apply the record's actions, the hidden choices (identity, allies, the card kept at
    each crime scene) as the proposal has them."""
    keeps = iter(str(s.card) for s in piles.kept)
    for o in obs:
        if not isinstance(o, seen.Act):
            continue
        text = o.move
        if text == "identity ?":
            state.apply(Named("identity", secrets.identity))
        elif text == "allies ?":
            state.apply(Grouped("allies", secrets.allies))
        elif text == "keep ?":
            state.apply(Keep(next(keeps)))
        else:
            state.apply(game.parse_action(text))


def _follow(
    piles: _Piles,
    o: Observation,
    after: Observation | None,
    seen_card: str | None,
    figurant: str | None,
    draws: list[object],
) -> None:
    """Move the slots as observation `o` records (`seen_card`: the card the seat saw drawn)."""
    match o:
        case seen.Reshuffle():
            raise _Retry
        case seen.Draw(seat=seat, pile=pile, card=drawn):
            piles.draw(pile, seat, drawn or seen_card)
        case seen.Murder(scene=scene) | seen.Bomb(scene=scene):
            piles.pair = piles.under[scene - 1]
        case seen.SceneCards(cards=cards):
            for slot, card in zip(piles.pair, cards, strict=True):
                _know(slot, card)
        case seen.Act(move="keep ?"):
            piles.keep(after.card if isinstance(after, seen.Kept) else None)
        case seen.Act(move="identity ?") if figurant is not None:
            draws.append(figurant)  # the figurant is drawn when the killer chooses himself
        case seen.Act(seat=seat, move=move) if seat == DETECTIVE and move.startswith("keep "):
            piles.keep_token(move.split()[1])
        case seen.EvidenceDiscard(tokens=tokens):
            for slot, token in zip(piles.examined, tokens, strict=False):
                _know(slot, token)
        case seen.Played(seat=seat, card=card):
            piles.use(piles.hands[seat], card)
        case seen.Discarded(card=card):
            piles.use(piles.hands[DETECTIVE], card)
        case seen.EvidenceCheck(token=token, position=position, card=card):
            piles.use(piles.tokens, token)
            if position:
                piles.hands[DETECTIVE].append(Slot(card))
        case seen.GroupToken(group=group):
            draws.append(group)


def _know(slot: Slot, card: str | None) -> None:
    if card is None or card == "?":
        return
    if slot.card is not None and slot.card != card:
        raise _Retry
    slot.card = card


def _deal(slots: list[Slot], cards: list[str], rng: random.Random) -> None:
    """Give the slots no observation named the rest of `cards`, in a random order."""
    left = list(cards)
    for slot in slots:
        if slot.card is not None:
            if slot.card not in left:
                raise _Retry
            left.remove(slot.card)
    rng.shuffle(left)
    for slot in slots:
        if slot.card is None:
            slot.card = left.pop()
