"""Téléphones (Menu): the QR codes that open the web view on a phone or a TV.

The list offers the table's public page, each player's private page and, when the box has
its own access point, its Wi-Fi; OK shows that one's QR code with the address beside it (a
`qr` screen: firmware/render.py draws the code two pixels a module on the 128x64 screen).
A seat's link holds its token for this game (firmware/tokens.py). The web process says
where it can be reached (its `web.json`, firmware/channel.py): the box itself has no
network. Nothing here is saved across a restart: it is a look, not a step of the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware import tokens
from firmware.channel import read_json, web_info_path
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.overlays import Message
from firmware.texts import t


class PhoneLinks:
    """The links the box shows, from its state folder and the configuration's [web]."""

    def __init__(self, state_dir, web):
        self.state_dir, self.web = Path(state_dir), web

    def served(self) -> dict | None:
        """{"urls": [...], "names": [...]} where the web process serves, None when it does not."""
        info = read_json(web_info_path(self.state_dir))
        return info if isinstance(info, dict) and info.get("urls") else None

    def link(self, base: str, session, seat: int | None) -> str:
        """A page's URL. In capitals (the scheme, an address or a .local name and the token
        read the same): all of it fits a QR code's alphanumeric mode, a smaller code."""
        if seat is None:
            return base.upper() + "/"
        secret = tokens.read_secret(self.state_dir)
        return f"{base}/S/{tokens.seat_token(secret, session.game_id, session.game.header, seat)}".upper()

    def wifi(self) -> str | None:
        if not self.web.access_point:
            return None
        from firmware.web.network import wifi_qr
        return wifi_qr(self.web.ap_ssid, self.web.ap_password)


@frame_type("phones")
@dataclass
class Phones(Frame):
    """The table, each player, the box's Wi-Fi: OK shows its QR code."""
    saved = False
    sel: int = 0

    def items(self, ctl):
        items = [(t("phones.table", ctl.lang), None)]
        items += [(name, seat) for seat, name in enumerate(ctl.session.players)]
        if ctl.phones.wifi() is not None:
            items.append((t("phones.wifi", ctl.lang), "wifi"))
        return items

    def key(self, ctl, key):
        items = self.items(ctl)
        if key == "back":
            ctl.stack.pop()
        elif self.move(key, len(items)) or key != "ok":
            return
        else:
            label, target = items[self.sel % len(items)]
            ctl.stack.append(code_frame(ctl, label, target))

    def draw(self, ctl):
        items = tuple(label for label, _ in self.items(ctl))
        return Screen("menu", t("menu.phones", ctl.lang), (), items, self.sel % len(items), ctl.kit.footer("menu"))


def code_frame(ctl, label: str, target):
    """The QR frame for the table (None), a seat, or the Wi-Fi; a message when the web
    view does not serve (yet)."""
    links = ctl.phones
    if target == "wifi":
        return PhoneCode(label, links.wifi(), [links.web.ap_ssid])
    served = links.served()
    if served is None:
        return Message(label, [t("phones.waiting" if links.web.enabled else "phones.off", ctl.lang)])
    base = served["urls"][0]
    shown = [url.split("//", 1)[-1] for url in served["urls"][:1] + served.get("names", [])[:1]]
    return PhoneCode(label, links.link(base, ctl.session, target), shown)


@frame_type("phone_code")
@dataclass
class PhoneCode(Frame):
    """A QR code and what it opens, until OK or Back."""
    saved = False
    label: str = ""
    code: str = ""
    lines: tuple = ()

    def key(self, ctl, key):
        if key in ("ok", "back"):
            ctl.stack.pop()

    def draw(self, ctl):
        return Screen("qr", self.label, tuple(self.lines), (self.code,), 0, ctl.kit.footer("close"))
