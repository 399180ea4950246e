"""This machine's own addresses and names: what the other phones at the table call it.

Found from the network interfaces (psutil) and the host name, without sending anything
over the network: no DNS or mDNS look-up is made. Only IPv4 addresses are offered, since
werkzeug's Host check cannot compare IPv6 literals (see ``companion.config``).
"""

from __future__ import annotations

import ipaddress
import socket
import sys

import psutil

#: Interfaces of virtual machines, containers and VPNs: their addresses are listed last,
#: since a phone on the Wi-Fi cannot reach them.
VIRTUAL_PREFIXES = ("docker", "br-", "virbr", "veth", "vmnet", "vboxnet", "tun", "tap", "zt")
#: The daemon that announces ``<hostname>.local`` on Linux (macOS always does).
MDNS_DAEMON = "avahi-daemon"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones can use: not loopback, not link-local,
    on an interface that is up; real interfaces first, in the system's order."""
    stats = psutil.net_if_stats()
    real: list[str] = []
    virtual: list[str] = []
    for interface, addresses in psutil.net_if_addrs().items():
        up = stats.get(interface)
        if up is not None and not up.isup:
            continue
        for address in addresses:
            if address.family != socket.AF_INET or not is_shareable(address.address):
                continue
            found = virtual if interface.startswith(VIRTUAL_PREFIXES) else real
            if address.address not in found:
                found.append(address.address)
    return real + virtual


def is_shareable(address: str) -> bool:
    """Whether another machine could reach this IPv4 address.

    >>> [is_shareable(a) for a in ("192.168.1.20", "127.0.0.1", "169.254.3.4", "0.0.0.0")]
    [True, False, False, False]
    """
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def host_names() -> list[str]:
    """The machine's host name and its ``.local`` name (lower case, as browsers send it)."""
    name = socket.gethostname().strip().lower().rstrip(".")
    if not name or name == "localhost":
        return []
    short = name.removesuffix(".local")
    return [short, f"{short}.local"]


def announces_local_name() -> bool:
    """Whether phones can reach ``<hostname>.local``: macOS always announces it; Linux does
    when avahi runs. Windows and the rest: not offered (the addresses still work)."""
    if sys.platform == "darwin":
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        return any(p.info["name"] == MDNS_DAEMON for p in psutil.process_iter(["name"]))
    except psutil.Error:
        return False


def own_names() -> list[str]:
    """Every name and address of this machine a phone on the local network may use."""
    return [*lan_addresses(), *host_names()]
