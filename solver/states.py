"""Whole states drawn from a seat's posterior: `sample_state(info, rng)`.

A determinization for search (ISMCTS): a full `State` that agrees with everything the seat
saw (its information set replays exactly) and whose hidden part is drawn from the
Deduction's posterior. Blue Lion's hidden part is the tile pairs, a world of the Deduction;
Alibi's the box, the deal and the passes (a world of the Deduction: exact, or a record of its
Markov chain beyond exact counting), with others' pending choices drawn uniformly;
Noir's is the opponent's identity (a world of the Deduction) and the order of the cards the
seat never saw, uniform among the orders that replay the same record (drawn by rejection:
a uniform permutation of the unseen cards, kept when the record replays). Serial Killer's is
every deck's order and the tokens others discarded (a world of the Deduction), with the
recorded dice given as chance outcomes; City Killer's the killer's secrets (a world) and
the piles read slot by slot from the record (solver/city_killer_states.py).
"""

from __future__ import annotations

import functools
import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import engines
from engines import ConfigError, Game, InformationSet, InvalidState, State
from solver.deduction import Deduction, deduce

if TYPE_CHECKING:
    from engines.blue_lion import BlueLionState

_TRIES = 50


def has_sampler(game: str) -> bool:
    """Whether `sample_state` can draw states of `game`."""
    return game in _SAMPLERS


def sample_state(
    info: InformationSet, rng: random.Random, deduction: Deduction | None = None
) -> State:
    """A whole state consistent with `info`, drawn from the seat's posterior (`deduction`,
    when given, is `solver.deduce(info)` made once for many samples).

    Raises:
        ConfigError: the game has no state sampler.
        solver.Inconsistent: `info` contradicts itself.
    """
    sampler = _SAMPLERS.get(info.game)
    if sampler is None:
        raise ConfigError(
            f"{info.game}: no state sampler yet; games with one: {', '.join(sorted(_SAMPLERS))}"
        )
    return sampler(info, deduction or deduce(info), rng)


def _game(info: InformationSet) -> Game:
    """The information set's game, made once per name and options (a sample per simulation
    would otherwise rebuild its action universe each time)."""
    return _games(info.game, info.options)


@functools.lru_cache(maxsize=16)
def _games(name: str, options: tuple[tuple[str, object], ...]) -> Game:
    return engines.make(name, **dict(options))


def _blue_lion(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    from engines.blue_lion import BlueLion
    from solver.games.blue_lion import pairs_of

    (world,) = d.sample(1, seed=rng.randrange(2**32))
    pairs = pairs_of(world)
    base = _BLUE_LION_BASES.get(d)
    if base is None or not (d.info is info or d.info == info):
        game = _game(info)
        assert isinstance(game, BlueLion)
        base = _BLUE_LION_BASES[d] = game.reconstruct(info, pairs)
    return base.with_pairs(pairs)


_BLUE_LION_BASES: weakref.WeakKeyDictionary[Deduction, BlueLionState] = weakref.WeakKeyDictionary()
"""The replayed game of each live Deduction's information set: ISMCTS samples a world per
simulation, and re-binding the backs of one replay (`with_pairs`) is what replaying the whole
record again would give, at a tenth of its cost."""


def _noir(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    from engines.noir import Noir
    from solver.games.noir import INSPECTOR_VAR, KILLER_VAR, UNCHOSEN, hidden_for

    game = _game(info)
    assert isinstance(game, Noir)
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    theirs = INSPECTOR_VAR if info.seat == KILLER_VAR else KILLER_VAR
    identity = str(world[theirs])
    if identity == UNCHOSEN:  # the inspector has not chosen: any of his cards will do
        identity = ""
    hidden = hidden_for(info, identity)
    base = game.reconstruct(info, hidden)
    seen = _names_seen(info) | ({identity} if identity else set())
    for _ in range(_TRIES):
        shuffled = dict(hidden)
        for key in ("deck", "killer_deck"):
            deck = hidden.get(key)
            if isinstance(deck, list):
                shuffled[key] = _permute_unseen(deck, seen, rng)
        try:
            state = game.reconstruct(info, shuffled)
        except InvalidState:
            continue
        if state.information_set(info.seat) == info:
            return state
    return base


def _alibi(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    """The box, the dealt hands and every completed pass from a world of the Deduction;
    the pending choices of others (a pass chosen this round, a written solution) uniform
    among the legal ones, as the prior treats them."""
    from engines.alibi import Alibi
    from engines.alibi.deck import TYPES
    from solver.games.alibi.model import BOX, at_var, box_var
    from solver.games.alibi.position import parse

    game = _game(info)
    assert isinstance(game, Alibi)
    pos, n = parse(info), game.players
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    ids = pos.ids

    def at(card: str, epoch: int) -> object:
        return world.get(at_var(card, epoch))

    hands = [[card for card in ids if at(card, 0) == seat] for seat in range(n)]
    box = [str(world[box_var(kind)]) for kind in TYPES]
    assert all(at(card, 0) == BOX for card in box)
    passes: list[list[list[str]]] = []
    for epoch in range(1, pos.epoch + 1):
        passes.append(
            [
                [c for c in ids if at(c, epoch - 1) == s and at(c, epoch) == (s + 1) % n]
                for s in range(n)
            ]
        )
    now = [
        sorted(c for c in ids if at(c, pos.epoch) == s and int(pos.index[c]) not in pos.laid_by)
        for s in range(n)
    ]
    pending: list[list[str]] = [[] for _ in range(n)]
    solutions: dict[str, list[str]] = {
        str(obs["seat"]): list(obs["cards"]) for obs in info.observations if obs.kind == "solution"
    }  # revealed at the end
    for obs in info.observations:
        if obs.kind == "choose_pass" and obs.get("cards") is None:
            hand = now[obs["seat"]]
            pending[obs["seat"]] = sorted(rng.sample(hand, min(obs["count"], len(hand))))
        elif obs.kind == "choose_solution" and str(obs["seat"]) not in solutions:
            solutions[str(obs["seat"])] = [rng.choice(game.deck.of_type(k)) for k in TYPES]
    if any(pending):
        passes.append(pending)
    hidden = {"box": box, "hands": hands, "passes": passes, "solutions": solutions}
    return game.reconstruct(info, hidden)


def _city_killer(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    from solver.city_killer_states import sample

    return sample(info, d, rng)


def _serial_killer(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    """Every deck's order from a world of the Deduction (the trait of each token), with the
    tokens others discarded; the dice in each roll's counts in a uniform order; the profile
    another player declared as the end revealed it, else uniform (nothing public depends on
    it before the end). The chance outcomes are given, so play on draws chance nodes."""
    from engines.serial_killer import Declare, Discard, SerialKiller
    from engines.serial_killer.game import action_of
    from solver.games.serial_killer.counting import delta_var, tok_var

    game = info.make_game()
    assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
    observations, me = info.observations, info.seat
    (world,) = d.sample(1, seed=rng.randrange(2**32))

    def card_of(token: str) -> str:
        genre, _, depth = token.partition("#")
        return str(world[tok_var((genre, int(depth)))])

    decks = {g.id: [card_of(f"{g.id}#{k}") for k in range(len(g.cards))] for g in game.parts.genres}
    setup = observations[0]
    districts = {g: district for g, district, _ in setup["decks"]}
    state = game.arrange(random.Random(0), decks, districts, setup["first_player"])
    draws: list[object] = []
    revealed: dict[int, tuple[str, ...]] = {}
    for obs in observations:
        if obs.kind == "roll":
            faces = [f for f, k in enumerate(obs["counts"], 1) for _ in range(k)]
            rng.shuffle(faces)
            draws += faces
        elif obs.kind in ("relocate", "pollution", "attempt"):
            draws.append(
                obs[{"relocate": "district", "pollution": "die", "attempt": "total"}[obs.kind]]
            )
        elif obs.kind == "end":
            revealed = {seat: tuple(profile) for seat, _, profile in obs["declarations"]}
    state._given = draws
    mine = iter(obs["card"] for obs in observations if obs.kind == "see_discard")
    for index, obs in enumerate(observations):
        action = action_of(state, obs)
        if isinstance(action, Discard):
            seat = obs["seat"]
            action = Discard(
                next(mine) if seat == me else card_of(str(world[delta_var(obs["position"])]))
            )
        elif isinstance(action, Declare):
            seat = obs["seat"]
            if seat == me and index and observations[index - 1].kind == "declaration":
                action = Declare(tuple(observations[index - 1]["profile"]))
            else:
                profile = revealed.get(seat)
                if profile is None or state.seq[seat] is not None:
                    profile = tuple(rng.choice(g.cards) for g in game.parts.genres)
                action = Declare(profile)
        if action is not None:
            state.apply_trusted(action)
    if state.information_set(me) != info:
        raise InvalidState("serial-killer: the sampled state does not replay the record")
    return state


def _names_seen(info: InformationSet) -> set[str]:
    """Every suspect the seat saw as a card (not merely on the grid)."""
    seen: set[str] = set()
    for obs in info.observations:
        for key, value in obs.fields:
            if key in ("suspect", "drawn", "former", "agent") and isinstance(value, str):
                seen.add(value)
            elif key == "cards" and isinstance(value, tuple):
                seen.update(v for v in value if isinstance(v, str))
    return seen


def _permute_unseen(deck: list[str], seen: set[str], rng: random.Random) -> list[str]:
    """`deck` with the cards not in `seen` shuffled among their places."""
    places = [i for i, card in enumerate(deck) if card not in seen]
    cards = [deck[i] for i in places]
    rng.shuffle(cards)
    out = list(deck)
    for i, card in zip(places, cards, strict=True):
        out[i] = card
    return out


_SAMPLERS: dict[str, Callable[[InformationSet, Deduction, random.Random], State]] = {
    "alibi": _alibi,
    "blue-lion": _blue_lion,
    "city-killer": _city_killer,
    "noir": _noir,
    "serial-killer": _serial_killer,
}
