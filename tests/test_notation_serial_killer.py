"""Serial Killer's typed observations: every observation of random games reads back."""

from __future__ import annotations

import pytest

import engines
from engines import InvalidObservation


@pytest.mark.parametrize(
    "options", [{"players": 4}, {"players": 3, "genres": 3, "briefing_scope": "all"}]
)
def test_every_observation_reads_back(options: dict[str, object]) -> None:
    game = engines.make("serial-killer", **options)
    for seed in range(2):
        state = game.random_game(seed)
        for seat in game.seats:
            observations = state.information_set(seat).observations
            for i, obs in enumerate(observations):
                text = game.observation_text(obs)
                assert game.parse_entry(text, seat, observations[:i]) == (obs,), text


def test_help_examples_and_words() -> None:
    game = engines.make("serial-killer")
    assert game.parse_observation("drew AGE.3", 0)["card"] == "AGE.3"
    assert game.parse_observation("saw bl SEX.2 AGE.1", 0)["cards"] == ("AGE.1", "SEX.2")
    assert "investigate" in game.notation_words() and "red" in game.notation_words()
    assert len(game.notation_help()) >= 15


@pytest.mark.parametrize("text", ["drew", "roll 1 2 3", "flurb red", "saw purple AGE.1"])
def test_bad_entries_say_what_is_allowed(text: str) -> None:
    with pytest.raises(InvalidObservation):
        engines.make("serial-killer").parse_entry(text, 0)
