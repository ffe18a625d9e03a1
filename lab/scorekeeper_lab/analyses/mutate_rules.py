#!/usr/bin/env python3
"""Mutation testing of scorekeeper/rules/: do the rules tests notice when the rules change?

Each mutant is one small AST edit of one rules module (a flipped comparison, an int off by
one, `and` for `or`, a negated condition, a return value replaced, a statement deleted...).
The rules tests run against every mutant in a private copy of the tree, so the checkout is
never touched (Ctrl-C included) and other work in it is unaffected. A mutant is *killed*
when a test fails (or it runs past the timeout), and *survives* when every test passes.

Some mutants cannot change behaviour (an equivalent mutant: `max(0, 3 - k)` where k >= 1
already). They are listed, with a one-line reason each, in
mutation_equivalent.txt beside this file;
the score is killed / (all mutants - listed equivalents). See docs/mutation-testing.md.

Not part of `make test`: it takes minutes. Run it by hand:

    .venv/bin/python -m scorekeeper_lab.analyses.mutate_rules          # all modules, 2 workers
    .venv/bin/python -m scorekeeper_lab.analyses.mutate_rules --list   # only list the mutants
    .venv/bin/python -m scorekeeper_lab.analyses.mutate_rules --modules melds solver --workers 1
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper_lab import REPO

ROOT = REPO
RULES = ROOT / "scorekeeper" / "rules"
ALLOWLIST = ROOT / "scripts" / "mutation_equivalent.txt"
MODULES = ("melds", "solver", "chicago", "rummy", "rummy500", "scoring", "hand", "variants")
# fastest first: with -x a killed mutant stops at its first failing test
TESTS = ("tests/test_melds.py", "tests/test_rummy500.py", "tests/test_rummy.py",
         "tests/test_chicago.py", "tests/test_rules_pinned_*.py", "tests/test_solver.py",
         "tests/test_rules_typed_points.py", "tests/test_registry.py", "tests/test_game.py",
         "tests/test_layout.py", "tests/test_web_variants.py", "tests/test_score_contract.py")
# the contract's refusals run one CLI process per line (5 s of a 7 s run); every refusal
# they check is also checked in-process by the rules tests. --all-tests keeps them.
SLOW = ("tests/test_score_contract.py::test_bad_input",)
MAX_WORKERS = 2  # the machine is shared: never more

_FLIP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
             ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
             ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_NEGATES = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)
_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mult,
             ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr, ast.BitXor: ast.BitOr,
             ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.Mod: ast.Mult}
_SWAP_CALL = {"min": "max", "max": "min", "any": "all", "all": "any"}


def _short(node: ast.AST, limit: int = 70) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


class _Mutator(ast.NodeTransformer):
    """Walks a module in a fixed order; counts every possible mutation and applies only
    the one numbered `target` (-1: apply none, just collect the descriptions)."""

    def __init__(self, target: int = -1) -> None:
        self.target = target
        self.found: list[tuple[int, str, str]] = []  # (line, function, description)
        self.scope: list[str] = []

    def _offer(self, node: ast.AST, desc: str) -> bool:
        self.found.append((getattr(node, "lineno", 0), ".".join(self.scope) or "<module>", desc))
        return len(self.found) - 1 == self.target

    # scopes, and the parts never mutated (annotations, docstrings, asserts, __all__)
    def _scoped(self, node: Any, name: str) -> ast.AST:
        if name:
            self.scope.append(name)
        body = getattr(node, "body", [])
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = [body[0], *self._stmts(body[1:])]
        else:
            node.body = self._stmts(body)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.args = self.visit(node.args)
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
        if name:
            self.scope.pop()
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._scoped(node, node.name)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return self._scoped(node, node.name)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        return node

    def visit_Import(self, node: ast.Import) -> ast.AST:
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node  # message wording: tests match messages, not their every word

    def visit_Module(self, node: ast.Module) -> ast.AST:
        return self._scoped(node, "")

    @staticmethod
    def _is_all(stmt: ast.stmt) -> bool:
        return isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)

    # statements: deletion (raise, expression statements, aug-assign, loop control,
    # assignments inside a branch or loop)
    def _stmts(self, body: list[ast.stmt], nested: bool = False) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            if self._is_all(stmt):
                out.append(stmt)
                continue
            deletable = isinstance(stmt, ast.Raise | ast.Expr | ast.AugAssign | ast.Continue
                                   | ast.Break) or (nested and isinstance(stmt, ast.Assign))
            if deletable and self._offer(stmt, f"delete: {_short(stmt)}"):
                continue
            out.append(self.visit(stmt))
        return out or [ast.Pass()]

    def _nested_body(self, node: ast.If | ast.For | ast.While) -> None:
        node.body = self._stmts(node.body, nested=True)
        node.orelse = self._stmts(node.orelse, nested=True) if node.orelse else []

    def _negated(self, test: ast.expr) -> ast.expr:
        """`not (test)`, unless a mutation below already gives exactly that."""
        same = (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)) or (
            isinstance(test, ast.Compare) and len(test.ops) == 1
            and type(test.ops[0]) in _NEGATES)
        if not same and self._offer(test, f"negate: {_short(test)}"):
            return ast.UnaryOp(ast.Not(), test)
        return self.visit(test)

    def visit_If(self, node: ast.If) -> ast.AST:
        node.test = self._negated(node.test)
        self._nested_body(node)
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        node.test = self._negated(node.test)
        self._nested_body(node)
        return node

    def visit_For(self, node: ast.For) -> ast.AST:
        node.iter = self.visit(node.iter)
        self._nested_body(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        node.test = self._negated(node.test)
        node.body, node.orelse = self.visit(node.body), self.visit(node.orelse)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        node.iter = self.visit(node.iter)
        node.ifs = [self._negated(t) for t in node.ifs]
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None) \
                and self._offer(node, f"return None instead of: {_short(value)}"):
            node.value = ast.Constant(None)
            return node
        if value is not None:
            node.value = self.visit(value)
        return node

    # expressions
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for i, op in enumerate(node.ops):
            new = _FLIP_CMP.get(type(op))
            if new is None:
                continue
            mutant = copy.deepcopy(node)
            mutant.ops[i] = new()
            if self._offer(node, f"{_short(node)}  ->  {_short(mutant)}"):
                return mutant
        self.generic_visit(node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        new = _SWAP_BIN.get(type(node.op))
        if new is not None:
            mutant = copy.deepcopy(node)
            mutant.op = new()
            if self._offer(node, f"{_short(node)}  ->  {_short(mutant)}"):
                return mutant
        self.generic_visit(node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        mutant = copy.deepcopy(node)
        mutant.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        if self._offer(node, f"{_short(node)}  ->  {_short(mutant)}"):
            return mutant
        self.generic_visit(node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, ast.Not) and self._offer(node, f"drop not: {_short(node)}"):
            return node.operand
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            return node  # -1 is mutated as a whole below, through its int
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Name) and node.func.id.endswith("Error"):
            return node  # an error's message: its wording is not a rule
        if isinstance(node.func, ast.Name) and node.func.id in _SWAP_CALL:
            mutant = copy.deepcopy(node)
            mutant.func = ast.Name(_SWAP_CALL[node.func.id], ast.Load())
            if self._offer(node, f"{_short(node)}  ->  {_short(mutant)}"):
                return mutant
        self.generic_visit(node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if self._offer(node, f"{value} -> {not value}"):
                return ast.Constant(not value)
        elif isinstance(value, int):
            for new in (value + 1, value - 1):
                if self._offer(node, f"{value} -> {new}"):
                    return ast.Constant(new)
        elif isinstance(value, str) and value and self._offer(node, f"{value!r} -> 'XX'"):
            return ast.Constant("XX")
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node.value = self.visit(node.value)
        if isinstance(node.ctx, ast.Load) or not isinstance(node.slice, ast.Constant):
            node.slice = self.visit(node.slice)
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        # keys are output fields and string values are labels: wording, not rules
        node.keys = [k if isinstance(k, ast.Constant) else self.visit(k) if k else k
                     for k in node.keys]
        node.values = [v if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else self.visit(v) for v in node.values]
        return node

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        node.value = self.visit(node.value)
        return node


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int
    line: int
    function: str
    desc: str
    occurrence: int  # the n-th identical (function, desc) in this module, from 1

    @property
    def key(self) -> str:
        """Stable across edits elsewhere in the file: no line number."""
        tail = f" #{self.occurrence}" if self.occurrence > 1 else ""
        return f"{self.module}.py::{self.function}: {self.desc}{tail}"

    def source(self, tree: ast.Module) -> str:
        return ast.unparse(ast.fix_missing_locations(_Mutator(self.index).visit(
            copy.deepcopy(tree))))


def mutants_of(module: str) -> Iterator[Mutant]:
    tree = ast.parse((RULES / f"{module}.py").read_text())
    collector = _Mutator()
    collector.visit(copy.deepcopy(tree))
    seen: dict[tuple[str, str], int] = {}
    for i, (line, function, desc) in enumerate(collector.found):
        n = seen[(function, desc)] = seen.get((function, desc), 0) + 1
        yield Mutant(module, i, line, function, desc, n)


def load_allowlist(path: Path) -> dict[str, str]:
    """`key ## reason` per line (` ## ` cannot occur in a key); # starts a comment line.
    Every entry must give a reason."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, reason = line.partition(" ## ")
        if not sep or not reason.strip():
            sys.exit(f"{path.name}:{n}: expected 'key ## reason', got {raw!r}")
        out[key.strip()] = reason.strip()
    return out


class Workspace:
    """A private copy of the tree for one worker; mutants are written only here."""

    def __init__(self, base: Path, n: int) -> None:
        self.root = base / f"w{n}"
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
        shutil.copytree(ROOT / "scorekeeper", self.root / "scorekeeper", ignore=ignore)
        shutil.copytree(ROOT / "tests", self.root / "tests", ignore=ignore)
        shutil.copy2(ROOT / "pyproject.toml", self.root / "pyproject.toml")
        # compiled files go to a private prefix; the mutated module's is removed around
        # each run (a same-size edit within the same second could otherwise be reused)
        self.pyc = self.root / ".pyc"
        self.env = {**os.environ, "PYTHONPATH": str(self.root),
                    "PYTHONPYCACHEPREFIX": str(self.pyc), "PYTHONHASHSEED": "0"}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)

    def _forget_compiled(self, module: str) -> None:
        for pyc in self.pyc.rglob(f"{module}.*.pyc"):
            if pyc.parent.name == "rules":
                pyc.unlink()

    def run(self, tests: list[str], timeout: float,
            procs: set[subprocess.Popen]) -> tuple[str, float]:
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "--hypothesis-seed=0", *tests]
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=self.root, env=self.env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        procs.add(proc)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return "timeout", time.monotonic() - start
        finally:
            procs.discard(proc)
        return ("survived" if code == 0 else "killed"), time.monotonic() - start

    def run_mutant(self, mutant: Mutant, tree: ast.Module, tests: list[str], timeout: float,
                   procs: set[subprocess.Popen]) -> tuple[str, float]:
        target = self.root / "scorekeeper" / "rules" / f"{mutant.module}.py"
        original = target.read_text()
        target.write_text(mutant.source(tree))
        self._forget_compiled(mutant.module)
        try:
            return self.run(tests, timeout, procs)
        finally:
            target.write_text(original)
            self._forget_compiled(mutant.module)


def test_files(patterns: list[str]) -> list[str]:
    out: list[str] = []
    for pattern in patterns:
        out += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern))
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", nargs="+", default=list(MODULES),
                    help="modules of scorekeeper/rules/ to mutate (default: %(default)s)")
    ap.add_argument("--tests", nargs="+", default=list(TESTS), help="test files (globs)")
    ap.add_argument("--all-tests", action="store_true",
                    help="also run the slow tests in SLOW (CLI refusals, one process each)")
    ap.add_argument("--workers", type=int, default=MAX_WORKERS, help="at most 2")
    ap.add_argument("--timeout", type=float, default=0,
                    help="seconds per mutant (default: 4 x the clean run, at least 30)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", help="run only mutants whose key contains this text")
    ap.add_argument("--json", type=Path, help="write every mutant's outcome here")
    return ap.parse_args(argv)


def report(results: dict[Mutant, tuple[str, float]], allow: dict[str, str],
           elapsed: float, full_run: bool) -> int:
    counts = {"killed": 0, "survived": 0, "timeout": 0, "equivalent": 0}
    survivors = []
    for m, (outcome, _) in sorted(results.items(), key=lambda kv: (kv[0].module, kv[0].index)):
        if outcome == "survived" and m.key in allow:
            outcome = "equivalent"
        counts[outcome] += 1
        if outcome == "survived":
            survivors.append(m)
    for m in survivors:
        print(f"SURVIVED scorekeeper/rules/{m.module}.py:{m.line}  {m.key}")
    stale = [k for k in allow if k not in {m.key for m in results}]
    total = len(results)
    behaviour = total - counts["equivalent"]
    dead = counts["killed"] + counts["timeout"]
    print(f"\n{total} mutants in {elapsed / 60:.1f} min: {counts['killed']} killed, "
          f"{counts['timeout']} timed out, {counts['survived']} survived, "
          f"{counts['equivalent']} listed equivalent")
    if total:
        print(f"raw score {dead}/{total} = {100 * dead / total:.1f} %; behaviour-changing "
              f"{dead}/{behaviour} = {100 * dead / max(behaviour, 1):.1f} %")
    if stale and full_run:
        print(f"note: {len(stale)} allowlist entries matched no mutant run this time")
    return 0 if not survivors else 1


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM: stop and clean up the same way as Ctrl-C


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    workers = max(1, min(args.workers, MAX_WORKERS))
    allow = load_allowlist(ALLOWLIST)
    trees = {m: ast.parse((RULES / f"{m}.py").read_text()) for m in args.modules}
    mutants = [mu for m in args.modules for mu in mutants_of(m)
               if not args.only or args.only in mu.key]
    if args.list:
        for mu in mutants:
            mark = "  [equivalent]" if mu.key in allow else ""
            print(f"scorekeeper/rules/{mu.module}.py:{mu.line}  {mu.key}{mark}")
        print(f"{len(mutants)} mutants")
        return 0
    tests = test_files(args.tests)
    n_files = len(tests)
    if not args.all_tests:
        tests += [f"--deselect={t}" for t in SLOW]
    procs: set[subprocess.Popen] = set()
    results: dict[Mutant, tuple[str, float]] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutate-rules-") as tmp:
        spaces = [Workspace(Path(tmp), n) for n in range(workers)]
        clean, took = spaces[0].run(tests, 600, procs)
        if clean != "survived":
            sys.exit("the rules tests fail on the unmutated code: fix that first")
        timeout = args.timeout or max(30.0, 4 * took)
        print(f"{len(mutants)} mutants, {n_files} test files, clean run {took:.1f} s, "
              f"timeout {timeout:.0f} s, {workers} worker(s)", flush=True)
        free = list(spaces)
        lock = threading.Lock()

        def one(mu: Mutant) -> tuple[str, float]:
            with lock:
                space = free.pop()
            try:
                return space.run_mutant(mu, trees[mu.module], tests, timeout, procs)
            finally:
                with lock:
                    free.append(space)

        pool = ThreadPoolExecutor(workers)
        try:
            futures = {pool.submit(one, mu): mu for mu in mutants}
            for n, fut in enumerate(as_completed(futures), 1):
                mu = futures[fut]
                results[mu] = fut.result()
                if results[mu][0] == "survived" and mu.key not in allow:
                    print(f"[{n}/{len(mutants)}] survived {mu.module}.py:{mu.line} {mu.desc}",
                          flush=True)
                elif n % 25 == 0:
                    print(f"[{n}/{len(mutants)}]", flush=True)
        except KeyboardInterrupt:
            print("\ninterrupted: stopping the running tests; the checkout was never changed")
            for fut in futures:
                fut.cancel()
            for proc in list(procs):
                os.killpg(proc.pid, signal.SIGKILL)
            pool.shutdown(wait=True, cancel_futures=True)
            return 130
        pool.shutdown(wait=True)
    if args.json:
        args.json.write_text(json.dumps(
            [{"key": m.key, "line": m.line, "outcome": o, "seconds": round(s, 2)}
             for m, (o, s) in sorted(results.items(), key=lambda kv: (kv[0].module,
                                                                      kv[0].index))],
            indent=1) + "\n")
    full = not args.only and set(args.modules) == set(MODULES)
    return report(results, allow, time.monotonic() - start, full)


if __name__ == "__main__":
    sys.exit(main())
