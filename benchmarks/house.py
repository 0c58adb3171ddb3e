"""The house-keeping figures of issue 37, read off the library's source with `ast`:

    python benchmarks/house.py [--list KIND]

- comparisons of an observation's kind with a literal (`obs.kind == "draw"`, `kind in (...)`);
- imports that run up the layers (engines < solver < opponents < sleuth);
- reads of a private name (`x._name`, not on self or cls) that no module of the reading
  layer defines;
- function-local imports (allowed only for optional dependencies);
- functions longer than 80 lines;
- `assert isinstance` statements.

- functions of cyclomatic complexity over 25, as radon counts it (`pip install radon`; the
  figure is left out without it).

The duplicates are the `duplicates` tool's; `--list KIND` prints every occurrence of one
figure (kind, up, private, local, long, isinstance, complex).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engines", "solver", "opponents", "sleuth")
"""The library's packages, lowest first: each may import only those before it."""
LONG = 80
COMPLEX = 25


@dataclass(frozen=True)
class Finding:
    kind: str
    path: str
    line: int
    text: str


def modules() -> Iterator[tuple[str, Path, ast.Module]]:
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            yield layer, path, ast.parse(path.read_text(), str(path))


def _is_kind(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "kind") or (
        isinstance(node, ast.Name) and node.id == "kind"
    )


def _literal_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""] if node.level == 0 else []
    return [alias.name for alias in node.names]


def _defined_private(tree: ast.Module) -> set[str]:
    """Private names a module defines: functions, classes, attributes set on self, fields."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def findings() -> list[Finding]:
    parsed = list(modules())
    private_by_layer: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for layer, _, tree in parsed:
        private_by_layer[layer] |= _defined_private(tree)
    found: list[Finding] = []
    for layer, path, tree in parsed:
        where = str(path.relative_to(ROOT))
        rank = LAYERS.index(layer)
        functions = [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        local = {id(n) for f in functions for n in ast.walk(f) if n is not f}
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and (
                (_is_kind(node.left) and any(_literal_text(c) for c in node.comparators))
                or (_literal_text(node.left) and any(_is_kind(c) for c in node.comparators))
            ):
                found.append(Finding("kind", where, node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                for name in _imported(node):
                    top = name.split(".")[0]
                    if top in LAYERS and LAYERS.index(top) > rank:
                        found.append(Finding("up", where, node.lineno, f"{layer} imports {name}"))
                if id(node) in local:
                    found.append(Finding("local", where, node.lineno, ast.unparse(node)))
            elif (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in private_by_layer[layer]
            ):
                found.append(Finding("private", where, node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.Assert) and isinstance(node.test, ast.Call):
                func = node.test.func
                if isinstance(func, ast.Name) and func.id == "isinstance":
                    found.append(Finding("isinstance", where, node.lineno, ast.unparse(node)))
        for function in functions:
            length = (function.end_lineno or function.lineno) - function.lineno + 1
            if length > LONG:
                found.append(Finding("long", where, function.lineno, f"{function.name}: {length}"))
        found += complex_functions(path, where)
    return found


def complex_functions(path: Path, where: str) -> list[Finding]:
    """Functions of cyclomatic complexity over COMPLEX (radon's count), [] without radon."""
    try:  # optional: a measuring tool, not a dependency
        from radon.complexity import cc_visit
        from radon.visitors import Function
    except ImportError:
        return []
    blocks = cc_visit(path.read_text())
    functions = [b for b in blocks if isinstance(b, Function)]
    functions += [m for b in blocks if not isinstance(b, Function) for m in b.methods]
    found = {
        (f.lineno, f.name): Finding("complex", where, f.lineno, f"{f.name}: {f.complexity}")
        for f in functions
        if f.complexity > COMPLEX
    }
    return list(found.values())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--list", choices=("kind", "up", "private", "local", "long", "isinstance", "complex")
    )
    args = parser.parse_args()
    found = findings()
    if args.list:
        for f in found:
            if f.kind == args.list:
                print(f"{f.path}:{f.line}: {f.text}")
        return
    print("| figure | count |")
    print("| --- | --- |")
    for kind, label in (
        ("kind", "kind compared with a literal"),
        ("up", "imports up the layers"),
        ("private", "reads of another layer's private names"),
        ("local", "function-local imports"),
        ("long", f"functions over {LONG} lines"),
        ("isinstance", "assert isinstance"),
        ("complex", f"functions of complexity over {COMPLEX} (radon)"),
    ):
        print(f"| {label} | {sum(f.kind == kind for f in found)} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
