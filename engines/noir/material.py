"""Noir's fixed material and grid geometry: the names, shifts, collapses and adjacency.

Pure data and pure functions on an immutable grid (a tuple of rows of names), shared by the
engine, the solver's knowledge model and the bots, so that all of them agree on what "adjacent"
means on a shrunk grid.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import TypeAlias

import networkx as nx

Grid: TypeAlias = tuple[tuple[str, ...], ...]
"""The current grid, top row first; every row has the same length."""

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

LINES: dict[str, tuple[str, str]] = {"row": ("left", "right"), "column": ("up", "down")}
"""Each kind of line and its two shift directions; the first moves cards towards index 0."""


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


def shifted(grid: Grid, line: str, index: int, direction: str) -> Grid:
    """`grid` with row or column `index` (0-based) moved one step, wrapping around."""
    towards_start = direction == LINES[line][0]
    if line == "row":
        row = grid[index]
        new = row[1:] + row[:1] if towards_start else row[-1:] + row[:-1]
        return (*grid[:index], new, *grid[index + 1 :])
    column = tuple(row[index] for row in grid)
    new = column[1:] + column[:1] if towards_start else column[-1:] + column[:-1]
    return tuple((*row[:index], new[i], *row[index + 1 :]) for i, row in enumerate(grid))


def collapsed(grid: Grid, dead: Collection[str]) -> Grid:
    """`grid` without its all-dead rows and columns.

    Removing them together or one by one gives the same grid: a line with an alive card
    never loses it when an all-dead line crossing it goes.
    """
    rows = [row for row in grid if not all(name in dead for name in row)]
    if not rows:
        return ()
    keep = [j for j in range(len(rows[0])) if not all(row[j] in dead for row in rows)]
    return tuple(tuple(row[j] for j in keep) for row in rows)


@lru_cache(maxsize=4096)
def positions(grid: Grid) -> Mapping[str, tuple[int, int]]:
    """Each card's (row, column) on `grid` (cached: grids are immutable and often repeated)."""
    return {name: (r, c) for r, row in enumerate(grid) for c, name in enumerate(row)}


@lru_cache(maxsize=64)
def _blocks(rows: int, columns: int) -> Mapping[tuple[int, int], tuple[tuple[int, int], ...]]:
    """Each cell's block on a rows x columns grid: itself and its neighbours, reading order.

    The grid is a king's graph (neighbours by side or corner, no wrap-around): the strong
    product of a path of rows and a path of columns. Cached per shape, which a game meets
    only a few times, so play never walks the graph.
    """
    graph = nx.strong_product(nx.path_graph(rows), nx.path_graph(columns))
    return {cell: tuple(sorted([cell, *graph.neighbors(cell)])) for cell in graph}


def block(grid: Grid, name: str) -> list[str]:
    """`name` and its neighbours by side or corner, in reading order; no wrap-around."""
    where = positions(grid)
    if name not in where:
        return []
    return [grid[r][c] for r, c in _blocks(len(grid), len(grid[0]))[where[name]]]


def neighbours(grid: Grid, name: str) -> list[str]:
    """The cards adjacent to `name` (never `name` itself); none when it is off the grid."""
    return [other for other in block(grid, name) if other != name]


def adjacent(grid: Grid, a: str, b: str) -> bool:
    """Whether `a` and `b` touch by side or corner on `grid` (a card is not adjacent to itself)."""
    where = positions(grid)
    if a == b or a not in where or b not in where:
        return False
    return where[b] in _blocks(len(grid), len(grid[0]))[where[a]]
