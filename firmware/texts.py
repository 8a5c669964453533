"""The box's own texts (firmware/locale/*.json), and small formatting helpers.

Every text the operator screen shows comes from a catalog: the engines' catalogs for
prompts, events, errors and every text naming one game (its menu labels, its screens), this
one ("ui.*" keys) for the box's own menus and screens, naming no game.
"""
from __future__ import annotations

from pathlib import Path

from engines.core.i18n import catalog, format_amount, register_catalog, text

LOCALE = Path(__file__).parent / "locale"
register_catalog(LOCALE)


def t(key: str, lang: str, **params) -> str:
    """A "ui.<key>" text of the box."""
    return text("ui." + key, lang, **params)


def money(amount: int | str, lang: str, prefix: str = "") -> str:
    """An amount (or an already signed one, "+1 000") in the game's money: its catalog's
    `ui.<prefix>money` when it has one (A Vendre!'s "1 200.—", Shark's "1 000 FT", as their
    rulebooks write them), else the box's `ui.money` ("1 200 $")."""
    shown = amount if isinstance(amount, str) else format_amount(amount, lang)
    key = f"{prefix}money" if prefix and f"ui.{prefix}money" in catalog(lang) else "money"
    return t(key, lang, amount=shown)


def signed(value: int, lang: str) -> str:
    return ("+" if value > 0 else "-" if value < 0 else "") + format_amount(abs(value), lang)


def lots_label(lots: int, shares: int, lang: str) -> str:
    return t("lots", lang, n=lots, shares=format_amount(lots * shares, lang))
