"""Which addresses the table's phones can open the page at.

The server binds every interface by default, but a phone needs one of this machine's
network addresses: 127.0.0.1 (or a page opened as localhost) leads other phones nowhere.
`serve` prints these addresses and `GET /api/addresses` gives them to the page, whose Share
QR code offers them instead of a loopback address.
"""

from __future__ import annotations

import ipaddress
import logging
import socket

log = logging.getLogger(__name__)

ALL_INTERFACES = {"", "0.0.0.0", "::"}


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _routed_ip() -> str | None:
    """The address the kernel would send from to reach the network, if it has a route.

    Connecting a UDP socket sends nothing; it only asks which local address would be used.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError as exc:  # no route out: no network yet (reach_note says so)
        log.info("no LAN address (%s)", exc)
        return None


def _host_ips() -> list[str]:
    """The IPv4 addresses this machine's name resolves to (a second network, say)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def _usable(ip: str) -> bool:
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return not (addr.is_loopback or addr.is_link_local or addr.is_unspecified)


def lan_addresses(host: str) -> list[str]:
    """The addresses phones can use, best first: the host itself if the server is bound to
    one (none if that is loopback), else this machine's network addresses."""
    if host not in ALL_INTERFACES:
        return [] if is_loopback(host) else [host.strip("[]")]
    found = [ip for ip in (_routed_ip(), *_host_ips()) if ip and _usable(ip)]
    return list(dict.fromkeys(found))


def lan_ip(host: str) -> str:
    """The one address to show: the host if specific, else the best LAN address, else
    127.0.0.1 (and `reach_note` says why phones cannot use it)."""
    if host not in ALL_INTERFACES:
        return host
    found = lan_addresses(host)
    return found[0] if found else "127.0.0.1"


def url_for(ip: str, port: int, tls: bool = False) -> str:
    """The page's address; `tls`: the server speaks HTTPS (Settings.tls)."""
    scheme = "https" if tls else "http"
    return f"{scheme}://[{ip}]:{port}/" if ":" in ip else f"{scheme}://{ip}:{port}/"


def base_url(host: str, port: int, tls: bool = False) -> str:
    return url_for(lan_ip(host), port, tls)


def phone_urls(host: str, port: int, tls: bool = False) -> list[str]:
    """Every address a phone on this machine's networks can open the page at."""
    return [url_for(ip, port, tls) for ip in lan_addresses(host)]


def reach_note(host: str, shown_ip: str) -> str | None:
    """Why phones cannot open the address, when they cannot (else None).

    A server bound to loopback answers this machine only, and one whose LAN address could
    not be found shows 127.0.0.1: either way the QR code would lead a phone nowhere.
    """
    if is_loopback(host):
        return (f"Note: bound to {host}, this machine only: phones cannot open it. To let "
                "the table's phones in: make run ARGS='--host 0.0.0.0'")
    if host in ALL_INTERFACES and is_loopback(shown_ip):
        return ("Note: this machine has no network address yet: phones can open the page once "
                "it joins the table's Wi-Fi (the address above is this machine's own)")
    return None
