"""The package's import graph, lazy imports included, and the layers it must keep.

A module's imports are every `import` and `from … import` in it, at the top or inside a
function (a lazy import is still a dependency), except under `if TYPE_CHECKING:` (types
only, never run). `from pkg import name` depends on `pkg.name` when that is a module, else on
`pkg`. The layers run from the bottom up; a package may import its own layer and those
below it, never one above, and no two modules (or packages) may import each other, however
far round.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

# bottom first: what the rules need is below them, the command line is on top
LAYERS = ("registry", "files", "rules", "store", "settings", "calibration", "camera", "vision",
          "decks", "scanning", "config", "club", "web", "cli", "__main__")
Graph = dict[str, set[str]]


def modules(package: Path) -> dict[str, Path]:
    """Dotted name → file, for every module under `package` (a folder with __init__.py)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.with_suffix("").relative_to(package.parent).parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _typing_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skip


def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports, lazily or not."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _typing_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            subs = {f"{base}.{alias.name}" for alias in node.names}
            found.update(subs & set(known))
            if not subs <= set(known):
                found.add(base)
    return {m for m in found if m in known and m != name}


def graph(package: Path) -> Graph:
    known = modules(package)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(g: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every set of nodes that reach each other (Tarjan's strongly connected components),
    each sorted; a node alone is no cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # depth is the package's import depth: a few dozen
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(found)


def layer(module: str) -> str:
    """A module's layer: its top package under the root (`scorekeeper.web.routes.games` → `web`)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def packages(g: Mapping[str, Iterable[str]]) -> Graph:
    out: Graph = {}
    for a, bs in g.items():
        for b in bs:
            if layer(a) != layer(b):
                out.setdefault(layer(a), set()).add(layer(b))
    return out


def upward(g: Mapping[str, Iterable[str]], order: tuple[str, ...] = LAYERS) -> list[str]:
    """`module -> module` for each import of a higher layer (or of a layer not in `order`)."""
    out = []
    for a, bs in g.items():
        for b in bs:
            la, lb = layer(a), layer(b)
            if la == lb:
                continue
            if la not in order or lb not in order or order.index(lb) > order.index(la):
                out.append(f"{a} -> {b}")
    return sorted(out)
