"""Serial Killer's constraint model (rules/serial_killer.md §8), for certainty and
explanations; `counting` gives the same worlds' probabilities exactly.

Variables: `tok:G#k` (the trait of each token), `delta:p` (the token another player put at
lab position p), `at:CARD` (where each card is now: deck, profile, hand:j, lab:p). The rules
(untagged): each genre's tokens carry its traits once each; a player's discards are distinct
tokens; `at` follows from the tokens and the discards. Each private view is tagged with its
observation.
"""

from __future__ import annotations

from collections.abc import Callable

from engines import InformationSet
from engines.serial_killer import COLOURS
from solver.games.serial_killer.counting import at_var, delta_var, location, tok_var
from solver.games.serial_killer.position import (
    GenrePlan,
    HandCheck,
    LabCheck,
    Position,
    Token,
    parse,
    token_name,
)
from solver.model import Clause, Count, Fact, Lit, Model, Var, member

PROFILE = "Profile"
"""The kind of Serial Killer's facts about the profile: a genre's trait is the killer's."""


def build(info: InformationSet) -> Model:
    position = parse(info)
    model = Model(info)
    for plan in position.plans.values():
        _genre(model, plan, position)
    return model


def profile_fact(position: Position, plan: GenrePlan, card: str) -> Fact:
    parts = position.game.parts
    genre = parts.by_genre[plan.genre]
    return Fact(
        PROFILE,
        (plan.genre, card),
        tok_var(plan.bottom),
        frozenset({card}),
        f"the killer's {genre.name} is {parts.trait_name(card)} ({card})",
    )


def at_fact(position: Position, card: str, where: str) -> Fact:
    return Fact("At", (card, where), at_var(card), frozenset({where}), f"{card} is {place(where)}")


def place(where: str) -> str:
    """A location in words ("hand:2", "lab:3", "profile", else a deck)."""
    kind, _, arg = where.partition(":")
    return _PLACES[kind](arg) if kind in _PLACES else "still in its deck"


_PLACES: dict[str, Callable[[str], str]] = {
    "hand": lambda seat: f"in {COLOURS[int(seat)]}'s hand",
    "lab": lambda position: f"in the lab at position {position}",
    "profile": lambda _: "the killer's profile",
}


def _genre(model: Model, plan: GenrePlan, position: Position) -> None:
    """The variables, rules, private views and facts of one genre's cards."""
    cards, tokens = plan.cards, plan.tokens
    model.variables += [Var(tok_var(t), cards) for t in tokens]
    model.constraints += [
        Count(tuple(Lit(tok_var(t), card) for t in tokens), "==", 1) for card in cards
    ]
    _discards(model, plan)
    locations = plan.locations(position.players)
    model.variables += [Var(at_var(card), locations) for card in cards]
    for token in tokens:
        _token_places(model, plan, token, position.seat)
    for token, (card, source) in plan.pins.items():
        model.constraints.append(member(tok_var(token), [card], source))
    for check in plan.hand_checks:
        _hand_check(model, plan, check)
    for lab in plan.lab_checks:
        _lab_check(model, plan, lab)
    model.facts += [profile_fact(position, plan, card) for card in cards]
    model.facts += [at_fact(position, card, where) for card in cards for where in locations]


def _discards(model: Model, plan: GenrePlan) -> None:
    """The token each other player's discard put in the lab, a player's discards being
    distinct tokens."""
    for d in plan.discards:
        model.variables.append(Var(delta_var(d.position), tuple(map(token_name, d.domain))))
    seats = {d.seat for d in plan.discards}
    for seat in seats:
        mine = [d for d in plan.discards if d.seat == seat]
        for token in {t for d in mine for t in d.domain}:
            lits = tuple(
                Lit(delta_var(d.position), token_name(token)) for d in mine if token in d.domain
            )
            if len(lits) > 1:
                model.constraints.append(Count(lits, "<=", 1))


def _token_places(model: Model, plan: GenrePlan, token: Token, me: int) -> None:
    """Where the card of `token` is: at the lab position of a discard choosing it, else at
    its base place."""
    chooser = [d for d in plan.discards if token in d.domain]
    base = location(plan, token, {}, me)
    for card in plan.cards:
        on = Lit(tok_var(token), card)
        # with no discard choosing it, the token is at its base place
        model.constraints.append(
            Clause(
                (
                    Lit(at_var(card), base),
                    *(Lit(delta_var(d.position), token_name(token)) for d in chooser),
                ),
                (on,),
            )
        )
        for d in chooser:
            chosen = Lit(delta_var(d.position), token_name(token))
            model.constraints.append(
                Clause((Lit(at_var(card), f"lab:{d.position}"),), (on, chosen))
            )


def _hand_check(model: Model, plan: GenrePlan, check: HandCheck) -> None:
    """A hand seen: each token the player drew is one of the cards seen there, unless a
    discard of theirs since took it."""
    for token in check.drawn:
        removers = tuple(
            Lit(delta_var(p), token_name(token))
            for p in check.discards
            if token in next(d.domain for d in plan.discards if d.position == p)
        )
        for card in plan.cards:
            if card not in check.cards:
                model.constraints.append(
                    Clause(removers, (Lit(tok_var(token), card),), check.source)
                )


def _lab_check(model: Model, plan: GenrePlan, lab: LabCheck) -> None:
    """A lab position seen: the token there (one's own discard, or the one another player's
    discard chose) is the card seen."""
    own = plan.own_discards.get(lab.position)
    if own is not None:
        model.constraints.append(member(tok_var(own), [lab.card], lab.source))
        return
    d = next(d for d in plan.discards if d.position == lab.position)
    for token in d.domain:
        model.constraints.append(
            Clause(
                (Lit(tok_var(token), lab.card),),
                (Lit(delta_var(d.position), token_name(token)),),
                lab.source,
            )
        )
