"""Follow a game of Blue Lion as a spectator with a perfect notebook.

Random players play; after every revealed face, print what has become certain (and why) and
how likely each remaining back is. Run: python examples/blue_lion_notebook.py [SEED]
"""

from __future__ import annotations

import random
import sys

import engines
import solver


def main(seed: int = 5) -> list[str]:
    """Print, and return, the notebook's lines for one random game."""
    game = engines.make("blue-lion")
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    lines: list[str] = []
    known: set[solver.Fact] = set()
    while not state.is_over:
        shown = len(state.information_set("lupin").observations)
        state.apply(rng.choice(state.legal_actions()))
        info = state.information_set("lupin")
        if not any(obs.kind == "reveal" for obs in info.observations[shown:]):
            continue
        d = solver.deduce(info)
        for fact in d.certain():
            if fact not in known:
                known.add(fact)
                reasons = "; ".join(game.describe(obs) for obs in d.explain(fact))
                lines.append(f"now certain: {fact.text}, because {reasons}")
        lines.append(f"  {d.total()} pairings remain after: {state.line_text()}")
    lines.append(f"winners: {', '.join(state.winners)} {state.scores}")
    print("\n".join(lines))
    return lines


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
