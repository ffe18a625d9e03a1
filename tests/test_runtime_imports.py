"""The runtime never imports the lab: what a Pi runs works without training or evaluation.

Runtime: every module under scorekeeper/ (but the `__main__` modules, which run a command
when imported). `make run` and the Pi install only the runtime's dependencies, so neither
PyTorch, ultralytics nor the lab (`scorekeeper_lab`, lab/) may load when the runtime is
imported or reads a frame. The lab imports the runtime, never the other way round, not even
inside a function: the one way from the runtime to the lab is running its command
(`scorekeeper deck adapt`, the server's "Improve this deck").
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
LAB = "scorekeeper_lab"
FORBIDDEN = (LAB, "torch", "torchvision", "ultralytics")
SAMPLE = PACKAGE / "camera" / "samples" / "sample-4-table-melds.jpg"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_modules() -> list[str]:
    names = (_module_name(p) for p in sorted(PACKAGE.rglob("*.py")))
    return [n for n in names if not n.endswith("__main__")]


# Runs in a fresh interpreter: imports each module in turn and names the first one whose
# import brought a forbidden module into sys.modules.
PROBE = """
import importlib, json, sys
forbidden, modules = json.loads(sys.argv[1])
def loaded():
    return sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in forbidden))
found = {}
already = set(loaded())
for name in modules:
    importlib.import_module(name)
    new = [m for m in loaded() if m not in already]
    if new:
        found[name] = new[:5]
        already.update(new)
if len(sys.argv) > 2:  # then read a frame the way `scorekeeper read` does
    from scorekeeper.cli import main
    assert main(["read", "--json", sys.argv[2]]) == 0
    new = [m for m in loaded() if m not in already]
    if new:
        found["scorekeeper read"] = new[:5]
print("FOUND " + json.dumps(found))
"""


def _probe(modules: list[str], *read: str) -> dict[str, list[str]]:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps([FORBIDDEN, modules]), *read],
                         capture_output=True, text=True, timeout=240, cwd=ROOT, check=True)
    line = next(li for li in out.stdout.splitlines() if li.startswith("FOUND "))
    return json.loads(line.removeprefix("FOUND "))


def test_the_runtime_modules_are_found() -> None:
    modules = runtime_modules()
    for expected in ("scorekeeper.cli", "scorekeeper.vision.reader", "scorekeeper.vision.bench",
                     "scorekeeper.web.app", "scorekeeper.rules.solver", "scorekeeper.camera.picam"):
        assert expected in modules
    assert not [m for m in modules if m.startswith(LAB)]


def test_importing_the_runtime_loads_no_lab_torch_or_ultralytics() -> None:
    assert _probe(runtime_modules()) == {}


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no card model")
def test_reading_a_frame_loads_no_lab_torch_or_ultralytics() -> None:
    assert _probe(["scorekeeper.cli"], str(SAMPLE)) == {}


def _imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, imported name, at module level?) for every import in a module, relative ones
    resolved; `from a import b` gives both `a` and `a.b`."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found += [(node.lineno, n, id(node) in top)
                      for n in (base, *(f"{base}.{a.name}" for a in node.names))]
    return found


def test_no_runtime_module_imports_the_lab_even_inside_a_function() -> None:
    """Importing is not enough to prove it: a function may import the lab when called."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if module not in runtime_modules():
            continue
        for line, name, _top in _imports(path):
            if name == LAB or name.startswith(LAB + "."):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not wrong, "\n".join(sorted(set(wrong)))
