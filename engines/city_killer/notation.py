"""City Killer's observations in words and in a typed form.

A typed observation is its kind followed by `field=value` pairs, each value written as JSON
without spaces between items (`answer name="Vera" attr="height" value="tall" answer=true
source="interrogate"`); the assistant reads it back with `parse_entry`. Kinds are read with
abbreviations and "did you mean" (engines.notation), fields must be exactly the kind's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.city_killer.rules import DETECTIVE, KILLER, district_name
from engines.core import InvalidObservation, JsonValue, Observation, freeze, quote, thaw
from engines.notation import Vocabulary

if TYPE_CHECKING:
    from engines.city_killer.game import CityKiller

PRIVATE: dict[str, str | None] = {
    "identity": KILLER, "secrets": KILLER, "allies": KILLER, "scene-cards": KILLER,
    "kept": KILLER, "drew": None,
}  # fmt: skip
"""Kinds only one seat sees ("drew" goes to whoever drew: the pile says who)."""

FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("residents", "placement", "buildings"),
    "row": ("cards",),
    "secrets": ("identity", "figurant", "motive", "drawn"),
    "identity": ("name",),
    "allies": ("group",),
    "act": ("seat", "move"),
    "round": ("round",),
    "intimidate": ("name",),
    "murder": ("victim", "district", "scene", "round", "alone", "intimidated", "history"),
    "bomb": ("district", "casualties", "scene", "round"),
    "refusal": ("round", "count"),
    "scene-cards": ("scene", "cards"),
    "kept": ("card", "buried"),
    "token-back": ("name", "lost"),
    "moved": ("name", "district", "source"),
    "pawn": ("district", "cost"),
    "draw": ("pile", "seat", "card"),
    "drew": ("pile", "card"),
    "reshuffle": ("pile", "cards"),
    "examine": ("district",),
    "evidence-discard": ("tokens",),
    "interrogate": ("district",),
    "question": ("name", "attr", "value", "source"),
    "answer": ("name", "attr", "value", "answer", "source"),
    "witness": ("name", "pair"),
    "profile": ("pair", "named"),
    "confession": ("group",),
    "token-placed": ("name", "source"),
    "surveil": ("name",),
    "surveillance": ("name", "district", "alone", "intimidated", "blocked", "history", "answer"),
    "declined": ("name",),
    "calm": ("names", "source"),
    "token": ("seat", "group", "source", "empty"),
    "group-chosen": ("seat", "group"),
    "evidence-check": ("token", "position", "card"),
    "discard": ("card",),
    "play": ("seat", "card", "args"),
    "cancelled": ("seat", "card"),
    "investigation-over": ("round",),
    "accusation": ("name", "motive"),
    "end": ("winners", "reason", "identity", "motive", "allies", "figurant"),
}
KINDS = Vocabulary("kind of observation", FIELDS)


def seen_by(obs: Observation, seat: str) -> bool:
    """Whether `seat` can have seen `obs` (private kinds belong to one seat)."""
    if obs.kind == "drew":
        return seat == (KILLER if obs.get("pile") == "killer-deck" else DETECTIVE)
    owner = PRIVATE.get(obs.kind)
    return owner is None or owner == seat


def _value(value: JsonValue) -> str:
    return json.dumps(thaw(value), separators=(",", ":"), ensure_ascii=False)


def observation_text(obs: Observation) -> str:
    return " ".join([obs.kind, *(f"{key}={_value(value)}" for key, value in obs.fields)])


def parse_entry(
    game: CityKiller, text: str, seat: str, before: Sequence[Observation]
) -> tuple[Observation, ...]:
    """One observation typed as `observation_text` writes it."""
    head, _, rest = text.partition(" ")
    kind = KINDS.read(head)
    decoder, fields, index = json.JSONDecoder(), [], 0
    rest = rest.strip()
    while index < len(rest):
        key, equals, _ = rest[index:].partition("=")
        if not equals or not key or " " in key:
            raise InvalidObservation(
                f"{game.name}: expected field=value at {quote(rest[index:])}; the fields of "
                f"{kind} are {', '.join(FIELDS[kind])}"
            )
        start = index + len(key) + 1
        try:
            value, end = decoder.raw_decode(rest, start)
        except ValueError:
            raise InvalidObservation(
                f"{game.name}: the value of {key} is not JSON: {quote(rest[start:])}"
            ) from None
        fields.append((key, freeze(value)))
        index = end
        while index < len(rest) and rest[index] == " ":
            index += 1
    names = tuple(key for key, _ in fields)
    if names != FIELDS[kind]:
        raise InvalidObservation(
            f"{game.name}: {kind} has the fields {', '.join(FIELDS[kind])} in that order, "
            f"not {', '.join(names) or 'none'}"
        )
    obs = Observation(kind, tuple(fields))
    if not seen_by(obs, seat):
        raise InvalidObservation(f"{game.name}: the {seat} does not see {kind}")
    return (obs,)


def help_lines() -> list[tuple[str, str]]:
    return [
        ("answer name=\"Vera\" attr=\"height\" value=\"tall\" answer=true source=\"interrogate\"",
         "a resident's answer to 'is the killer tall?'"),
        ("murder victim=\"Oleg\" district=[2,3] scene=1 round=1 alone=true intimidated=false "
         "history=[]", "a murder and what the motive could read of it"),
        ("surveillance name=\"Ivan\" ... answer=false", "the killer's answer to surveillance"),
        ("KIND field=JSON ...", "any other observation, fields in order (see describe)"),
    ]  # fmt: skip


def words(game: CityKiller) -> list[str]:
    return [*FIELDS, *game.names]


def _where(district: JsonValue) -> str:
    row, col = district
    return f"{row},{col} ({district_name((row, col))})"


def describe(obs: Observation) -> str:
    """One sentence saying what `obs` records."""
    get, kind = obs.get, obs.kind
    if kind == "setup":
        if not get("placement"):
            return f"{len(get('residents'))} residents were drawn, for the detective to place"
        return f"{len(get('residents'))} residents were placed in the city"
    if kind == "secrets":
        figurant = get("figurant") or "none"
        return (
            f"Killer's secrets: identity {get('identity')}, figurant {figurant}, motive "
            f"{get('motive')}, group tokens {', '.join(get('drawn'))}"
        )
    if kind == "answer":
        said = {True: "yes", False: "no", None: "nothing (Blackmail)"}[get("answer")]
        return (
            f"{get('name')} answered {said} to 'is the killer {get('value')}?' "
            f"({get('attr')}, {get('source')})"
        )
    if kind == "murder":
        return (
            f"{get('victim')} was murdered in {_where(get('district'))} (scene {get('scene')}, "
            f"round {get('round')}{', alone' if get('alone') else ''}"
            f"{', intimidated' if get('intimidated') else ''})"
        )
    if kind == "bomb":
        return (
            f"The Bomb killed {', '.join(get('casualties'))} in {_where(get('district'))} "
            f"(scene {get('scene')})"
        )
    if kind == "surveillance":
        return (
            f"Asked whether he could kill {get('name')} now, the killer said "
            f"{'yes' if get('answer') else 'no'}"
        )
    if kind == "profile":
        return f"Profile: of {' and '.join(get('pair'))}, the killer named {get('named')}: not his"
    if kind == "confession":
        return f"Confession: the figurant belongs to the group {get('group')}"
    if kind == "token":
        removed = " (nobody alive: out of the game)" if get("empty") else ""
        return f"The {get('seat')} drew the group token {get('group')}{removed}"
    if kind == "refusal":
        return f"The killer refused to murder in round {get('round')} (refusal {get('count')})"
    if kind == "play":
        args = " ".join(get("args"))
        return f"The {get('seat')} played {get('card')}{' ' + args if args else ''}"
    if kind == "act":
        return f"The {get('seat')}: {get('move')}"
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return simple(obs)
    if kind == "end":
        return f"The game ended: {get('reason')}; {' and '.join(get('winners'))} won"
    return observation_text(obs)


def _cards(cards: JsonValue) -> str:
    return ", ".join("-" if c is None else str(c) for c in cards) or "none"


_SIMPLE = {
    "round": lambda o: f"Round {o['round']} begins",
    "intimidate": lambda o: f"The killer intimidated {o['name']}",
    "identity": lambda o: f"You chose {o['name']} as your identity",
    "allies": lambda o: f"Your allies are {o['group']}",
    "row": lambda o: f"The card row (positions 1-3): {_cards(o['cards'])}",
    "scene-cards": lambda o: f"Under scene {o['scene']}: {_cards(o['cards'])}",
    "kept": lambda o: f"You kept {o['card']}",
    "token-back": lambda o: f"The surveillance token came back from {o['name']}",
    "moved": lambda o: f"{o['name']} moved to {_where(o['district'])} ({o['source']})",
    "pawn": lambda o: f"The detective's pawn is in {_where(o['district'])}",
    "draw": lambda o: f"{o['pile']}: {'a card is dealt: ' + o['card'] if o['card'] else 'drawn'}",
    "drew": lambda o: f"You drew {o['card']} ({o['pile']})",
    "reshuffle": lambda o: f"The {o['pile']} was reshuffled",
    "examine": lambda o: "The detective examined the crime scene",
    "evidence-discard": lambda o: f"Evidence discarded: {_cards(o['tokens'])}",
    "interrogate": lambda o: f"The detective interrogates in {_where(o['district'])}",
    "question": lambda o: f"Asked {o['name']}: is the killer {o['value']}? ({o['attr']})",
    "witness": lambda o: f"The killer picked {o['name']} as the witness",
    "token-placed": lambda o: f"The surveillance token is on {o['name']} ({o['source']})",
    "surveil": lambda o: f"The detective declared surveillance on {o['name']}",
    "declined": lambda o: (
        f"The detective declined the surveillance; the token stays on {o['name']}"
    ),
    "calm": lambda o: f"Calmed: {_cards(o['names'])} ({o['source']})",
    "group-chosen": lambda o: f"The {o['seat']} chose to move the group {o['group']}",
    "evidence-check": lambda o: (
        f"Evidence check ({o['token']}): took "
        + ("the top card of the deck" if o["position"] == 0 else f"{o['card']} from the row")
    ),
    "discard": lambda o: f"The detective discarded {o['card']}",
    "cancelled": lambda o: f"The {o['seat']}'s {o['card']} was cancelled",
    "investigation-over": lambda o: "The detective ended his investigation",
    "accusation": lambda o: f"The detective accused {o['name']} with the motive {o['motive']}",
}
