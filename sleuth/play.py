"""`sleuth play`: a person against bots at the terminal. Bad input is refused, never fatal.

The person gets the solver bot's own advice (`hint`, `best`), the rules, `undo`, the move log,
the whole reason for any hint (`why N`) and for the solver's ranking of a move (`why best`,
`why MOVE`), line editing with history and Tab completion where
the terminal has them, "did you mean" for typos, and at the end the hidden truth and a recap.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

import opponents
import solver
from engines import (
    Action,
    Game,
    IllegalAction,
    InformationSet,
    InvalidAction,
    Seat,
    SleuthError,
    State,
)
from engines.notation import Vocabulary, respell
from sleuth import recap, rules, views
from sleuth.commands import safe_hints, seat_name
from sleuth.reader import Reader
from sleuth.review import show as show_review
from sleuth.views.advice import advice_table, numbered_hints
from solver.hints import check_hint_model
from solver.opponent_models import COUNTING
from solver.review import review as solver_review

LONG_LIST = 40
"""Above this many legal moves, play shows what to type instead of numbering every move."""
EXAMPLES = 3
HINTS = 8
RUNNERS_UP = 3
COMMANDS = {
    "help": "this help",
    "hint": "the solver's advice, then what can be deduced now (numbered)",
    "best": "the solver's advice in full: every move it scored, with its risks",
    "why N": "the whole reason for hint N of the last `hint`",
    "why best": "why the solver's move is best (`why MOVE`: why it ranks MOVE below)",
    "moves": "the legal moves again (`moves all`: every move, numbered)",
    "log": "the moves so far, numbered, as you saw them",
    "undo": "take back your last move and the bots' replies",
    "rules": "the rules of the game, in short",
    "again": "abandon this game and start a new one",
    "quit": "leave",
}


def _help(legal: Sequence[Action]) -> str:
    lines = [f"Type a move (for example `{legal[0]}`), or its number when the moves are listed."]
    lines += [f"  {name:<10} {what}" for name, what in COMMANDS.items()]
    lines.append("Tab completes moves and commands; arrow keys recall earlier lines.")
    return "\n".join(lines)


def play(
    console: Console,
    game: Game,
    seat: Seat,
    bot: str,
    seed: int | None,
    save: str | None = None,
    model: str = COUNTING,
) -> int:
    """Games against `bot` until the person stops; each `again` deals a new game. With
    `save`, each finished game's record is written there (the last one kept), for
    `sleuth review`. `model` reads the hints' odds under a model of the other players.

    Raises:
        ConfigError: an unknown model, or a model for a game whose hints read none (or for
            a seat whose odds are another seat's view).
    """
    check_hint_model(game.name, model, seat)
    reader = Reader(console)
    while True:
        fresh = seed if seed is not None else _fresh_seed()
        table = Table(console, game, seat, bot, fresh, reader, save, model)
        if table.run() != "again":
            return 0
        seed = None


def _fresh_seed() -> int:
    return random.SystemRandom().randrange(1 << 31)


@dataclass
class Turn:
    """One applied action as the person saw it: who moved, and the sentences they were told."""

    seat: Seat
    told: list[str]


@dataclass
class Table:
    """One game at the terminal: the state, the bots, what the person saw, the last hints."""

    console: Console
    game: Game
    seat: Seat
    bot: str
    seed: int
    reader: Reader
    save: str | None = None
    model: str = COUNTING  # how the hints' odds read the other players' choices
    state: State = field(init=False)
    bots: dict[Seat, opponents.Bot] = field(init=False)
    actions: list[Action] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)  # len(actions) before each of my moves
    decisions: list[tuple[int, Seat, InformationSet]] = field(default_factory=list)
    shown_hints: list[solver.Hint] = field(default_factory=list)
    numbered: list[Action] | None = None  # the moves last listed with numbers
    told: int = 0

    def __post_init__(self) -> None:
        solver.forget()  # a new game: hints as a fresh process would show them
        self.state = self.game.new_game(seed=self.seed)
        self._make_bots(0)

    def _make_bots(self, generation: int) -> None:
        """Fresh bots (after an undo too: what they remembered may no longer have happened)."""
        self.bots = {
            other: opponents.make(
                self.bot, self.game, other, seed=self.seed + 7919 * generation + k
            )
            for k, other in enumerate(self.game.seats)
            if other != self.seat
        }

    # --- the loop --------------------------------------------------------------------------
    def run(self) -> str:
        """Play to the end; "quit", "again" or "over"."""
        console = self.console
        console.print(
            f"You play {seat_name(self.seat)} against the {self.bot} bot (game seed {self.seed}). "
            "Type `help` for help, `rules` for the rules."
        )
        if (legend := views.legend(self.game)) is not None:
            console.print(legend)
        while True:
            outcome = self._play_on()
            if outcome != "undo":
                return outcome

    def _play_on(self) -> str:
        """Play from the position now to the end; "quit", "again", "over" or "undo" (taken
        back once the game was over: play on)."""
        console = self.console
        while (mover := self.state.to_move) is not None:
            if mover != self.seat:
                self._apply(mover, self.bots[mover].act(self.state.information_set(mover)))
                continue
            info = self._show_news()
            self.decisions.append((len(self.actions) + 1, mover, info))
            if (view := views.position(self.game, info)) is not None:
                console.print(view)
            legal = self.state.legal_actions()
            self._show_moves(legal)
            outcome = self._read_move(info, legal)
            if outcome is not None:
                return outcome
        self._show_news()
        if (view := views.position(self.game, self.state.information_set(self.seat))) is not None:
            console.print(view)
        self._verdict()
        return self._after_the_end()

    def _apply(self, mover: Seat, action: Action) -> None:
        if mover != self.seat:
            self.decisions.append((len(self.actions) + 1, mover, self.state.information_set(mover)))
        self._record(mover, action)

    def _record(self, mover: Seat, action: Action) -> None:
        """Apply `action` and keep it, with what the person's seat saw it do, in words."""
        before = len(self.state.information_set(self.seat).observations)
        self.state.apply(action)
        self.actions.append(action)
        seen = self.state.information_set(self.seat).observations[before:]
        self.turns.append(Turn(mover, [self.game.describe(obs) for obs in seen]))

    def _show_news(self) -> InformationSet:
        info = self.state.information_set(self.seat)
        for line in info.observations[self.told :]:
            self.console.print(Text(f"  {self.game.describe(line)}", style="dim"))
        self.told = len(info.observations)
        return info

    def _read_move(self, info: InformationSet, legal: list[Action]) -> str | None:
        """Commands until a move is played (None) or the person leaves ("quit", "again")."""
        self.reader.complete_with([*COMMANDS, "moves all", *map(str, legal)])
        while True:
            text = self.reader.read(f"{seat_name(self.seat)}> ")
            if text is None:
                self.console.print("\nbye")
                return "quit"
            command, _, rest = text.strip().partition(" ")
            command, rest = command.lower(), rest.strip()
            if command in ("quit", "exit", "q"):
                self.console.print("bye")
                return "quit"
            if command == "again":
                self.console.print("a new game")
                return "again"
            if command in ("help", "?", ""):
                self.console.print(Text(_help(legal)))
            elif command in ("moves", "m"):
                if rest == "all":
                    self._list_moves(legal)
                else:
                    self._show_moves(legal)
            elif command in ("hint", "hints", "h"):
                self._hint(info)
            elif command == "best":
                self._best(info)
            elif command == "why" and rest and not rest.isdigit():
                self._why_move(info, rest)
            elif command == "why":
                self._why(rest)
            elif command == "log":
                self._log()
            elif command == "rules":
                self._rules()
            elif command == "undo":
                if self._undo():
                    return None  # the loop goes on from the position taken back to
            elif text.strip().isdigit():
                action = self._numbered(int(text.strip()), legal)
                if action is not None:
                    self._apply(self.seat, action)
                    self.marks.append(len(self.actions) - 1)
                    return None
            elif self._typed_move(text.strip(), legal):
                return None

    def _typed_move(self, text: str, legal: list[Action]) -> bool:
        try:
            try:
                action = self.game.parse_action(text)
            except InvalidAction:
                # names shortened as in the notebook ("pass po-ar bl-kn"): read in full
                spelt = [w for a in legal for w in re.split(r"[ :,]", str(a)) if w]
                expanded = expand_names(text, [*spelt, *self.game.notation_words()])
                if expanded is None:
                    raise
                action = self.game.parse_action(expanded)
                self.console.print(Text(f"(read as `{action}`)", style="dim"))
            mark = len(self.actions)
            self._apply(self.seat, action)
            self.marks.append(mark)
            return True
        except (InvalidAction, IllegalAction) as error:
            self.console.print(Text(str(error), style="red"))
            close = _did_you_mean(text, [*COMMANDS, *map(str, legal)])
            if close:
                self.console.print(Text(f"did you mean: {' or '.join(f'`{c}`' for c in close)}?"))
            return False

    def _numbered(self, number: int, legal: list[Action]) -> Action | None:
        """The move `number` of the list last shown, if the moves were listed with numbers."""
        if self.numbered is None:
            self.console.print(
                f"the {len(legal)} moves are not numbered here: type one (see `moves`), "
                "or `moves all` to number them"
            )
            return None
        if not 1 <= number <= len(self.numbered):
            self.console.print(
                f"there is no move {number}; moves are numbered 1-{len(self.numbered)}"
            )
            return None
        return self.numbered[number - 1]

    # --- commands --------------------------------------------------------------------------
    def _advice(self, info: InformationSet) -> solver.Advice | None:
        knobs = {} if self.model == COUNTING else {"model": self.model}
        try:
            return solver.advise(info, seed=self.seed, **knobs)
        except SleuthError as error:
            self.console.print(Text(f"no advice here: {error}", style="yellow"))
            return None

    def _hint(self, info: InformationSet) -> None:
        self.shown_hints = safe_hints(info, HINTS, self.model)  # first: it serves both
        advice = self._advice(info)
        if advice is not None:
            self.console.print(advice_table(advice, RUNNERS_UP))
        if self.shown_hints:
            self.console.print(numbered_hints(self.shown_hints))
            if (chances := views.heat_map(self.game, info)) is not None:
                self.console.print(chances)
        elif advice is None:
            self.console.print("no hints for this game yet")

    def _best(self, info: InformationSet) -> None:
        advice = self._advice(info)
        if advice is not None:
            self.console.print(advice_table(advice, len(advice.candidates), every=True))

    def _rules(self) -> None:
        try:
            self.console.print(Markdown(rules.text(self.game.name)))
        except SleuthError as error:  # a game added without a summary yet
            self.console.print(Text(str(error), style="yellow"))

    def _why(self, rest: str) -> None:
        if not self.shown_hints:
            self.console.print("no hints yet: type `hint` first")
            return
        if not rest.isdigit() or not 1 <= int(rest) <= len(self.shown_hints):
            self.console.print(f"why takes a hint's number, 1-{len(self.shown_hints)}")
            return
        hint = self.shown_hints[int(rest) - 1]
        self.console.print(Text(f"{rest}. {hint.text}", style="bold"))
        if not hint.because:
            self.console.print("  (read directly off the position: no observation to cite)")
        for k, reason in enumerate(hint.because, 1):
            self.console.print(Text(f"  {k}. {reason}"))

    def _why_move(self, info: InformationSet, rest: str) -> None:
        """The search's reasons for its move (`best`) or for ranking a typed move below it."""
        advice = self._advice(info)
        if advice is None:
            return
        action = None
        if rest.lower() != "best":
            try:
                action = self.game.parse_action(rest)
            except InvalidAction as error:
                self.console.print(Text(str(error), style="red"))
                return
        reasons = advice.reasons(action)
        if not reasons:
            self.console.print(f"the solver did not score {rest}")
        for k, reason in enumerate(reasons, 1):
            self.console.print(Text(f"  {k}. {reason}"))

    def _log(self) -> None:
        if not self.turns:
            self.console.print("no moves yet")
        for k, turn in enumerate(self.turns, 1):
            said = "; ".join(line for line in turn.told if line)
            self.console.print(Text(f"{k:>3}. {said or seat_name(turn.seat) + ': (unseen)'}"))

    def _undo(self) -> bool:
        """Take back the person's last move and every bot move since; False if none."""
        if not self.marks:
            self.console.print("nothing to undo: you have not moved yet")
            return False
        mark = self.marks.pop()
        kept = self.actions[:mark]
        self.state = self.game.new_game(seed=self.seed)
        self.actions, self.turns = [], []
        self.decisions = [d for d in self.decisions if d[0] <= mark]
        for action in kept:
            self._replay(action)
        self._make_bots(len(self.marks) + 1)
        self.told = len(self.state.information_set(self.seat).observations)
        self.console.print(f"took back your move; back to move {mark + 1}")
        return True

    def _replay(self, action: Action) -> None:
        mover = self.state.to_move
        assert mover is not None, "replaying a game that was not over"
        self._record(mover, action)

    # --- the end ---------------------------------------------------------------------------
    def _verdict(self) -> None:
        winners = self.state.winners
        verdict = "You win!" if self.seat in winners else "You lose."
        if self.seat in winners and len(winners) > 1:
            verdict = "A shared win."
        self.console.print(f"[bold]{verdict}[/bold]")
        for line in recap.recap(self.game, self.state, self.decisions, self.seat):
            self.console.print(Text(line))
        if self.save is not None:
            self._save(self.save)
        self.console.print("type `review` to see each of your decisions beside the solver's")

    def _save(self, path: str) -> None:
        """The game's record as JSON at `path` (a failure is said, never fatal)."""
        try:
            Path(path).write_text(self.state.to_json(), encoding="utf-8")
        except OSError as error:
            self.console.print(
                f"could not save the game in {path}: {error.strerror}", soft_wrap=True
            )
            return
        self.console.print(f"saved the game in {path} (sleuth review {path})", soft_wrap=True)

    def _review(self) -> None:
        """Each of the person's decisions beside the solver's, graded."""
        try:
            with self.console.status("reviewing: the solver weighs every decision again"):
                found = solver_review(self.state, self.seat, seed=self.seed)
        except SleuthError as error:
            self.console.print(f"no review: {error}")
            return
        show_review(self.console, found)

    def _after_the_end(self) -> str:
        self.reader.complete_with(["again", "review", "log", "undo", "quit"])
        while True:
            text = self.reader.read("game over: `again`, `review`, `undo`, `log` or `quit`> ")
            command = "quit" if text is None else text.strip().lower()
            if command in ("quit", "exit", "q", ""):
                self.console.print("bye")
                return "over"
            if command == "again":
                return "again"
            if command == "undo" and self._undo():
                return "undo"
            if command == "log":
                self._log()
            elif command == "review":
                self._review()
            elif command != "undo":
                self.console.print(
                    "the game is over: type `again` for another, `review`, `undo`, `log`, or `quit`"
                )

    # --- listing moves ---------------------------------------------------------------------
    def _show_moves(self, legal: Sequence[Action]) -> None:
        """Every move numbered when they are few; otherwise what to type, with examples."""
        if len(legal) <= LONG_LIST:
            self._list_moves(legal)
            return
        self.numbered = None
        self.console.print(_summary(legal))
        if (syntax := views.moves_help(self.game, legal)) is not None:
            self.console.print(syntax)

    def _list_moves(self, legal: Sequence[Action]) -> None:
        self.numbered = list(legal)
        self.console.print(
            Columns([Text(f"{k}. {a}") for k, a in enumerate(legal, 1)], padding=(0, 3))
        )


def expand_names(text: str, names: Sequence[str]) -> str | None:
    """`text` with each word (and each item of a `kind:a,b` word) that is not a name but
    shortens exactly one ("po-ar" for poison-arsenic) written in full; None when nothing
    changed."""
    vocabulary = Vocabulary("name", names)
    known = {name.lower() for name in names}

    def full(item: str) -> str:
        if not item or item.lower() in known or item.isdigit():
            return item
        found = vocabulary.matches(item)
        if len(found) > 1:  # "blun": blunt, not blunt-hammer (as many parts as typed)
            found = [name for name in found if name.count("-") == item.count("-")]
        return found[0] if len(found) == 1 else item

    words = []
    for word in text.split():
        head, colon, items = word.rpartition(":")
        words.append(head + colon + ",".join(full(item) for item in items.split(",")))
    expanded = " ".join(words)
    return expanded if expanded != " ".join(text.split()) else None


def _did_you_mean(text: str, known: Sequence[str]) -> list[str]:
    """Up to three known spellings close to `text` (a command or a legal move): close as a
    whole; else `text` with each misspelt word respelt ("lay t4 rigth" -> "lay t4 right");
    else the legal moves that begin with the words typed right, closest first."""
    words = text.lower()
    close = difflib.get_close_matches(words, known, n=3, cutoff=0.75)
    if close:
        return close
    vocabulary = {word for line in known for word in line.lower().split()}
    fixed = respell(words.split(), vocabulary)
    if fixed is not None and " ".join(fixed) in known:
        return [" ".join(fixed)]
    typed = (fixed or words.split())[:-1]
    for cut in range(len(typed), 0, -1):
        begun = [k for k in known if k.lower().split()[:cut] == typed[:cut]]
        if begun:
            ranked = sorted(begun, key=lambda k: -difflib.SequenceMatcher(None, words, k).ratio())
            return ranked[:3]
    head = words.split(" ", 1)[0]
    return difflib.get_close_matches(head, [k for k in known if " " not in k], n=1, cutoff=0.7)


def _summary(legal: Sequence[Action]) -> Text:
    """Per kind of move (its first word): how many are listed, and examples to copy."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(str(action).split()[0], []).append(action)
    text = Text()
    for verb, actions in kinds.items():
        text.append(verb, "bold")
        text.append(f" ({len(actions)} listed), for example:\n")
        for action in _examples(actions, EXAMPLES):
            text.append(f"  {action}\n")
    text.rstrip()
    return text


def _examples(actions: Sequence[Action], count: int) -> list[Action]:
    """Up to `count` actions that differ in shape where they can (`ask 1 hand type:suspect`
    and `ask 1 hand cards:...` differ in the keys before ':'), else spread over the list."""
    shapes: dict[tuple[str, ...], Action] = {}
    for action in actions:
        words = str(action).split()
        shapes.setdefault(tuple(word.partition(":")[0] for word in words if ":" in word), action)
    picked = _spread(list(shapes.values()), count)
    others = [action for action in _spread(actions, count) if action not in picked]
    return picked + others[: count - len(picked)]


def _spread(items: Sequence[Action], count: int) -> list[Action]:
    """`count` items evenly spaced over `items`, first and last included."""
    if len(items) <= count:
        return list(items)
    return [items[round(k * (len(items) - 1) / (count - 1))] for k in range(count)]
