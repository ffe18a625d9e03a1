"""A flood that re-opens every socket the server closes: how fast is a new phone let in?

A flood of more sockets than the server has places, each one the server closes (evicted,
refused, reset) opened again at once and each failed connect tried again at once, from
`--addresses` loopback addresses (127.0.0.2, …), keeps more connections coming than the
server accepts: the kernel's accept queue overflows and a new phone's SYN is dropped (it
tries again a second later). The flood opens its sockets without blocking, so it never
waits on a dropped SYN itself. Each mode floods for `--seconds` while a new phone
(127.0.0.99) asks `/api/health` on a new connection every 0.1 s; the modes take turns for
`--rounds`, so the machine's other load falls on each alike:

- idle: no flood, for the machine's own latency at the time;
- off: the flood, nothing in its way;
- nft: the flood, deploy/scorekeeper.nft loaded for the server's port (needs root and
  nft; the rules are removed after each turn, and at exit whatever happens);
  nft=RATE/BURST: the same with another limit per address; nft+drop (or
  nft=RATE/BURST+drop): a SYN over the limit dropped, not answered with a reset.

Printed per turn, counted while the phone asks (after `--warm-s` of flood): the phone's
p50/p99/max and failures, the kernel's ListenOverflows and ListenDrops counters' growth
(/proc/net/netstat: the whole machine's), the flood's connects and re-opens a second, and
the server's CPU (of one core, and per connect let through), and the phone's time split in
two: its connect (the kernel's handshake: over a second only if a SYN was dropped) and the
answer after it (the server's loop accepting, reading and answering).

`--pin`: the server (every thread) and the phone on one core, the flood in a process of its
own on the other, so the flood's re-opens no longer take the server's CPU or the phone's
interpreter lock: the nearest two cores come to a flood sent from another machine (the
kernel's work for a connect still falls on the core of whoever sends it). With
`--server-nice` as well, the phone gets the server's nice value (the flood keeps 0): on a
machine busy with other work, both ahead of it, as on a Pi that runs only the server.

    sudo .venv/bin/python benchmarks/bench_reopen.py [--connections 1100] [--addresses 20]
        [--seconds 15] [--warm-s 3] [--rounds 2] [--modes idle,off,nft] [--shape heads]
        [--server-nice -10] [--pin]
"""

from __future__ import annotations

import argparse
import errno
import multiprocessing
import os
import re
import selectors
import shutil
import socket
import statistics
import subprocess
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from bench_flood import SHAPES, flood_target, timed_health
from spawn import ServerProcess

RULES = Path(__file__).resolve().parent.parent / "deploy/scorekeeper.nft"
TABLE = "inet scorekeeper"


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) a process has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def listen_counters() -> dict[str, int]:
    """The kernel's ListenOverflows and ListenDrops (TcpExt in /proc/net/netstat)."""
    lines = [line.split() for line in Path("/proc/net/netstat").read_text().splitlines()
             if line.startswith("TcpExt:")]
    values = dict(zip(lines[0][1:], lines[1][1:], strict=True))
    return {key: int(values[key]) for key in ("ListenOverflows", "ListenDrops")}


def pin_process(pid: int, cpu: int) -> None:
    """Every thread of process `pid` onto core `cpu` (threads it starts later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(ProcessLookupError):
            os.sched_setaffinity(int(task.name), {cpu})


class Flood:
    """`n` sockets from `addresses` addresses, each re-opened the moment it ends: in a thread
    of this process, or (`cpu` given) in a process of its own on core `cpu`."""

    def __init__(self, port: int, n: int, addresses: int, shape: str,
                 cpu: int | None = None) -> None:
        self.port, self.opening = port, SHAPES[shape][0]
        self.sources = [f"127.0.0.{2 + i % addresses}" for i in range(n)]
        self.cpu = cpu
        fork = multiprocessing.get_context("fork")
        # connects, re-opens: shared with the flood's process when it has one
        self.counts = fork.RawArray("q", 2) if cpu is not None else [0, 0]
        self.stop: threading.Event | Any = fork.Event() if cpu is not None \
            else threading.Event()
        self.runner: threading.Thread | Any = (
            fork.Process(target=self._run) if cpu is not None
            else threading.Thread(target=self._run))

    @property
    def connects(self) -> int:
        return int(self.counts[0])

    @property
    def reopens(self) -> int:
        return int(self.counts[1])

    @property
    def pid(self) -> int | None:
        """The flood's own process, if it has one."""
        return getattr(self.runner, "pid", None)

    def _open(self, source: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            code = sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            return
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            return
        self.selector.register(sock, selectors.EVENT_WRITE, source)

    def _run(self) -> None:
        if self.cpu is not None:
            os.sched_setaffinity(0, {self.cpu})
            os.setpriority(os.PRIO_PROCESS, 0, 0)  # not the phone's nice (main)
        self.selector = selectors.DefaultSelector()
        counts = self.counts
        for source in self.sources:
            self._open(source)
        while not self.stop.is_set():
            for key, events in self.selector.select(0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if events & selectors.EVENT_WRITE:  # the connect ended
                    if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                        with suppress(OSError):
                            sock.send(self.opening)
                            counts[0] += 1
                            self.selector.modify(sock, selectors.EVENT_READ, key.data)
                            continue
                else:
                    got = b""
                    with suppress(OSError):
                        got = sock.recv(65536)
                    if got:
                        continue  # an answer on a socket kept open
                self.selector.unregister(sock)
                sock.close()
                counts[1] += 1
                self._open(key.data)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()

    def __enter__(self) -> Flood:
        self.runner.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.runner.join()


def p50_99_max(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    return (statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))],
            times[-1])


def probe(url: str, seconds: float) -> str:
    """bench_flood.probe (a new connection every 0.1 s), its time also split in two."""
    took: list[tuple[float, float]] = []
    failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        timed = timed_health(url)
        if timed is None:
            failures += 1
        else:
            took.append(timed)
        time.sleep(0.1)
    if not took:
        return f"health: no answer ({failures} failures)"
    whole = p50_99_max([a + b for a, b in took])
    connect = p50_99_max([a for a, _ in took])
    answer = p50_99_max([b for _, b in took])
    return (f"health p50 {whole[0]:.1f} ms, p99 {whole[1]:.1f} ms, max {whole[2]:.1f} ms, "
            f"{failures} failed of {len(took) + failures}\n"
            f"  connect p50/p99/max {connect[0]:.1f}/{connect[1]:.1f}/{connect[2]:.1f} ms, "
            f"answer {answer[0]:.1f}/{answer[1]:.1f}/{answer[2]:.1f} ms")


def rules_for(port: int, limit: str = "") -> str:
    """deploy/scorekeeper.nft with the server's port, as deploy/install.sh writes it, and
    `limit` ("RATE/BURST", "+drop": a SYN over it dropped, not reset) if given."""
    text = re.sub(r"(?m)^define port = .*$", f"define port = {port}", RULES.read_text())
    limit, drop, _ = limit.partition("+drop")
    if drop:
        text = text.replace("} reject with tcp reset\n", "} drop\n")
    if limit:
        rate, burst = limit.split("/")
        text = re.sub(r"limit rate over \d+/second burst \d+ packets",
                      f"limit rate over {int(rate)}/second burst {int(burst)} packets", text)
    return text


def nft(*args: str, text: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["nft", *args], input=text, capture_output=True, text=True)


def unload_rules() -> None:
    nft("delete", "table", *TABLE.split())


def can_load_rules() -> str | None:
    """Why the nft mode cannot run here, or None."""
    if shutil.which("nft") is None:
        return "nft is not installed (apt-get install nftables)"
    done = nft("-c", "-f", "-", text=rules_for(8000))
    if done.returncode != 0:
        return f"nft -c refuses the rules: {done.stderr.strip()}"
    done = nft("add", "table", "inet", "scorekeeper_probe")
    if done.returncode != 0:
        return f"cannot load rules here (root with CAP_NET_ADMIN?): {done.stderr.strip()}"
    nft("delete", "table", "inet", "scorekeeper_probe")
    return None


def two_cores() -> tuple[int, int]:
    """The first two cores this process may run on: the server's and the flood's."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--pin needs two cores")
    return cores[0], cores[1]


def turn(mode: str, server: ServerProcess, args: argparse.Namespace) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    rules = mode.startswith("nft")
    if rules:
        done = nft("-f", "-", text=rules_for(port, mode.partition("=")[2] or mode[3:]))
        assert done.returncode == 0, done.stderr
    try:
        with Flood(port, args.connections if mode != "idle" else 0, args.addresses,
                   args.shape, cpu=args.cores[1] if args.cores else None) as flood:
            time.sleep(args.warm_s)  # past the flood's first wave and its SYNs' first retry
            before, began, cpu = listen_counters(), time.monotonic(), cpu_s(server.pid)
            flood_cpu = cpu_s(flood.pid) if flood.pid else 0.0
            connects, reopens = flood.connects, flood.reopens
            line = probe(server.url, args.seconds)
            took, cpu = time.monotonic() - began, cpu_s(server.pid) - cpu
            flood_cpu = cpu_s(flood.pid) - flood_cpu if flood.pid else 0.0
            after = listen_counters()
            connects, reopens = flood.connects - connects, flood.reopens - reopens
    finally:
        if rules:
            unload_rules()
    grown = ", ".join(f"{key} +{after[key] - before[key]}" for key in after)
    own = f", the flood's {flood_cpu / took:.0%}" if flood.pid else ""
    print(f"{mode}: {line}\n  {grown}; flood {connects / took:.0f} connects/s, "
          f"{reopens / took:.0f} re-opens/s; server CPU {cpu / took:.0%} of a core{own}, "
          f"{cpu * 1000 / max(connects, 1):.1f} ms a connect; load {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--file-limit", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warm-s", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--modes", default="idle,off,nft")
    parser.add_argument("--shape", default="heads", choices=sorted(SHAPES))
    parser.add_argument("--server-nice", type=int, default=0,
                        help="the server's nice value (below 0 needs root): the server "
                             "ahead of the flood's own CPU, as when the flood is elsewhere")
    parser.add_argument("--pin", action="store_true",
                        help="the server and the phone on one core, the flood in its own "
                             "process on another")
    args = parser.parse_args()
    args.cores = two_cores() if args.pin else None  # before this process is pinned
    modes = args.modes.split(",")
    if any(mode.startswith("nft") for mode in modes) and (why := can_load_rules()):
        print(f"nft modes left out: {why}")
        modes = [mode for mode in modes if not mode.startswith("nft")]
    with flood_target(args.connections, args.file_limit) as server:
        if args.server_nice:
            os.setpriority(os.PRIO_PROCESS, server.pid, args.server_nice)
        if args.cores:
            pin_process(server.pid, args.cores[0])
            os.sched_setaffinity(0, {args.cores[0]})  # the phone; the flood moves itself
            if args.server_nice:  # the phone, the instrument, no later than the server
                os.setpriority(os.PRIO_PROCESS, 0, args.server_nice)
        try:
            print(f"flood: {args.connections} {args.shape} from {args.addresses} addresses, "
                  f"re-opened at once; file limit {args.file_limit}"
                  f"{'; server and phone on one core, the flood on another' if args.pin else ''}")
            for _ in range(args.rounds):
                for mode in modes:
                    turn(mode, server, args)
                    time.sleep(2)  # the flood's sockets closed
        finally:
            if any(mode.startswith("nft") for mode in modes):
                unload_rules()

if __name__ == "__main__":
    main()
