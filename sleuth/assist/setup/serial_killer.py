"""Serial Killer's setup: who plays first and the district each genre's deck lies on
("setup 4 red AGE@3 SEX@5 ...")."""

from __future__ import annotations

from collections.abc import Mapping

from engines import Game, InvalidObservation, Seat
from engines.serial_killer.game import SerialKiller
from engines.serial_killer.material import COLOURS
from engines.serial_killer.state import DISTRICTS
from sleuth.assist.setup import Pick, answer


def _first(game: SerialKiller) -> tuple[int, ...]:
    fixed = game.options["first_player"]
    return tuple(game.seats) if fixed == "random" else (int(fixed),)  # type: ignore[arg-type]


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    assert isinstance(game, SerialKiller)
    first = _first(game)
    districts = tuple((str(d), str(d)) for d in DISTRICTS)
    return [
        Pick(
            "first",
            "Who plays first",
            tuple((COLOURS[s], COLOURS[s]) for s in first),
            default=COLOURS[first[0]] if len(first) == 1 else "",
        ),
        *(
            Pick(
                genre.id,
                f"{genre.id} ({genre.name})",
                districts,
                section="The district each genre's deck lies on",
            )
            for genre in game.parts.genres
        ),
    ]


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    assert isinstance(game, SerialKiller)
    first = answer(chosen, "first")
    places = {genre: answer(chosen, genre) for genre in game.parts.genre_ids}
    missing = [genre for genre, place in places.items() if not place]
    if not first and len(missing) == len(places):
        return []
    if not first or missing:
        raise InvalidObservation(
            "the setup is one line: pick who plays first and every deck's district "
            f"(missing: {', '.join(missing) or 'who plays first'}), or none of them"
        )
    decks = " ".join(f"{genre}@{place[0]}" for genre, place in places.items())
    return [f"setup {game.players} {first[0]} {decks}"]
