"""Alibi (rules/alibi.md): 3-6 players deduce the four cards in the box by asking questions."""

from engines.alibi.actions import Accuse, AlibiAction, Ask, Lay, Pass, Solution
from engines.alibi.game import Alibi, deal
from engines.alibi.material import TYPES, Card, Deck, hand_sizes, load_deck
from engines.alibi.questions import SCOPES, Subject, SubjectKind, parse_subject
from engines.alibi.state import ACCUSATIONS_LISTED, PASSES_LISTED, AlibiState, set_points

__all__ = [
    "ACCUSATIONS_LISTED",
    "PASSES_LISTED",
    "SCOPES",
    "TYPES",
    "Accuse",
    "Alibi",
    "AlibiAction",
    "AlibiState",
    "Ask",
    "Card",
    "Deck",
    "Lay",
    "Pass",
    "Solution",
    "Subject",
    "SubjectKind",
    "deal",
    "hand_sizes",
    "load_deck",
    "parse_subject",
    "set_points",
]
