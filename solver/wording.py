"""How the solver says numbers to a person: chances as percentages, counts with their
nouns."""

from __future__ import annotations


def percent(probability: float) -> str:
    """A probability as people read it: 67%, <1%, >99%."""
    if 0 < probability < 0.005:
        return "<1%"
    if 0.995 < probability < 1:
        return ">99%"
    return f"{probability:.0%}"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` and `noun`, in the plural unless it is one: "1 suspect", "3 suspects"."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
