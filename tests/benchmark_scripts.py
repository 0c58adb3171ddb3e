"""Benchmark scripts imported by the tests that check them (benchmarks/ is no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(script: str, module: str) -> ModuleType:
    """benchmarks/`script`.py as the module `module`, registered in `sys.modules` (its
    dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(module, BENCHMARKS / f"{script}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module] = loaded
    spec.loader.exec_module(loaded)
    return loaded
