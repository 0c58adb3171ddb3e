"""`sleuth assist` at the terminal: type what your seat saw, see what follows from it.

Every change is committed to the session's database before anything is computed or shown, so
end of input, Ctrl-C or a killed process never loses an entry whose hints appeared. Ctrl-C
while the solver works abandons that computation and returns to the prompt.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

import solver
from engines import InformationSet, InvalidObservation, SleuthError
from sleuth import views
from sleuth.assist.levels import LEVELS, changes_at
from sleuth.assist.session import Session
from sleuth.assist.store import SessionError, StaleSession

SHOWN_HINTS = 12
"""Hints listed after each change by default (`--hints N`); `hints` lists them all."""

COMMANDS = (
    ("TEXT", "record what you saw (see the notation below); `add TEXT` does the same"),
    ("log", "the numbered entries"),
    ("edit N TEXT", "replace entry N (a typo); later entries are read again"),
    ("insert N TEXT", "insert a forgotten entry before entry N"),
    ("delete N", "remove entry N"),
    ("undo", "take back the last change"),
    ("hints", "every hint, not only the first few"),
    ("why N", "the entries that force certain hint N"),
    ("level L", f"how much help: {', '.join(LEVELS)}"),
    ("model M", "how the odds read the others' moves: counting, random or a bot's name"),
    ("view", "the board after each change: on or off (`view` alone shows it now)"),
    ("export", "the information set as JSON"),
    ("help", "this list and the notation"),
    ("quit", "leave (everything is already saved)"),
)
_READING_WORDS = ("help", "log", "hints", "level", "model", "view", "export")
"""Commands that neither change an entry nor point at what was listed (`why N` does), so a
change made elsewhere meanwhile does not void them."""
_WORDS = ("add", "log", "edit", "insert", "delete", "undo", "hints", "why", "level", "model",
          "view", "export", "help", "quit")  # fmt: skip


class Notebook:
    """The loop: read a line, change the session or answer a command, show the result."""

    def __init__(
        self,
        console: Console,
        session: Session,
        read: Callable[[str], str],
        board: bool = True,
        hint_count: int = SHOWN_HINTS,
    ) -> None:
        self.console = console
        self.session = session
        self.read = read
        self.board = board  # draw the board after each change
        self.hint_count = hint_count  # hints listed after each change
        self.shown: list[solver.Hint] = []

    def run(self) -> int:
        s = self.session
        self.console.print(
            f"Session [bold]{s.name}[/bold]: {s.game.metadata.title}, you are "
            f"{_seat_name(s.seat)}; hint level {s.level}"
            + ("" if s.model == "counting" else f"; odds read under {_model_words(s.model)}")
            + ". Type `help` for the notation."
        )
        if s.entries:
            self.show_log()
            self.refresh()
        while True:
            try:
                line = self.read(f"{len(s.entries) + 1}> ")
            except EOFError:
                break
            except KeyboardInterrupt:
                self.console.print()
                break
            try:
                if not self.command(line.strip()):
                    break
            except KeyboardInterrupt:
                self.console.print("(interrupted; every entry so far is saved)", style="yellow")
            except SleuthError as error:
                # Text: a message may quote a form with [brackets], which markup would eat;
                # rich wraps it at spaces (soft_wrap left the terminal to cut inside words)
                self.console.print(Text(f"refused: {error}", style="red"))
        self.console.print(f"Saved. Resume with: sleuth assist --resume {s.name}")
        return 0

    def command(self, line: str) -> bool:
        """Carry out one line; False to leave."""
        if not line:
            return True
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        s = self.session
        if word in ("quit", "exit", "q"):
            return False
        if s.sync():  # another window (`sleuth serve`, a second terminal) changed it
            self.shown = []  # the hints listed were of the record before
            if word not in _READING_WORDS:
                self.show_log()
                self.refresh()
                raise StaleSession(
                    "the session was changed elsewhere since the last list (above is how it "
                    "is now), so that change was not made; type it again if it still applies"
                )
            self.console.print("(the session was changed elsewhere: `log` shows it now)")
        if word == "help":
            self.show_help()
        elif word == "log":
            self.show_log()
        elif word == "hints":
            self.show_hints(len(self.shown) or SHOWN_HINTS, recompute=not self.shown)
        elif word == "why":
            self.why(rest)
        elif word == "level":
            s.level = rest
            self.console.print(f"hint level: {s.level}")
            self.refresh()
        elif word == "model":
            if rest:
                s.model = rest
            self.console.print(f"odds read under: {_model_words(s.model)}")
            if rest:
                self.refresh()
        elif word == "view":
            self.view(rest.lower())
        elif word == "export":
            self.console.print(s.export(), soft_wrap=True, markup=False)
        elif word == "undo":
            s.undo()
            self.console.print("undone")
            self.refresh()
        elif word == "delete":
            s.delete(_number(rest, "delete N"))
            self.refresh()
        elif word in ("edit", "insert"):
            number_text, _, text = rest.partition(" ")
            number = _number(number_text, f"{word} N TEXT")
            entry = (s.edit if word == "edit" else s.insert)(number, expand_files(text))
            self.echo(entry.number)
            self.refresh()
        else:
            text = rest if word == "add" else line
            entry = s.add(expand_files(text))
            self.echo(entry.number)
            self.refresh()
        return True

    # --- output ----------------------------------------------------------------------------
    def echo(self, number: int) -> None:
        entry = self.session.entries[number - 1]
        for obs in entry.observations:
            self.console.print(Text(f"  {number}. {self.session.game.describe(obs)}", style="dim"))

    def refresh(self) -> None:
        """After a stored change: the record's status, its view and hints."""
        reading = self.session.reading()
        if reading.status == "waiting":
            self.console.print(Text(f"waiting for {reading.waiting_for}", style="yellow"))
        elif reading.status == "invalid":
            self.console.print(
                Text(f"this record does not read: {reading.waiting_for}", style="red")
            )
        elif reading.conflict is not None:
            self.console.print(Text(f"contradiction: {reading.conflict}", style="bold red"))
            for number in reading.conflict.entries:
                self.console.print(Text(f"  {number}. {self.session.entries[number - 1].text}"))
        if reading.status != "ok" and reading.usable is not None:
            self.console.print(
                f"(deductions below are for entries 1 to {reading.entries})", style="dim"
            )
        if reading.usable is not None and self.board:
            self.show_view(reading.usable)
        self.show_changes()
        self.show_hints(self.hint_count, recompute=True)

    def show_changes(self) -> None:
        """One line: what the last entry changed (facts settled, odds moved), or that it
        changed nothing the hints tell."""
        reading = self.session.reading()
        if reading.usable is None or reading.entries < 2:
            return
        if self.session.level == "notepad":
            return
        changed = changes_at(self.session.level, self.session.changes())
        said = "; ".join(h.text for h in changed) or "nothing new for the notebook"
        self.console.print(Text(f"what changed: {said}", style="cyan"))

    def view(self, switch: str) -> None:
        if switch in ("on", "off"):
            self.board = switch == "on"
            self.console.print(f"the board is drawn after each change: {switch}")
            return
        if switch:
            raise SessionError(f"view takes on, off or nothing, not {switch!r}")
        usable = self.session.reading().usable
        if usable is None:
            self.console.print("nothing to draw yet: the record cannot be read")
        else:
            self.show_view(usable)

    def show_view(self, info: InformationSet) -> None:
        game = self.session.game
        view = None
        if self.session.level in ("odds", "advice"):
            view = views.heat_map(game, info)
        if view is None:
            view = views.position(game, info)
        if view is not None:
            self.console.print(view)

    def show_hints(self, limit: int, recompute: bool) -> None:
        """The first `limit` hints, numbered for `why N`; `*` marks a hint the previous
        list did not have (a new certainty, a changed chance)."""
        before = {hint.text for hint in self.shown}
        if recompute:
            self.shown = self.session.hints()
        if not self.shown:
            if self.session.reading().usable is not None:
                self.console.print("nothing to add yet", style="dim")
            return
        table = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(overflow="fold")  # wrapped at spaces; only a word too long is cut
        marked = False
        for number, hint in enumerate(self.shown[:limit], start=1):
            new = recompute and bool(before) and hint.text not in before
            marked |= new
            table.add_row(f"{'*' if new else ' '}{number}.", Text(hint.text))
        self.console.print(table)
        if marked:
            self.console.print("* new or changed since the last list", style="dim")
        if len(self.shown) > limit:
            self.console.print(f"... and {len(self.shown) - limit} more: `hints`", style="dim")

    def why(self, rest: str) -> None:
        number = _number(rest, "why N")
        if not 1 <= number <= len(self.shown):
            raise SessionError(f"there is no hint {number}; the hints are 1 to {len(self.shown)}")
        hint = self.shown[number - 1]
        entries = self.session.why(hint)
        if not entries:
            self.console.print(Text(f"{number}. {hint.text}: the rules alone force it"))
            return
        listed = ", ".join(map(str, entries))
        self.console.print(Text(f"{number}. {hint.text}: it follows from entries {listed}:"))
        for n in entries:
            self.console.print(f"  {n}. {self.session.entries[n - 1].text}", markup=False)

    def show_log(self) -> None:
        reading = self.session.reading()
        blamed = set(reading.conflict.entries) if reading.conflict else set()
        read_with = set(reading.conflict.read_with) if reading.conflict else set()
        for entry in self.session.entries:
            mark = " !" if entry.number in blamed else " ?" if entry.number in read_with else "  "
            self.console.print(
                Text(f"{mark}{entry.number:>3}. {entry.text}", style="red" if mark.strip() else "")
            )

    def show_help(self) -> None:
        table = Table(title="commands", box=None, padding=(0, 2), title_justify="left")
        for form, meaning in COMMANDS:
            table.add_row(form, meaning)
        self.console.print(table)
        notation = Table(title="what to type", box=None, padding=(0, 2), title_justify="left")
        for form, meaning in self.session.game.notation_help():
            notation.add_row(Text(form), Text(meaning))
        self.console.print(notation)
        names = views.names_help(self.session.game)
        self.console.print(Text(f"{names} @FILE stands for the words in that file.", style="dim"))


def expand_files(text: str) -> str:
    """`text` with each @PATH word replaced by the words of that file (a hand, a grid).

    Raises:
        InvalidObservation: a file that cannot be read.
    """
    words = []
    for word in text.split():
        if word.startswith("@") and len(word) > 1:
            try:
                words.append(" ".join(Path(word[1:]).expanduser().read_text().split()))
            except (OSError, UnicodeDecodeError) as error:
                raise InvalidObservation(f"cannot read {word[1:]!r}: {error}") from None
        else:
            words.append(word)
    return " ".join(words)


def line_reader(console: Console, words: Sequence[str]) -> Callable[[str], str]:
    """`input` with Tab completion of `words` when the terminal has readline, else plain."""
    if not sys.stdin.isatty():  # lines from a file or a pipe: show each one after its prompt
        return _echoing_input
    try:  # optional: not every Python has readline
        import readline
    except ImportError:  # Windows without pyreadline: no completion, everything else works
        return console.input
    vocabulary = sorted(set(words) | set(_WORDS))

    def complete(text: str, state: int) -> str | None:
        found = [w for w in vocabulary if w.lower().startswith(text.lower())]
        return found[state] + " " if state < len(found) else None

    readline.set_completer_delims(" \t/,;")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return input


def _echoing_input(prompt: str) -> str:
    line = input(prompt)
    print(line)
    return line


def _number(text: str, form: str) -> int:
    word = text.split()[0] if text.split() else ""
    if not word.isdigit():
        raise SessionError(f"expected an entry number: {form}")
    return int(word)


def _seat_name(seat: object) -> str:
    return seat.capitalize() if isinstance(seat, str) else f"player {seat}"


def run(
    console: Console, session: Session, board: bool = True, hint_count: int = SHOWN_HINTS
) -> int:
    """The notebook on the terminal for `session`, until `quit` or end of input."""
    reader = line_reader(console, session.game.notation_words())
    return Notebook(console, session, reader, board, hint_count).run()


def _model_words(model: str) -> str:
    """The opponent model as the screen says it."""
    if model == "counting":
        return "counting (every consistent deal alike)"
    return (
        f"{model} (the others' moves weighed as a {model} player's; estimated where the game "
        "cannot list every state)"
    )
