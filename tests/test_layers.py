"""The layers contract: no import cycle anywhere in the package (lazy imports included),
and no package importing one above it (tests/layers.py says the order and how it reads).
The lab (lab/scorekeeper_lab) sits above all of them: it imports the runtime, and no
runtime module imports it, lazily or not."""

from __future__ import annotations

from pathlib import Path

from tests.layers import LAYERS, cycles, graph, imports_of, layer, modules, packages, upward

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
LAB = PACKAGE.parent / "lab" / "scorekeeper_lab"


def test_every_package_has_its_place_in_the_layers() -> None:
    tops = {layer(m) for m in graph(PACKAGE)} - {"scorekeeper"}
    assert tops <= set(LAYERS), f"not in LAYERS: {sorted(tops - set(LAYERS))}"


def test_no_module_imports_itself_round_a_cycle() -> None:
    assert cycles(graph(PACKAGE)) == []


def test_no_package_cycle_and_no_import_of_a_higher_layer() -> None:
    g = graph(PACKAGE)
    assert cycles(packages(g)) == []
    assert upward(g) == []


def test_the_lab_is_apart_no_runtime_module_imports_it_and_it_has_no_cycle() -> None:
    runtime, lab = modules(PACKAGE), modules(LAB)
    assert "scorekeeper_lab.training.train" in lab and "scorekeeper.vision.reader" in runtime
    into_lab = {name: imports_of(name, path, lab) for name, path in runtime.items()}
    assert {name: found for name, found in into_lab.items() if found} == {}
    assert cycles(graph(LAB)) == []
    # and the lab does reach the runtime: the checker sees imports across the two
    assert imports_of("scorekeeper_lab.cli", lab["scorekeeper_lab.cli"], runtime)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_contract_finds_a_planted_cycle_a_lazy_one_and_an_upward_import(
        tmp_path: Path) -> None:
    """The checker itself: a cycle through a function-level import, a package cycle, an
    import against the order; a TYPE_CHECKING import is no dependency."""
    pkg = _tree(tmp_path, {
        "__init__.py": "",
        "rules/__init__.py": "",
        "rules/a.py": "from pkg.rules import b\n",
        "rules/b.py": "def f():\n    from pkg.rules.a import x\n",
        "store/__init__.py": "",
        "store/s.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from pkg.web import w\nfrom ..rules import a\n",
        "web/__init__.py": "",
        "web/w.py": "import pkg.store.s\n",
    })
    g = graph(pkg)
    assert g["pkg.store.s"] == {"pkg.rules.a"}  # relative, and TYPE_CHECKING left out
    assert cycles(g) == [["pkg.rules.a", "pkg.rules.b"]]
    assert upward(g, ("rules", "store", "web")) == []
    g["pkg.rules.b"].add("pkg.web.w")  # plant: rules reaches up to web
    assert upward(g, ("rules", "store", "web")) == ["pkg.rules.b -> pkg.web.w"]
    assert cycles(packages(g)) == [["rules", "store", "web"]]
