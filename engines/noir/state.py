"""The Noir referee: the grid, the decks, both identities, and whose turn it is.

A turn is one action. The killer's first turn is a kill and the inspector's first turn is the
choice of his identity; then they alternate. Exonerating while the deck has cards takes two
steps of one turn, `draw` then `exonerate NAME`, because the inspector chooses after seeing
the card he drew.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

from engines.actions import Action
from engines.noir import actions as act
from engines.noir import observations as seen
from engines.noir.grid import LINES, Grid, adjacent, block, collapsed, neighbours, shifted
from engines.noir.material import CITIZEN_ARRESTS, HAND, INSPECTOR, KILLER, SEATS, other_seat
from engines.state import LogEntry, State
from engines.values import JsonValue, Seat

if TYPE_CHECKING:
    from engines.noir.game import Noir

_KILLER_ACTIONS = (act.Kill, act.Disguise)
_INSPECTOR_ACTIONS = (act.Identity, act.Draw, act.Exonerate, act.Arrest, act.CitizenArrest)


class NoirState(State):
    """Public fields are what both players see. Hidden, in underscore fields: `_deck` (the
    inspector's deck, or the one shared deck, top first, of which `_deck_top` cards are drawn),
    `_killer_deck` and `_killer_top` (the separate-deck option), `_killer` (the killer's
    identity), `_inspector` (the inspector's identity) and `_hand` (his agents, in draw order).
    """

    game: Noir

    def __init__(
        self,
        game: Noir,
        rng: random.Random,
        grid: Grid,
        deck: Sequence[str],
        killer_deck: Sequence[str] | None,
    ) -> None:
        super().__init__(game, rng)
        self.grid: Grid = grid
        self.dead: list[str] = []  # in kill order; the kill count is its length
        self.exonerated: list[str] = []  # put on the table by the inspector
        self.revealed: list[str] = []  # former identities the killer announced at a disguise
        self.spent: list[str] = []  # agents used for an arrest with a citizen, gone for good
        self.discarded: list[str] = []  # cards drawn by failed disguises
        self.current: str = KILLER
        self.phase = "opening"  # "opening" (the first kill), "identity", then "play"
        self.drawn = False  # the inspector drew this turn and must now exonerate
        self.protected: act.Shift | None = None  # the opponent's last shift, not to be undone
        self.turns = 0  # completed turns
        self.over = False
        self.reason = ""
        self._winners: tuple[str, ...] = ()
        self._deck: tuple[str, ...] = tuple(deck)
        self._deck_top = 0
        self._killer_deck: tuple[str, ...] | None = (
            None if killer_deck is None else tuple(killer_deck)
        )
        self._killer_top = 0
        self._killer = ""
        self._inspector: str | None = None
        self._hand: list[str] = []

    def _deal(self) -> None:
        """Setup: the grid is shown, the killer draws his identity, the inspector four cards."""
        self._emit(seen.Layout(self.grid))
        self._killer = self._draw_for(KILLER)
        self._emit(seen.IdentityTold(KILLER, self._killer), to=[KILLER])
        self._hand = [self._draw_for(INSPECTOR) for _ in range(HAND)]
        self._emit(seen.Hand(INSPECTOR, tuple(self._hand)), to=[INSPECTOR])

    # --- views ---------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        return None if self.over else self.current

    def killer(self) -> str:
        """The killer's identity card (the truth)."""
        return self._killer

    def inspector(self) -> str | None:
        """The inspector's identity card, None until he has one (the truth)."""
        return self._inspector

    def inspector_hand(self) -> list[str]:
        """The cards in the inspector's hand (the truth)."""
        return list(self._hand)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self._winners

    @property
    def kills(self) -> int:
        return len(self.dead)

    @property
    def innocent(self) -> set[str]:
        """The publicly innocent suspects: exonerated ones and the killer's former identities."""
        return {*self.exonerated, *self.revealed}

    def cards_left(self, seat: str) -> int:
        """How many cards are left in the deck `seat` draws from (public: draws are counted)."""
        if seat == KILLER and self._killer_deck is not None:
            return len(self._killer_deck) - self._killer_top
        return len(self._deck) - self._deck_top

    def hidden(self) -> dict[str, JsonValue]:
        """The hidden part of the game, in the format `Noir.reconstruct` takes.

        `deck` is the inspector's deck (the only deck unless the option `deck` is
        "separate") in its order at setup, top first; `killer_deck` is the killer's own deck
        (separate decks only); `inspector_identity` is there once he has chosen it.
        """
        hidden: dict[str, JsonValue] = {"deck": list(self._deck)}
        if self._killer_deck is not None:
            hidden["killer_deck"] = list(self._killer_deck)
        if self._inspector is not None:
            hidden["inspector_identity"] = self._inspector
        return hidden

    def grid_text(self) -> str:
        """The grid as people read it: dead cards in brackets, innocent ones marked with +."""
        innocent, dead = self.innocent, set(self.dead)

        def card(name: str) -> str:
            text = f"[{name}]" if name in dead else name
            return text + "+" if name in innocent else text

        return " / ".join(" ".join(card(name) for name in row) for row in self.grid)

    def __repr__(self) -> str:
        return f"<NoirState {self.grid_text()} kills={self.kills} to_move={self.to_move}>"

    # --- legality ------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        dead = set(self.dead)
        if self.current == KILLER:
            actions: list[Action] = [
                act.Kill(name) for name in neighbours(self.grid, self._killer) if name not in dead
            ]
            if self.phase == "opening":
                return actions
            if self.cards_left(KILLER):
                actions.append(act.Disguise())
            return actions + self._shifts()
        if self.phase == "identity":
            return [act.Identity(name) for name in self._hand if name not in dead]
        if self.drawn:
            return [act.Exonerate(name) for name in self._hand]
        assert self._inspector is not None
        actions = [
            act.Arrest(name) for name in block(self.grid, self._inspector) if name not in dead
        ]
        if self._citizen_arrests_left():
            actions += [
                act.CitizenArrest(name, agent)
                for agent in self._hand
                for name in neighbours(self.grid, agent)
                if name not in dead
            ]
        if self.cards_left(INSPECTOR):
            actions.append(act.Draw())
        else:
            actions += [act.Exonerate(name) for name in self._hand]
        return actions + self._shifts()

    def _citizen_arrests_left(self) -> int:
        if not self.game.options["citizen_arrest"]:
            return 0
        return CITIZEN_ARRESTS - len(self.spent)

    def _shifts(self) -> list[Action]:
        return [*allowed_shifts(self.grid, self.protected)]

    def _banned(self) -> tuple[act.Shift, ...]:
        return banned_shifts(self.grid, self.protected)

    def _why_illegal(self, action: Action) -> str:
        actor = self.current
        wrong_actor = (isinstance(action, _KILLER_ACTIONS) and actor != KILLER) or (
            isinstance(action, _INSPECTOR_ACTIONS) and actor != INSPECTOR
        )
        if wrong_actor:
            return f"{action} is not legal: it is the {actor}'s turn, and that is not his action"
        if self.phase == "opening" and not isinstance(action, act.Kill):
            return f"{action} is not legal: the killer's first turn must be a kill"
        if self.phase == "identity" and not isinstance(action, act.Identity):
            return (
                f"{action} is not legal: the inspector's first turn is choosing his identity "
                f"among {', '.join(self._hand)} (identity NAME)"
            )
        if self.drawn and not isinstance(action, act.Exonerate):
            return (
                f"{action} is not legal: after drawing, the inspector must exonerate one of "
                f"{', '.join(self._hand)}"
            )
        reason = self._reason(action)
        return f"{action} is not legal: {reason}" if reason else f"{action} is not legal now"

    def _reason(self, action: Action) -> str:
        """Why a well-formed action of the seat to move breaks a rule, or "" if no rule says."""
        dead = set(self.dead)
        if isinstance(action, act.Kill):
            if action.suspect == self._killer:
                return "the killer cannot kill his own identity"
            if action.suspect in dead:
                return f"{action.suspect} is already dead"
            return f"{action.suspect} is not adjacent to the killer's identity"
        if isinstance(action, act.Disguise):
            return "the killer's deck is empty"
        if isinstance(action, act.Shift):
            return self._shift_reason(action)
        if isinstance(action, act.Identity):
            if self.phase != "identity":
                return "the inspector has chosen his identity already"
            if action.suspect in dead:
                return f"{action.suspect} is dead, and a dead card cannot be chosen"
            return f"{action.suspect} is not one of {', '.join(self._hand)}"
        if isinstance(action, act.Draw):
            if self.drawn:
                return f"the inspector drew already; now exonerate one of {', '.join(self._hand)}"
            return "the deck is empty: exonerate a card of the hand directly"
        if isinstance(action, act.Exonerate):
            if not self.drawn and self.cards_left(INSPECTOR):
                return "draw first (draw), then choose which card of the hand to exonerate"
            return f"{action.suspect} is not in the hand ({', '.join(self._hand) or 'empty'})"
        if isinstance(action, act.Arrest):
            if action.suspect in dead:
                return f"{action.suspect} is dead"
            return f"{action.suspect} is neither the inspector's identity nor adjacent to it"
        if isinstance(action, act.CitizenArrest):
            return self._citizen_reason(action, dead)
        return ""

    def _shift_reason(self, action: act.Shift) -> str:
        counts = {"row": len(self.grid), "column": len(self.grid[0])}
        if action.index > counts[action.line]:
            return f"the grid has {counts[action.line]} {action.line}s"
        if counts["column" if action.line == "row" else "row"] < 2:
            return f"a {action.line} of one card cannot shift"
        if action in self._banned():
            return (
                f"it would undo the {other_seat(self.current)}'s previous shift "
                f"({self.protected}), and the reverse-shift ban is on"
            )
        return ""

    def _citizen_reason(self, action: act.CitizenArrest, dead: set[str]) -> str:
        if not self.game.options["citizen_arrest"]:
            return "the variant 'arrest with a citizen' is off (option citizen_arrest)"
        if not self._citizen_arrests_left():
            return f"an arrest with a citizen is allowed {CITIZEN_ARRESTS} times, all used"
        if action.agent not in self._hand:
            return f"{action.agent} is not an agent in the hand ({', '.join(self._hand)})"
        if action.suspect in dead:
            return f"{action.suspect} is dead"
        return f"{action.suspect} is not adjacent to the agent {action.agent}"

    # --- applying ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if isinstance(action, act.Kill):
            self._kill(action.suspect)
        elif isinstance(action, act.Shift):
            self._shift(action)
            return  # the shift ends the turn itself, protecting it from being undone
        elif isinstance(action, act.Disguise):
            self._disguise()
        elif isinstance(action, act.Identity):
            self._choose(action.suspect)
        elif isinstance(action, act.Draw):
            self._draw()
            return  # the turn goes on: exonerate next
        elif isinstance(action, act.Exonerate):
            self._exonerate(action.suspect)
        elif isinstance(action, act.Arrest):
            self._arrest(action.suspect)
        else:
            assert isinstance(action, act.CitizenArrest)
            self._citizen_arrest(action)
        self._end_turn()

    def _draw_for(self, seat: str) -> str:
        if seat == KILLER and self._killer_deck is not None:
            card = self._killer_deck[self._killer_top]
            self._killer_top += 1
        else:
            card = self._deck[self._deck_top]
            self._deck_top += 1
        return card

    def _kill(self, victim: str) -> None:
        self.dead.append(victim)
        self._emit(seen.Killed(KILLER, victim, self.kills))
        if self.phase == "opening":
            self.phase = "identity"
        caught = victim == self._inspector
        if not caught and victim in self.innocent and self.game.options["kill_canvas"]:
            assert self._inspector is not None
            # Asked about the grid as the victim falls, before a collapse can take it away.
            near = adjacent(self.grid, self._inspector, victim)
            self._emit(seen.Canvas(INSPECTOR, victim, near))
        self._collapse()
        if caught:
            self._finish((KILLER,), "the killer killed the inspector")
        elif self.kills >= self.game.kills_to_win:
            self._finish((KILLER,), f"the killer reached {self.kills} kills")

    def _collapse(self) -> bool:
        """Remove all-dead rows and columns; True when the grid shrank."""
        smaller = collapsed(self.grid, set(self.dead))
        if smaller == self.grid:
            return False
        self.grid = smaller
        self._emit(seen.Collapsed(self.grid))
        return True

    def _shift(self, action: act.Shift) -> None:
        self.grid = shifted(self.grid, action.line, action.index - 1, action.direction)
        self._emit(
            seen.Shifted(self.current, action.line, action.index, action.direction, self.grid)
        )
        # After a collapse no shift restores the old grid, so nothing is banned.
        self._end_turn(None if self._collapse() else action)

    def _disguise(self) -> None:
        card = self._draw_for(KILLER)
        if self._disguise_fails(card):
            self.discarded.append(card)
            self._emit(seen.DisguiseFailed(KILLER, False, card))
            return
        former, self._killer = self._killer, card
        self.revealed.append(former)
        self._emit(seen.Disguised(KILLER, True, former))
        self._emit(seen.IdentityTold(KILLER, card), to=[KILLER])

    def _disguise_fails(self, card: str) -> bool:
        if card in self.dead:
            return True
        if self._killer_deck is None:
            return False  # one shared deck: no drawn card can be innocent or the inspector's
        inspectors = {*self._hand, *self.spent, self._inspector}
        return card in self.innocent or card in inspectors

    def _choose(self, identity: str) -> None:
        self._hand.remove(identity)
        self._inspector = identity
        self.phase = "play"
        self._emit(seen.ChoseIdentity(INSPECTOR))
        self._emit(seen.IdentityTold(INSPECTOR, identity), to=[INSPECTOR])

    def _draw(self) -> None:
        card = self._draw_for(INSPECTOR)
        self._hand.append(card)
        self.drawn = True
        self._emit(seen.DrawMade(INSPECTOR))
        self._emit(seen.Drew(INSPECTOR, card), to=[INSPECTOR])

    def _exonerate(self, card: str) -> None:
        self._hand.remove(card)
        self.exonerated.append(card)
        self.drawn = False
        self._emit(seen.Exonerated(INSPECTOR, card))
        self._emit(seen.Canvas(KILLER, card, adjacent(self.grid, self._killer, card)))

    def _arrest(self, suspect: str) -> None:
        success = suspect == self._killer
        self._emit(seen.Arrested(INSPECTOR, suspect, success))
        if success:
            self._finish((INSPECTOR,), "the inspector arrested the killer")

    def _citizen_arrest(self, action: act.CitizenArrest) -> None:
        self._hand.remove(action.agent)
        self.spent.append(action.agent)
        success = action.suspect == self._killer
        self._emit(seen.CitizenArrested(INSPECTOR, action.suspect, action.agent, success))
        if success:
            self._finish((INSPECTOR,), "the inspector arrested the killer with a citizen")

    def _end_turn(self, shift: act.Shift | None = None) -> None:
        """Pass the turn; `shift`, the one just made, the opponent may not undo."""
        if self.over:
            return
        self.protected = shift if self.game.options["reverse_shift_ban"] else None
        self.current = other_seat(self.current)
        self.turns += 1
        if self.turns >= self.game.options["turn_limit"]:
            self._finish(SEATS, "the turn limit was reached")

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        self.over = True
        self._winners = winners
        self.reason = reason
        self._emit(seen.End(winners, reason))

    # --- cloning and JSON ------------------------------------------------------------------

    def _to_dict(self) -> dict[str, JsonValue]:
        return {
            "grid": [list(row) for row in self.grid],
            "dead": self.dead,
            "exonerated": self.exonerated,
            "revealed": self.revealed,
            "spent": self.spent,
            "discarded": self.discarded,
            "current": self.current,
            "phase": self.phase,
            "drawn": self.drawn,
            "protected": None if self.protected is None else str(self.protected),
            "turns": self.turns,
            "over": self.over,
            "reason": self.reason,
            "winners": list(self._winners),
            "deck": list(self._deck),
            "deck_top": self._deck_top,
            "killer_deck": None if self._killer_deck is None else list(self._killer_deck),
            "killer_top": self._killer_top,
            "killer": self._killer,
            "inspector": self._inspector,
            "hand": self._hand,
        }

    # --- invariants ------------------------------------------------------------------------
    def _broken_invariants(self) -> list[str]:
        broken = self._broken_grid() + self._broken_cards() + self._broken_turn()
        kills, told, arrested = self._summarise_log(_tally, _NOTHING_RECORDED)
        if list(kills) != self.dead:
            broken.append(f"the dead {self.dead} are not the kills recorded, {list(kills)}")
        if told != self._killer:
            broken.append(f"the killer was last told his identity is {told!r}, not {self._killer}")
        if self._winners == (INSPECTOR,) and not arrested:
            broken.append("the inspector wins only by a recorded arrest of the killer")
        return broken

    def _broken_grid(self) -> list[str]:
        """A rectangle of distinct suspects, no all-dead line left, only the dead gone."""
        grid, dead = self.grid, set(self.dead)
        flat = [name for row in grid for name in row]
        broken = []
        if not grid or any(len(row) != len(grid[0]) for row in grid) or not grid[0]:
            return ["the grid is a rectangle of suspects"]
        if len(set(flat)) != len(flat):
            broken.append("each suspect is on the grid at most once")
        if any(dead.issuperset(line) for line in (*grid, *zip(*grid, strict=True))):
            broken.append("no row or column of dead suspects stays on the grid")
        if not set(self.game.suspects) - set(flat) <= dead:
            broken.append("only dead suspects leave the grid")
        if self._killer not in flat or self._killer in dead:
            broken.append(f"the killer's identity {self._killer} is alive on the grid")
        last = None if self.over else self.protected  # a last kill may shrink the grid
        if last is not None and last.index > (len(grid) if last.line == "row" else len(grid[0])):
            broken.append(f"the protected shift {last} is a shift of this grid")
        return broken

    def _broken_cards(self) -> list[str]:
        """Every card of each deck is in exactly one place: deck, hand, table or identity."""
        inspector = self._inspector
        inspectors = self._hand + self.exonerated + self.spent + ([inspector] if inspector else [])
        killers = [self._killer, *self.revealed, *self.discarded]
        remaining = list(self._deck[self._deck_top :])
        names = sorted(self.game.suspects)
        broken = []
        if self._killer_deck is None:
            if sorted(remaining + inspectors + killers) != names:
                broken.append("each card is in the deck, a hand, on the table or an identity, once")
        else:
            first = self._killer_deck[0]
            if sorted(remaining + inspectors) != sorted(set(names) - {first}):
                broken.append(f"the inspector's cards are every card but {first}, each once")
            if sorted([*self._killer_deck[self._killer_top :], *killers]) != names:
                broken.append("the killer's cards are every card, each once")
        if inspector is not None and inspector in self.dead and self._winners != (KILLER,):
            broken.append("a dead inspector has lost the game")
        if len(self.spent) > (CITIZEN_ARRESTS if self.game.options["citizen_arrest"] else 0):
            broken.append(f"at most {CITIZEN_ARRESTS} arrests with a citizen, in the variant")
        return broken

    def _broken_turn(self) -> list[str]:
        """The phase, the hand and whose turn it is agree with the number of turns played."""
        phase, hand, broken = self.phase, len(self._hand), []
        if (phase == "play") != (self._inspector is not None):
            broken.append("the inspector has an identity exactly once he has chosen it")
        if phase != "play" and (self.turns != (phase == "identity") or self.kills != self.turns):
            broken.append(f"the {phase} phase is the first turn of its seat")
        if (phase != "play" and hand != HAND) or (phase == "play" and hand > HAND - 1 + self.drawn):
            broken.append(
                f"the inspector holds {HAND} cards, then one fewer, one more after a draw"
            )
        if self.drawn and (phase != "play" or self.current != INSPECTOR):
            broken.append("only the inspector draws, in play, on his own turn")
        if self.protected is not None and not self.game.options["reverse_shift_ban"]:
            broken.append("no shift is protected without the reverse-shift ban")
        if not self.over:
            if self.current != SEATS[self.turns % 2]:
                broken.append(f"after {self.turns} turns it is the {SEATS[self.turns % 2]}'s turn")
            if self.kills >= self.game.kills_to_win:
                broken.append(f"{self.game.kills_to_win} kills end the game")
            if self.turns >= self.game.options["turn_limit"]:
                broken.append("the turn limit ends the game")
        elif len(self._winners) == 2 and self.turns < self.game.options["turn_limit"]:
            broken.append("both seats win only at the turn limit")
        elif self._winners == (KILLER,):
            caught = self._inspector is not None and self._inspector in self.dead
            if not caught and self.kills < self.game.kills_to_win:
                broken.append("the killer wins by the kill count or by killing the inspector")
        return broken


Tally: TypeAlias = tuple[tuple[str, ...], str, bool]
_NOTHING_RECORDED: Tally = ((), "", False)


def _tally(tally: Tally, entry: LogEntry) -> Tally:
    """The kills recorded (each with its count), the killer's last identity told, and whether
    an arrest caught him, after one more entry of the log."""
    kills, told, arrested = tally
    obs, to = entry
    match obs:
        case seen.Killed(suspect=suspect, kills=count):
            return (*kills, suspect if count == len(kills) + 1 else "?"), told, arrested
        case seen.IdentityTold(suspect=suspect) if to == (KILLER,):
            return kills, suspect if isinstance(suspect, str) else "?", arrested
        case seen.Arrested(success=True) | seen.CitizenArrested(success=True):
            return kills, told, True
    return tally


def allowed_shifts(grid: Grid, protected: act.Shift | None) -> list[act.Shift]:
    """Every shift of a line of two cards or more, but none undoing `protected` (the
    opponent's last shift, when the reverse-shift ban is on)."""
    shifts = _all_shifts(len(grid), len(grid[0]))
    banned = banned_shifts(grid, protected)
    return [shift for shift in shifts if shift not in banned] if banned else list(shifts)


def banned_shifts(grid: Grid, protected: act.Shift | None) -> tuple[act.Shift, ...]:
    """The shifts that would restore the grid `protected` changed: its inverse, and on a
    line of two cards the shift itself too (either direction swaps the two cards)."""
    if protected is None:
        return ()
    first, second = LINES[protected.line]
    inverse = act.Shift(
        protected.line, protected.index, second if protected.direction == first else first
    )
    length = len(grid[0]) if protected.line == "row" else len(grid)
    return (inverse, protected) if length == 2 else (inverse,)


@lru_cache(maxsize=64)
def _all_shifts(rows: int, columns: int) -> tuple[act.Shift, ...]:
    """The shifts of a rows x columns grid, rows first (cached: search asks very often)."""
    counts = {"row": rows, "column": columns}
    return tuple(
        act.Shift(line, index, direction)
        for line, directions in LINES.items()
        if counts["column" if line == "row" else "row"] >= 2
        for index in range(1, counts[line] + 1)
        for direction in directions
    )
