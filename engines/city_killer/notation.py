"""City Killer's observations in words (`describe`), and the field names and who sees each
kind. The lines a person types for them are engines.city_killer.typed."""

from __future__ import annotations

from engines.city_killer.rules import DETECTIVE, KILLER, district_name
from engines.core import JsonValue, Observation

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


def seen_by(obs: Observation, seat: str) -> bool:
    """Whether `seat` can have seen `obs` (private kinds belong to one seat)."""
    if obs.kind == "drew":
        return seat == (KILLER if obs.get("pile") == "killer-deck" else DETECTIVE)
    owner = PRIVATE.get(obs.kind)
    return owner is None or owner == seat


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
    return f"{kind}: " + ", ".join(f"{key} {value}" for key, value in obs.fields)


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
