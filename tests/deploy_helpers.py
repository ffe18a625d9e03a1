"""Shared by the deploy tests (no tests here): the systemd units' checks and install.sh run
on a fake root with a stub pip (tests/test_deploy.py for a table, test_club_sync_deploy.py
for the club server)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
EXEC = "/opt/scorekeeper/venv/bin/scorekeeper"  # where the units run the installed command

# Stands in for the venv's pip: logs its arguments; "installing" the package makes the
# repository importable in the venv (so install.sh's config check really runs); "ncnn"
# becomes importable when SK_PIP_NCNN=1; SK_PIP_FAIL=1 fails as pip does offline.
STUB_PIP = """#!{python}
import os, sys
from pathlib import Path
with open(os.environ["SK_PIP_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
if os.environ.get("SK_PIP_FAIL") == "1":
    print("WARNING: Retrying (Retry(total=0)) after connection broken by 'NewConnectionError"
          "(<pip._vendor.urllib3.connection.HTTPSConnection>: Failed to establish a new "
          "connection: [Errno -3] Temporary failure in name resolution')': /simple/fastapi/")
    print("ERROR: No matching distribution found for fastapi>=0.115", file=sys.stderr)
    sys.exit(1)
site = next(Path(os.environ["SK_VENV"]).glob("lib/python3*/site-packages"))
if any(a.endswith("/src") or "/src[" in a for a in sys.argv):
    (site / "stub.pth").write_text(os.environ["SK_PIP_PATHS"])
if "ncnn" in sys.argv:
    if os.environ.get("SK_PIP_NCNN") != "1":
        sys.exit("stub pip: no ncnn wheel here")
    (site / "ncnn.py").write_text("")
"""


def mode(path: Path) -> int:
    """A file's permission bits (0o644...)."""
    return stat.S_IMODE(path.stat().st_mode)


def unit_lines(unit: Path) -> set[str]:
    """A unit file's settings, one a line, stripped; comments and blank lines left out."""
    return {line.strip() for line in unit.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def verify_unit(unit: Path, tmp_path: Path) -> None:
    """`systemd-analyze verify` of `unit` (a copy, ExecStart pointed at an executable that
    exists here) finds nothing to say about it; skipped without systemd-analyze."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed (apt-get install systemd)")
    stub = tmp_path / "scorekeeper"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace(EXEC, str(stub)))
    done = subprocess.run(["systemd-analyze", "verify", str(copy)],
                          capture_output=True, text=True)
    complaints = [line for line in (done.stdout + done.stderr).splitlines()
                  if "scorekeeper" in line]
    assert done.returncode == 0 and not complaints, "\n".join(complaints) or done.stderr


def install(root: Path, *args: str, src: Path = ROOT, ncnn: bool = False,
            script: str = "install.sh", pip_fails: bool = False,
            import_installed: bool = False) -> subprocess.CompletedProcess[str]:
    """Run a deploy script on a fake root with the stub pip; `import_installed` makes the
    venv import the installed copy of the code (else this repository)."""
    pip = root.parent / "pip"
    if not pip.exists():
        pip.write_text(STUB_PIP.format(python=sys.executable))
        pip.chmod(0o755)
    site = next(p for p in sys.path if p.endswith("site-packages"))
    env = {**os.environ, "SCOREKEEPER_ROOT": str(root), "SCOREKEEPER_SRC": str(src),
           "SCOREKEEPER_PIP": str(pip), "SCOREKEEPER_PYTHON": sys.executable,
           "SK_PIP_LOG": str(root.parent / "pip.log"), "SK_PIP_NCNN": "1" if ncnn else "0",
           "SK_VENV": str(root / "opt/scorekeeper/venv"), "SK_PIP_FAIL": "1" if pip_fails else "",
           "SK_PIP_PATHS": f"{root / 'opt/scorekeeper/src' if import_installed else ROOT}\n"
                           f"{site}\n"}
    env.pop("SCOREKEEPER_CONFIG", None)
    return subprocess.run(["bash", str(DEPLOY / script), *args], env=env, cwd=root.parent,
                          capture_output=True, text=True, timeout=120)
