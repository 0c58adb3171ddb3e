"""Keep player 0's Alibi notebook through a game played by heuristic bots.

After each of player 0's turns, print the box's likeliest card of each type, anything about
the box that has become certain (with the observations that force it), and the question the
solver would ask next. Run: python examples/alibi_notebook.py [SEED]
"""

from __future__ import annotations

import sys

import engines
import opponents
import solver
from engines.alibi import TYPES
from solver.games.alibi.hinting import SPOKEN_CARDS, best_questions


def main(seed: int = 3, players: int = 4, deck: str = "full", rounds: int = 4) -> list[str]:
    """Print, and return, the notebook's lines for the first `rounds` rounds of one game."""
    game = engines.make("alibi", players=players, deck=deck)
    bots = {seat: opponents.make("heuristic", game, seat, seed=seed + seat) for seat in game.seats}
    state = game.new_game(seed=seed)
    lines: list[str] = []
    known: set[solver.Fact] = set()

    def say(line: str) -> None:
        print(line)
        lines.append(line)

    while (mover := state.to_move) is not None and state.round <= rounds:
        if mover == 0 and state.phase == "turns":
            info = state.information_set(0)
            d = solver.deduce(info)
            say(f"round {state.round}" + ("" if d.exact else " (estimated)"))
            for kind in TYPES:
                odds = [
                    (d.probability(f), f.args[0])
                    for f in d.facts
                    if f.kind == "InBox" and game.deck.by_id[f.args[0]].type == kind
                ]
                p, card = max(odds)
                say(f"  likeliest {kind}: {game.deck.by_id[card].name} ({p:.0%})")
            for fact in d.facts:
                if fact.kind in ("InBox", "BoxGroup") and fact not in known and d.is_certain(fact):
                    known.add(fact)
                    reasons = "; ".join(d.describe(d.explain(fact)))
                    say(f"  now certain: {fact.text}, because {reasons}")
            question = best_questions(info, d, top=1, max_cards=SPOKEN_CARDS)[0]
            say(f"  best question: {question.ask} ({question.gain:.2f} bits about the box)")
        state.apply(bots[mover].act(state.information_set(mover)))
    return lines


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
