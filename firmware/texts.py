"""The box's own texts (firmware/locale/*.json), and small formatting helpers.

Every text the operator screen shows comes from a catalog: the engines' catalogs for
prompts, events, errors and every text naming one game (its menu labels, its screens), this
one ("ui.*" keys) for the box's own menus and screens, naming no game.
"""
from __future__ import annotations

from pathlib import Path

from engines.core.i18n import format_amount, register_catalog, text

LOCALE = Path(__file__).parent / "locale"
register_catalog(LOCALE)


def t(key: str, lang: str, **params) -> str:
    """A "ui.<key>" text of the box."""
    return text("ui." + key, lang, **params)


def lots_label(lots: int, shares: int, lang: str) -> str:
    return t("lots", lang, n=lots, shares=format_amount(lots * shares, lang))
