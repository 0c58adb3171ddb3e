"""Short rules summaries, one per game, written for this project and shipped in the package:
`sleuth rules GAME` and the `rules` command of `sleuth play` print them."""

from __future__ import annotations

from importlib import resources

from engines import ConfigError


def names() -> list[str]:
    """The games that have a summary."""
    files = resources.files(__name__).iterdir()
    return sorted(f.name[: -len(".md")].replace("_", "-") for f in files if f.name.endswith(".md"))


def text(game: str) -> str:
    """The rules summary of `game` (markdown).

    Raises:
        ConfigError: no summary for that game.
    """
    if game not in names():
        raise ConfigError(f"no rules summary for {game!r}; summaries: {', '.join(names())}")
    return resources.files(__name__).joinpath(f"{game.replace('-', '_')}.md").read_text("utf-8")
