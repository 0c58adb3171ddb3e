"""Reading lines at the terminal: line editing, history and Tab completion (readline) when a
person types at a terminal; plain lines, echoed after their prompt, from a pipe or a file."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text


class Reader:
    """One prompt line at a time; None at the end of input."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.words: list[str] = []
        self.names: list[str] = []
        self.interactive = sys.stdin.isatty()
        self._readline = None
        if self.interactive:
            try:  # optional: not every Python has readline
                import readline
            except ImportError:  # a Python without readline: plain input still works
                return
            readline.set_completer(self._complete)
            readline.set_completer_delims(" ")
            readline.parse_and_bind("tab: complete")
            self._readline = readline

    def complete_with(self, words: Sequence[str]) -> None:
        """What Tab completes from now on: commands and the legal moves, word by word, and
        every name in them (card and suspect names) after a ':' or ','."""
        self.words = sorted(set(words))
        self.names = sorted(
            {part for word in words for part in re.split(r"[ :,]", word) if len(part) > 1}
        )

    def read(self, prompt: str) -> str | None:
        try:
            if self.interactive:
                return input(prompt)
            self.console.print(prompt, end="", style="bold")
            line = sys.stdin.readline()
        except EOFError:
            return None
        if not line:
            return None
        self.console.print(Text(line.rstrip("\n")), highlight=False)  # typed [x] is kept
        return line.rstrip("\n")

    def _complete(self, text: str, index: int) -> str | None:
        """readline's hook: the index-th completion of the word being typed."""
        assert self._readline is not None
        before = self._readline.get_line_buffer()[: self._readline.get_begidx()]
        matches = self.candidates(before + text)
        return matches[index] if index < len(matches) else None

    def candidates(self, line: str) -> list[str]:
        """The completions of the last word of `line` (what is typed up to the cursor): the
        next word of every known line that starts so; else a known name that starts as the
        word's last part after ':' or ',' (a card in a list)."""
        head, _, word = line.rpartition(" ")
        done = f"{head} " if head else ""
        found = {
            known[len(done) :].split(" ", 1)[0]
            for known in self.words
            if known.startswith(line) and known[len(done) :]
        }
        if found:
            return sorted(found)
        cut = max(word.rfind(":"), word.rfind(","))
        if cut < 0:
            return []
        stem, part = word[: cut + 1], word[cut + 1 :]
        return sorted({stem + name for name in self.names if name.startswith(part)})
