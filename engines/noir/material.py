"""Noir's fixed material: the seats, the suspects' names, the grid sizes and the rules'
numbers (the grid's geometry is `engines.noir.grid`)."""

from __future__ import annotations

SEATS: tuple[str, str] = ("killer", "inspector")
KILLER, INSPECTOR = SEATS

NAMES: tuple[str, ...] = (
    "Ada", "Bruno", "Clara", "Dora", "Emil", "Finn", "Greta", "Hugo", "Ida", "Jonas",
    "Kira", "Leo", "Mia", "Nils", "Olga", "Paul", "Quinn", "Rosa", "Sven", "Tess",
    "Uma", "Vera", "Walt", "Xena", "Yuri",
)  # fmt: skip
"""The 25 suspects; an n x n game uses the first n * n of them."""

SIZES: tuple[int, ...] = (5, 4, 3)
EDITION_KILLS: tuple[int, ...] = (16, 14)
HAND = 4  # cards the inspector draws at setup
CITIZEN_ARRESTS = 3  # the variant's limit


def other_seat(seat: str) -> str:
    return INSPECTOR if seat == KILLER else KILLER


def suspects(size: int) -> tuple[str, ...]:
    return NAMES[: size * size]


def kills_needed(edition_kills: int, size: int) -> int:
    """The kills that win on a size x size grid: the edition's share of the other suspects.

    On 5x5 it is the edition's count (16 or 14 of the 23 suspects who are neither player);
    smaller grids keep the share, rounded: 10 or 9 of 14 on 4x4, 5 or 4 of 7 on 3x3.
    """
    others = size * size - 2
    return max(1, round(edition_kills * others / (SIZES[0] ** 2 - 2)))
