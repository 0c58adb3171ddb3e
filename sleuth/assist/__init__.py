"""`sleuth assist`: the deduction notebook for a physical game, usable without a terminal.

s = Session.new("alibi", seat=0, players=4)        # also dir=, name=, level=
s.add("..."); s.edit(n, "..."); s.delete(n); s.insert(n, "..."); s.undo()
s.entries; s.information_set(); s.deduction(); s.hints(level); s.conflict; s.why(hint)
s.version; s.sync()   # several front ends on one session: a stale change is refused
Session.open(name, dir=None); Session.stored(dir=None)
"""

from sleuth.assist.levels import DEFAULT_LEVEL, LEVELS
from sleuth.assist.session import Conflict, Entry, Reading, Session
from sleuth.assist.store import SessionError, SessionRecord, StaleSession

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Conflict",
    "Entry",
    "Reading",
    "Session",
    "SessionError",
    "SessionRecord",
    "StaleSession",
]
