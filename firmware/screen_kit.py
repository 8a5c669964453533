"""The screens' kit: what every screen derives from the controller's pending decision and
language, built once per position (`memo`) or per game (`kind_label`) instead of on every
press, and the small texts they share (the footer, the title, the decision's params, whose
turn it is). A part of `firmware.controller.Controller` (its `kit`): the screens reach the
controller's shared helpers here, through its public state."""
from __future__ import annotations

from engines.core.i18n import text
from firmware.menus import Ctx, kind_label
from firmware.texts import t


class ScreenKit:
    """The shared helpers of `ctl`'s screens."""

    def __init__(self, ctl):
        self.ctl = ctl
        self._memo_key, self._memo_values = None, {}  # see memo
        self._labels_key, self._labels = None, {}     # see kind_label

    @property
    def ctx(self) -> Ctx:
        ctl = self.ctl
        return self.memo("ctx", lambda: Ctx(ctl.session, ctl.lang,
                                             ctl.defaults.dice == "device" or self._header_dice() == "device"))

    def memo(self, name: str, build):
        """`build()`, kept while the game stays at the same position in the same language:
        what the screens derive from the decision alone (the context, the square menu's
        entries, its title) is built once per position instead of on every press: rebuilding
        them would be most of a menu move's time (docs/performance.md)."""
        session = self.ctl.session
        key = (session, session.version if session is not None else None, self.ctl.lang)
        if key != self._memo_key:
            self._memo_key, self._memo_values = key, {}
        values = self._memo_values
        if name not in values:
            values[name] = build()
        return values[name]

    def kind_label(self, kind: str) -> str:
        """An action kind's menu label: the same for the whole game in one language (kept
        while the game and the language stay; the square menu lists a dozen after each action)."""
        # Not a `memo` entry: `memo` forgets everything when the position changes, and
        # these labels are worth keeping exactly across that change (the square menu's
        # entries, memoised per position, are rebuilt after each action from them). One store
        # for both would make `memo` take a lifetime (position or game); the same pattern with
        # the key of the other lifetime.
        key = (self.ctl.session, self.ctl.lang)
        if key != self._labels_key:
            self._labels_key, self._labels = key, {}
        label = self._labels.get(kind)
        if label is None:
            label = self._labels[kind] = kind_label(self.ctx, kind)
        return label

    def _header_dice(self):
        if self.ctl.session is None:
            return None
        return self.ctl.session.game.header.get("settings", {}).get("dice")

    def footer(self, key):
        return t("footer." + key, self.ctl.lang)

    def title(self):
        def build():
            d = self.ctl.session.decision()
            return text("ui.title." + d.prompt.removeprefix("prompt."), self.ctl.lang, **self.params(d.params))
        return self.memo("title", build)

    def params(self, params):
        """The pending decision's params as texts use them, with what its interaction adds
        for the texts only (`text`: derived from the state, no part of it; a value named in
        words for a param the decision gives as an id)."""
        out = {}
        extra = self.ctl.session.decision().interaction.params.get("text", {})
        for k, v in {**params, **extra}.items():
            if isinstance(v, list):
                out[k] = ", ".join(str(x) for x in v)
            else:
                out[k] = v
        return out

    def whose(self):
        d = self.ctl.session.decision()
        return self.ctl.session.players[d.actor] if d.actor is not None else ""
