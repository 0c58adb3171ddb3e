"""Noir's grid geometry: shifts, collapses and adjacency.

Pure functions on an immutable grid (a tuple of rows of names), shared by the engine, the
solver's knowledge model and the bots, so that all of them agree on what "adjacent" means on a
shrunk grid.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import TypeAlias

import networkx as nx

Grid: TypeAlias = tuple[tuple[str, ...], ...]
"""The current grid, top row first; every row has the same length."""

LINES: dict[str, tuple[str, str]] = {"row": ("left", "right"), "column": ("up", "down")}
"""Each kind of line and its two shift directions; the first moves cards towards index 0."""


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
