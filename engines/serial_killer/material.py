"""Serial Killer's components, loaded from `traits.json`: genres, traits, districts, colours.

The genre and trait names are placeholders (the prototype's are unknown); only the structure
matters to the rules: each genre has one card per trait, card id `GENRE.index` (`AGE.3`).
Pure data, shared by the engine, the knowledge model and the bots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

CENTRAL_PARK = 7
"""The district a relocation die sends a pawn to when it falls off the table."""


@dataclass(frozen=True)
class Genre:
    id: str
    name: str
    traits: tuple[str, ...]

    @cached_property
    def cards(self) -> tuple[str, ...]:
        """The card ids of this genre, in trait order."""
        return tuple(f"{self.id}.{k}" for k in range(len(self.traits)))


@dataclass(frozen=True)
class Components:
    """One configuration's genres (a prefix of the file's, each cut to its first traits)."""

    genres: tuple[Genre, ...]
    districts: tuple[str, ...]
    colours: tuple[str, ...]

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(card for genre in self.genres for card in genre.cards)

    @cached_property
    def genre_ids(self) -> tuple[str, ...]:
        return tuple(genre.id for genre in self.genres)

    @cached_property
    def by_genre(self) -> dict[str, Genre]:
        return {genre.id: genre for genre in self.genres}

    def genre_of(self, card: str) -> str:
        return card.partition(".")[0]

    def trait_name(self, card: str) -> str:
        genre, _, index = card.partition(".")
        return self.by_genre[genre].traits[int(index)]

    def district_name(self, district: int) -> str:
        return self.districts[district - 1]


def _data() -> dict[str, Any]:
    text = resources.files("engines.serial_killer").joinpath("traits.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


COLOURS: tuple[str, ...] = tuple(_data()["colours"])
"""The players' colours in seat order (red, blue, green, yellow, black): how seats print."""


@cache
def load_components(genres: int = 7, traits: int = 6) -> Components:
    """The first `genres` genres of the data file, each with its first `traits` traits."""
    data = _data()
    return Components(
        tuple(
            Genre(item["id"], item["name"], tuple(item["traits"][:traits]))
            for item in data["genres"][:genres]
        ),
        tuple(data["districts"]),
        tuple(data["colours"]),
    )
