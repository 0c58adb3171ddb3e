"""Bots that act from an information set only, and the arena that measures them.

bot = opponents.make("solver", game, seat)
bot.act(info)
res = opponents.arena(game, ["solver", "heuristic"], games=200, workers=2, seed=0)
res.wins; res.win_rate(seat); res.interval(seat)       # by seat, in seat order
res.entry_wins; res.entry_win_rate(k)                  # by lineup entry, wherever it sat
res.win_rate(seat, entry=k)                            # entry k's games in that seat
"""

from opponents.arena import ArenaResult, Entry, GameRecord, arena, label, wilson
from opponents.base import Bot, RandomBot, SeatedBot, WrongInformationSet
from opponents.factory import BOT_NAMES, make, notepad

__all__ = [
    "BOT_NAMES",
    "ArenaResult",
    "Bot",
    "Entry",
    "GameRecord",
    "RandomBot",
    "SeatedBot",
    "WrongInformationSet",
    "arena",
    "label",
    "make",
    "notepad",
    "wilson",
]
