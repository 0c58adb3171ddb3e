"""Bots that act from an information set only, and the arena that measures them.

bot = opponents.make("solver", game, seat)
bot.act(info)
opponents.arena(game, ["solver", "heuristic"], games=200, workers=2, seed=0)
"""

from opponents.arena import ArenaResult, arena
from opponents.base import BOT_NAMES, Bot, RandomBot, make

__all__ = ["BOT_NAMES", "ArenaResult", "Bot", "RandomBot", "arena", "make"]
