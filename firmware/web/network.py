"""How phones reach the box: its addresses, its mDNS name, its own Wi-Fi where there is none.

* The addresses of the web process's network interfaces, read from the kernel (no packet
  sent anywhere), and `<hostname>.local`, which Avahi (on Raspberry Pi OS) answers for; the
  installer also publishes the page as an Avahi service (`avahi_service`), so network
  browsers list it.
* Where the house has no Wi-Fi, the box's own access point: a NetworkManager profile
  (Bookworm's network stack) made by `nmcli` (`access_point_command`, run by
  systemd/install.sh), with the box as the network's router and DHCP server
  (ipv4.method shared). Phones join it by a Wi-Fi QR code (`wifi_qr`).
"""
from __future__ import annotations

import fcntl
import os
import socket
import struct

AP_CONNECTION = "corbeille-ap"
SIOCGIFADDR = 0x8915


def addresses() -> list[str]:
    """The IPv4 address of each network interface but the loopback, in the kernel's order."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in interfaces():
            if name == "lo":
                continue
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:          # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def interfaces() -> list[str]:
    """The network interfaces' names, from /sys (the web unit allows no netlink socket,
    which libc's if_nameindex needs)."""
    try:
        return sorted(os.listdir("/sys/class/net"))
    except OSError:
        return [name for _, name in socket.if_nameindex()]


def page_urls(host: str, port: int) -> dict:
    """What the box shows beside its QR codes: the URLs by address, and by mDNS name."""
    suffix = "" if port == 80 else f":{port}"
    if host in ("0.0.0.0", "::", ""):
        shown = addresses()
    else:
        shown = [host]
    return {"urls": [f"http://{address}{suffix}" for address in shown],
            "names": [f"http://{socket.gethostname()}.local{suffix}"]}


def access_point_command(ssid: str, password: str, interface: str = "wlan0") -> list[str]:
    """The `nmcli` command making the box's own access point (NetworkManager's profile
    AP_CONNECTION): 2.4 GHz, every phone's band; the box is the router and DHCP server."""
    command = ["nmcli", "connection", "add", "type", "wifi", "ifname", interface, "con-name", AP_CONNECTION,
               "autoconnect", "yes", "ssid", ssid, "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
               "ipv4.method", "shared", "ipv6.method", "disabled"]
    if password:
        command += ["wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
                    "wifi-sec.psk", password]
    return command


def wifi_qr(ssid: str, password: str) -> str:
    """The Wi-Fi QR code's text phones join a network by (the ZXing "WIFI:" form)."""
    def escape(value: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in value)

    if not password:
        return f"WIFI:T:nopass;S:{escape(ssid)};;"
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def avahi_service(port: int) -> str:
    """/etc/avahi/services/corbeille.service: the page announced on the local network."""
    return f"""<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Corbeille's live web view (docs/web.md), installed by systemd/install.sh -->
<service-group>
  <name replace-wildcards="yes">Corbeille on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>{port}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""
