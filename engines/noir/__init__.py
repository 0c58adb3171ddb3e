"""Noir: Killer vs Inspector (rules/noir.md): two players hiding among a grid of suspects."""

from engines.noir.actions import (
    Arrest,
    CitizenArrest,
    Disguise,
    Draw,
    Exonerate,
    Identity,
    Kill,
    NoirAction,
    Shift,
)
from engines.noir.game import Noir
from engines.noir.grid import Grid, adjacent, collapsed, neighbours, shifted
from engines.noir.material import NAMES, SEATS
from engines.noir.state import NoirState, allowed_shifts

__all__ = [
    "NAMES",
    "SEATS",
    "Arrest",
    "CitizenArrest",
    "Disguise",
    "Draw",
    "Exonerate",
    "Grid",
    "Identity",
    "Kill",
    "Noir",
    "NoirAction",
    "NoirState",
    "Shift",
    "adjacent",
    "allowed_shifts",
    "collapsed",
    "neighbours",
    "shifted",
]
