"""City Killer's fixed data: the 4x4 city, the synthetic pool of 54 residents, the groups, the
motives and the two decks (rules/city_killer.md, sections 2 and 5). The motives' predicates
are data (engines.city_killer.motives reads them).

Nothing here changes during a game; the state (engines.city_killer.state) refers to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

import networkx as nx

KILLER, DETECTIVE = "killer", "detective"
SEATS = (KILLER, DETECTIVE)

District: TypeAlias = tuple[int, int]
"""(row, column), each 1..4."""

SIDE = 4
DISTRICTS: tuple[District, ...] = tuple(
    (r, c) for r in range(1, SIDE + 1) for c in range(1, SIDE + 1)
)
CENTRAL = frozenset({(2, 2), (2, 3), (3, 2), (3, 3)})
CORNERS = ((1, 1), (1, 4), (4, 1), (4, 4))
DISTRICT_NAMES = (
    "Roki Hill", "Port", "Little Italy", "Golden Beach",
    "West Side", "Business Center", "President Square", "East Side",
    "Chinatown", "Central Park", "Santa Cruz", "River Station",
    "Stadium", "Richmond", "University", "Old Town",
)  # fmt: skip

BUILDINGS = ("police", "diner", "hospital", "fire")
FIXED_LAYOUT: dict[District, str] = {
    (1, 1): "diner", (1, 3): "fire", (2, 2): "police", (2, 4): "hospital",
    (3, 1): "hospital", (3, 3): "diner", (4, 2): "fire", (4, 4): "police",
}  # fmt: skip


def district_text(district: District) -> str:
    return f"{district[0]},{district[1]}"


def district_name(district: District) -> str:
    return DISTRICT_NAMES[(district[0] - 1) * SIDE + district[1] - 1]


@cache
def city(adjacency: str) -> nx.Graph:
    """The city as a graph: the 4x4 grid, with diagonals when `adjacency` is "8-way"."""
    graph = nx.grid_2d_graph(range(1, SIDE + 1), range(1, SIDE + 1))
    if adjacency == "8-way":
        for r, c in DISTRICTS:
            for dr, dc in ((1, 1), (1, -1)):
                if (r + dr, c + dc) in graph:
                    graph.add_edge((r, c), (r + dr, c + dc))
    return graph


@cache
def neighbours(district: District, adjacency: str) -> tuple[District, ...]:
    return tuple(sorted(city(adjacency).neighbors(district)))


@cache
def distances(adjacency: str) -> dict[District, dict[District, int]]:
    """Steps between districts on the graph (Manhattan distance when orthogonal)."""
    return {a: dict(d) for a, d in nx.all_pairs_shortest_path_length(city(adjacency))}


def distance(a: District, b: District, adjacency: str) -> int:
    return distances(adjacency)[a][b]


# --- residents --------------------------------------------------------------------------------
SEX = ("male", "female")
AGE = ("young", "adult", "old")
BUILD = ("slim", "medium", "heavy")
HEIGHT = ("short", "medium", "tall")
LOOKS: dict[str, tuple[str, ...]] = {"sex": SEX, "age": AGE, "build": BUILD, "height": HEIGHT}

GROUPS = ("law", "medicine", "crime", "workers", "bohemia", "press", "power", "marginals",
          "migrants")  # fmt: skip
PROFESSIONS = (
    ("police-officer", "judge", "prison-guard", "lawyer", "stenographer", "notary"),
    ("surgeon", "pharmacist", "coroner", "nurse", "midwife", "dentist"),
    ("bootlegger", "racketeer", "fence", "card-sharp", "smuggler", "pickpocket"),
    ("docker", "mechanic", "steelworker", "factory-hand", "operator", "laundress"),
    ("jazzman", "painter", "poet", "actress", "singer", "dancer"),
    ("reporter", "editor", "photographer", "columnist", "radio-host", "typist"),
    ("mayor", "councillor", "tax-inspector", "secretary", "commissioner", "clerk"),
    ("vagrant", "shoeshiner", "drifter", "fortune-teller", "street-vendor", "rag-picker"),
    ("tailor", "cook", "grocer", "laundry-owner", "farmhand", "seamstress"),
)
MALE_NAMES = ("Oleg", "Ivan", "Boris", "Dmitri", "Fyodor", "Kirill", "Maxim", "Pavel", "Roman",
              "Timur", "Viktor", "Zakhar", "Bogdan", "Egor", "Gleb", "Kostya", "Lev", "Nikita",
              "Semyon", "Vadim", "Arkady", "Denis", "Filipp", "Ilya", "Luka", "Petr",
              "Stepan")  # fmt: skip
FEMALE_NAMES = ("Vera", "Anna", "Galina", "Elena", "Irina", "Lidia", "Nadia", "Olga", "Sonia",
                "Ulyana", "Yana", "Alla", "Daria", "Faina", "Inna", "Marina", "Polina", "Rita",
                "Tamara", "Yulia", "Bella", "Emma", "Klara", "Mila", "Nina", "Raisa",
                "Zoya")  # fmt: skip


@dataclass(frozen=True)
class Resident:
    """One resident card of the synthetic pool (rules section 2.2)."""

    card: int
    name: str
    sex: str
    age: str
    build: str
    height: str
    group: str
    profession: str

    def attribute(self, attr: str) -> str:
        return str(getattr(self, attr))


def _pool() -> tuple[Resident, ...]:
    looks = []
    for n in range(1, 55):
        s, rest = divmod(n - 1, 27)
        a, rest = divmod(rest, 9)
        b, h = divmod(rest, 3)
        sign = 1 if s == 1 else -1
        g = 3 * ((b + sign * a) % 3) + ((h + sign * a) % 3)
        looks.append((n, s, a, b, h, g))
    seen: dict[int, int] = {}
    residents = []
    for n, s, a, b, h, g in looks:
        k = seen.get(g, 0)
        seen[g] = k + 1
        name = (MALE_NAMES if s == 0 else FEMALE_NAMES)[(n - 1) % 27]
        residents.append(
            Resident(n, name, SEX[s], AGE[a], BUILD[b], HEIGHT[h], GROUPS[g], PROFESSIONS[g][k])
        )
    return tuple(residents)


POOL: tuple[Resident, ...] = _pool()


def pool(size: int) -> tuple[Resident, ...]:
    """The first `size` cards of the pool (54: the whole synthetic pool)."""
    return POOL[:size]


def questions(attributes: str, professions: Sequence[str] = ()) -> tuple[tuple[str, str], ...]:
    """Every (attribute, value) a question may name: the looks, plus group or profession (those
    of the synthetic pool, or `professions` for a pool from a file)."""
    found = [(attr, value) for attr, values in LOOKS.items() for value in values]
    if attributes in ("group", "profession"):
        found += [("group", g) for g in GROUPS]
    if attributes == "profession":
        found += [("profession", p) for p in professions or [p for row in PROFESSIONS for p in row]]
    return tuple(found)


# --- motives ------------------------------------------------------------------------------------
MOTIVES = ("psychopath", "maniac", "sadist", "thug", "hitman", "terrorist", "radical", "robber")


@dataclass(frozen=True)
class Scene:
    """What a motive predicate reads of the state at a murder (the snapshot S, section 6):
    the victim, whether he stands alone in his district, is intimidated, in a central
    district, and the earlier ordinary victims H in order."""

    victim: Resident
    alone: bool
    intimidated: bool
    central: bool
    history: tuple[Resident, ...]


# --- cards ----------------------------------------------------------------------------------------
KILLER_DECK: tuple[tuple[str, int], ...] = (
    ("strike", 1), ("graffiti", 1), ("abduction", 2), ("bomb", 1), ("message", 2),
    ("destroy-evidence", 1), ("stubborn-witnesses", 1), ("blackmail", 1), ("false-alarm", 1),
    ("bribe", 1), ("crowd", 2),
)  # fmt: skip
DETECTIVE_DECK: tuple[tuple[str, int], ...] = (
    ("testimony", 1), ("curfew", 1), ("vehicle", 2), ("cordon", 1), ("raid", 2),
    ("profile", 1), ("covert-watch", 1), ("cooperation", 1), ("patrols", 2), ("confession", 1),
    ("sixth-sense", 1),
)  # fmt: skip
KILLER_CARDS = tuple(name for name, _ in KILLER_DECK)
DETECTIVE_CARDS = tuple(name for name, _ in DETECTIVE_DECK)
KILLER_SYMBOLS = ("graffiti", "abduction", "bomb", "message")
DETECTIVE_SYMBOLS = ("curfew", "cordon", "raid", "profile", "confession")
KILLER_PHASE_CARDS = ("strike", "graffiti", "abduction", "bomb", "message", "destroy-evidence",
                      "stubborn-witnesses")  # fmt: skip
"""Killer cards played on his own turn; the others are reactions."""


def deck(counts: Sequence[tuple[str, int]]) -> list[str]:
    return [name for name, n in counts for _ in range(n)]


SCENES = 5
"""Crime-scene cards; the round of the fifth murder is the last."""
UNDER_SCENE = 2
ROW = 3
