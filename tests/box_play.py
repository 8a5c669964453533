"""Helper module (no tests): the whole box under random play (tests/firmware/test_box_play.py).

`BoxPlay(tmp_path, case, seed)` builds the simulated box of tests/e2e_box.py (the real loop,
controller, screens, journal and renderers on gpiozero's MockFactory pins, a manual clock,
a quotation board), answers the setup screens from "Nouvelle partie" as the case says
(the game, its format, the number of players, their names, the settings chosen in the
Options), then presses keys and seat buttons at random, short and long, lets time pass for
the clocks, and now and then restarts the box on the same journal. Every frame the loop
draws is checked (`Checks`):

* no exception: the loop runs in strict mode;
* no catalog key, unformatted field or protocol id on the operator screen or the board
  (screen_texts.raw);
* every text of a French screen or board is made of the French catalogs' templates, but
  the names the game prints itself (screen_texts.PRINTED) and the players' names;
* the journal, read by a second, read-only connection as a replay would, gives the state
  the screens are drawn from;
* money and shares are conserved (`CONSERVED`: what the game's rules keep constant).

A failure says the case and the seed, and the last presses: `BoxPlay` is pinned by (case,
seed), and plays the same presses on every run.
"""
from __future__ import annotations

import os
import random
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import lru_cache
from unittest import mock

from drivers.display import PngDisplay
from e2e_box import E2EBox, journal_script
from engines import game_class
from engines.registry import game_of, spec
from firmware import render
from firmware.games import adapter
from firmware.journal.reader import JournalReader
from firmware.screens.setup import number_steps, options, setup_ui
from firmware.texts import t
from screen_texts import catalogs, raw

# ------------------------------------------------------------------ declarations
# The names a screen shows as the game prints them, not from a catalog (docs/firmware.md,
# "French texts"): what the box file names, in its own words. Nothing else is exempt.
PRINTED = {
    # the companies by their tickers and names, the sectors as the board names them
    "maxibourse": lambda box: [*box.companies, *(c.name for c in box.companies.values()),
                               *(name for sector in box.sectors for name in sector.name.values())],
    # the companies of the chart, by id and name
    "dividends": lambda box: [*box.companies, *(c.name for c in box.companies.values())],
    # the titles (shops and firms) as the cards print them
    "avendre": lambda box: [title.name for title in box.titles.values()] if box is not None else [],
    # nothing: the companies are the colours, named by the catalog
    "shark": lambda box: [],
    # the productions, countries and titles as the plaques and title cards print them
    "richesses": lambda box: [*(p.name for p in box.productions.values()),
                              *(name for name, _ in box.countries.values()), *map(box.title_name, box.titles)],
}

# What the rules keep constant in a game, whatever is played, corrected or undone.
CONSERVED = {
    "maxibourse": lambda g: (g.s.ledger.total(), {c: sum(held.values()) for c, held in g.s.lots.held.items()}),
    "dividends": lambda g: (g.s.ledger.total(), {c: sum(g.s.certs.held[c].values()) for c in g.companies},
                            g.s.draw_pile + g.s.discard + sum(g.s.hands)),
    "avendre": lambda g: (g.s.ledger.total(), len(g.s.deeds.items)),
    "shark": lambda g: (g.s.ledger.total(),
                        {c: g.stock(c) + sum(g.s.shares.of(c, s) for s in range(len(g.players))) for c in g.s.values}),
    "richesses": lambda g: (g.s.ledger.total(), len(g.s.deeds.items), g.s.joker_stock + sum(g.s.jokers)),
}

# Where a play's state folder goes: in memory when there is a tmpfs (the journal is the box's
# own, but the card under it is not what random play is about: tests/journal is).
IN_MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
SEATS = 6             # seat buttons wired; players beyond them are answered for by the operator
BOARD = (128, 64)     # the paged quotation board: every page of every game drawn in turn


@dataclass(frozen=True)
class Case:
    """One way to set a game up on the box, then `presses` random presses."""
    game: str
    players: int = 3
    settings: dict = field(default_factory=dict)   # chosen in the setup's Options
    config: dict = field(default_factory=dict)     # the configuration's [game] table (a text setting)
    format: str | None = None                      # the rulebook's format, when it has several
    names: str = "colours"                         # colours or numbers
    rounds: int = 0                                # Maxi Bourse's agreed rounds (0: no limit)
    box: str | None = None    # a box file of the owner's: the game is created by a script, then played
    presses: int = 400

    def __str__(self):
        said = [self.game, f"{self.players} players", self.format or "", self.names,
                f"rounds {self.rounds}" if self.rounds else "", f"box {self.box}" if self.box else "",
                " ".join(f"{k}={v}" for k, v in {**self.config, **self.settings}.items())]
        return ", ".join(x for x in said if x)


# ------------------------------------------------------------------ the checks
class Checks:
    """What every frame the loop draws must hold (see the module's docstring)."""

    def __init__(self, play):
        self.play = play
        self.printed = {}             # (game, box) -> the names PRINTED declares for them
        self.replayed = None          # (game id, rows replayed, their game, what it conserves) of the read-only journal
        self.reader = None
        self.seen = None              # (session, version) the journal was last checked at
        self.frames = 0

    def expect(self, holds, what):
        assert holds, self.play.failure(what)

    def close(self):
        if self.reader is not None:
            self.reader.close()
            self.reader = None

    def names(self):
        """The players' names the screens may show: the game's, the setup's proposals."""
        c = self.play.box.c
        return _names(c.lang, tuple(c.session.players) if c.session is not None else ())

    def texts_of(self, lang):
        c = self.play.box.c
        if c.stack and c.stack[0]["t"] == "setup":     # the game chosen so far, with the box file it reads
            name, box = setup_ui(c.stack[0].v).name, c.setup.default_box()
        else:
            name, box = c.session.game.name, c.session.game.box
        if (name, id(box)) not in self.printed:       # a box file is read once per game
            self.printed[(name, id(box))] = frozenset(PRINTED[name](box))
        return catalogs(lang, self.printed[(name, id(box))], self.names())

    def frame(self):
        """Every operator frame: its texts, then the journal and the conservation."""
        self.frames += 1
        app = self.play.box.app
        screen = app._last_screen
        items = () if screen.kind == "grid" else screen.items        # a grid's items are its map
        shown = [screen.title, *screen.lines, *(str(i) for i in items), screen.footer, screen.status]
        self.texts(shown, "screen")
        self.journal()

    def board(self, texts):
        """The board's texts: no key nor protocol id (its columns cut names to fit, and
        abbreviate: its words are not held to the catalogs)."""
        self.texts(texts, "board", words=False)

    def texts(self, shown, where, words=True):
        c = self.play.box.c
        for text in shown:
            found = raw(text)
            self.expect(not found, f"{where} shows {found} in {text!r}")
        if words and c.lang == "fr":
            catalogs = self.texts_of("fr")
            for text in shown:
                foreign = catalogs.foreign(text)
                self.expect(not foreign, f"{where} shows {foreign} in {text!r}: no French catalog says it")

    def journal(self):
        """The journal as a replay reads it gives the game the screens are drawn from, and
        the game keeps what its rules conserve."""
        session = self.play.box.c.session
        if session is None or session.game_id is None or self.seen == (session, session.version):
            return
        self.seen = (session, session.version)
        if self.reader is None:
            self.reader = JournalReader(self.play.journal_path)
        game_id = session.game_id
        rows = self.reader.actions(game_id)
        if self.replayed is None or self.replayed[0] != game_id or rows[:len(self.replayed[1])] != self.replayed[1]:
            header = self.reader.header(game_id)
            fresh = game_class(game_of(header))(header)
            self.replayed = (game_id, [], fresh, CONSERVED[fresh.name](fresh))   # what it conserves, taken before play
        _, done, replay, conserved = self.replayed
        for row in rows[len(done):]:
            replay.apply(replay.ACTIONS.from_json(row))
            done.append(row)
        game = session.game
        shown = f"the journal replays to another state than the one shown ({len(rows)} rows, {len(game.log)} actions)"
        self.expect(replay.snapshot() == session.snapshot(), shown)   # what the screens and board are drawn from
        kept = CONSERVED[game.name](game)
        self.expect(kept == conserved, f"{game.name}: money or shares not conserved: {kept} != {conserved}")


@lru_cache(maxsize=None)
def _names(lang, players):
    """The setup's proposals in `lang` and the game's `players`: one set for every frame that shows them."""
    proposed = set(t("setup.colour_names", lang).split()) | {t("setup.player_n", lang, n=i) for i in range(1, 13)}
    return frozenset(proposed | set(players))


class BoardTexts:
    """The texts the board's renderer draws (render.Canvas), while the loop draws the board."""

    def __init__(self):
        self.on = False
        self.texts = []
        self.fitted = {}

    def patches(self):
        canvas = render.Canvas
        draw_text, fit, columns = canvas.text, canvas.fit, canvas.columns
        spy = self

        def text(c, x, y, shown, *args, **kwargs):
            if spy.on:
                spy.texts.append(spy.fitted.get(shown, shown))
            return draw_text(c, x, y, shown, *args, **kwargs)

        def fitting(c, shown, *args, **kwargs):
            out = fit(c, shown, *args, **kwargs)
            if spy.on:
                spy.fitted[out] = shown
            return out

        def column(c, x0, x1, y, shown, *args, **kwargs):
            if spy.on:
                spy.texts.append(shown)
                spy.on = False            # its parts are drawn by `text`: the line is the text
                try:
                    return columns(c, x0, x1, y, shown, *args, **kwargs)
                finally:
                    spy.on = True
            return columns(c, x0, x1, y, shown, *args, **kwargs)

        return [mock.patch.object(canvas, "text", text), mock.patch.object(canvas, "fit", fitting),
                mock.patch.object(canvas, "columns", column)]


# ------------------------------------------------------------------ the player
class BoxPlay:
    """The box set up as `case` says, then played at random from `seed`."""

    def __init__(self, tmp_path, case: Case, seed: int):
        self.tmp_path, self.case, self.seed = tmp_path, case, seed
        self.rng = random.Random(f"{case}-{seed}")
        self.journal_path = tmp_path / "state" / "journal.sqlite"
        self.pressed: list[str] = []
        self.checks = Checks(self)
        self.spy = BoardTexts()
        self.stack = ExitStack()
        self.box = None
        self.config = None            # the box's, built at its first start

    def __enter__(self):
        for patch in self.spy.patches():
            self.stack.enter_context(patch)
        return self

    def __exit__(self, *exc):
        self.close()
        self.stack.close()

    def failure(self, what):
        return f"{what}\n  case: {self.case}\n  seed: {self.seed}\n  last presses: {' '.join(self.pressed[-25:])}"

    # ------------------------------------------------------------- the box
    def start(self):
        """A box on the journal of this play (a fresh one: the setup screen)."""
        board = PngDisplay(BOARD, "1", name="board", keep=1)
        self.box = E2EBox(self.tmp_path, seats=min(SEATS, self.case.players), board=board,
                          extra={"game": dict(self.case.config)}, config=self.config)
        self.config = self.box.config
        app = self.box.app
        refresh_board = app.board_pages.refresh

        def drawing_board(*args):
            self.spy.on, self.spy.texts, self.spy.fitted = True, [], {}
            try:
                refresh_board(*args)
            finally:
                self.spy.on = False
            if self.spy.texts:
                self.checks.board(self.spy.texts)

        app.board_pages.refresh = drawing_board
        app.on_frame = self.checks.frame
        self.checks.frame()
        return self.box

    def close(self):
        self.checks.close()
        self.close_box()

    def close_box(self):
        if self.box is not None:
            self.box.close()
            self.box = None

    def restart(self):
        """The plug pulled and put back: a new loop on the same journal (the checks' reader
        stays open beside it, as the web view's does across a restart of the box)."""
        before = self.box.game.snapshot() if self.box.c.session is not None else None
        self.close_box()
        self.start()
        if before is not None:
            assert self.box.game.snapshot() == before, self.failure("the game after a restart is not the one before")

    # ------------------------------------------------------------- setup
    def setup(self):
        """From "Nouvelle partie" to the game, every answer given on the setup screens (a
        game on an owner's box file is created by a script: the setup reads the shipped one)."""
        case = self.case
        if case.box is not None:
            names = [t("setup.player_n", "fr", n=i) for i in range(1, case.players + 1)]
            script = [f"game {case.game}", f"box {case.box}", f"players {' '.join(names)}", "seed 1"]
            script += [f"format {case.format}"] * bool(case.format)
            agreed = {**case.settings, **({"rounds": case.rounds} if case.rounds else {})}
            script += [f"set {k} {v}" for k, v in agreed.items()]
            journal_script(self.tmp_path, "\n".join(script) + "\n")
            return self.start()
        self.start()
        ui = adapter(case.game)
        self.answer("game", case.game)
        if ui.choices("fr"):
            self.answer("format", case.format or spec(case.game).formats[0])
        self.answer("count", case.players)
        self.answer("names", case.names)
        if ui.rounds:
            self.answer("rounds", case.rounds)
        if self.step() == "box":
            self.answer("box", self.rng.choice(("continue", "confirm")))
        if case.settings:
            self.answer("summary", "#options")
            for key, value in case.settings.items():
                self.option(key, value)
            self.answer("options", "#done")
        self.answer("summary", True)
        assert self.box.c.session is not None and self.box.game.name == case.game, self.failure("no game created")
        return self.box

    def setup_frame(self):
        return self.box.c.stack[0]

    def step(self):
        return self.setup_frame().question(self.box.c)[0]

    def answer(self, step, value):
        """Down to the setup's item of `value` at `step`, then OK."""
        frame = self.setup_frame()
        now, _, _, items = frame.question(self.box.c)
        assert now == step, self.failure(f"the setup asks {now}, not {step}")
        values = [v for _, v in items]
        assert value in values, self.failure(f"{value!r} not offered at {step}: {values}")
        while frame.sel % len(items) != values.index(value):
            self.press("down")
        self.press("ok")

    def option(self, key, value):
        """A setting set in the Options: OK steps a list to `value`, a number is entered."""
        frame, c = self.setup_frame(), self.box.c
        allowed = options(self.case.game)[key]
        self.answer_in_place("options", key)
        if isinstance(allowed, range):
            steps = number_steps(allowed)
            while frame.amt != value:
                if abs(value - frame.amt) < steps[min(frame.si, len(steps) - 1)]:
                    self.press("down", long=True)      # a smaller step
                else:
                    self.press("up" if frame.amt < value else "down")
            self.press("ok")
            return
        for _ in allowed[1:]:
            if frame.settings(c)[key] == value:
                return
            self.press("ok")
        assert frame.settings(c)[key] == value, self.failure(f"{key} = {value!r} cannot be set in the Options")

    def answer_in_place(self, step, value):
        """Down to the item of `value` at `step`, selected (OK is the caller's)."""
        frame = self.setup_frame()
        _, _, _, items = frame.question(self.box.c)
        values = [v for _, v in items]
        while frame.sel % len(items) != values.index(value):
            self.press("down")
        if isinstance(options(self.case.game)[value], range):
            self.press("ok")                # the number entry opens

    # ------------------------------------------------------------- presses
    def press(self, name, long=False):
        self.pressed.append(("long " if long else "") + name)
        if long:
            self.box.long(name)
        else:
            self.box.press(name)

    def seat(self):
        """A seat to press: one lit (asked, bidding) most of the time."""
        lit = sorted(self.box.c.seats.lit()) if self.box.c.session is not None else []
        seats = min(SEATS, self.case.players)
        if lit and self.rng.random() < 0.8:
            return f"seat{self.rng.choice([s for s in lit if s < seats] or [0]) + 1}"
        return f"seat{self.rng.randrange(seats) + 1}"

    def step_at_random(self):
        rng, box = self.rng, self.box
        roll = rng.random()
        if box.c.stack and box.c.stack[-1]["t"] == "newgame" and roll < 0.9:
            self.press("back")          # a new game now and then, not whenever the menu wraps to it
        elif roll < 0.40:
            self.press("ok")
        elif roll < 0.55:
            self.press("down")
        elif roll < 0.63:
            self.press("up")
        elif roll < 0.68:
            self.press("back")
        elif roll < 0.80:
            self.press(self.seat())
        elif roll < 0.84:
            seat = self.seat()
            held = rng.choice((0.5, 1.5, 3.0))
            self.pressed.append(f"hold {seat} {held}s")
            number = int(seat[4:])
            box.hold(number).wait(held).release(number)
        elif roll < 0.91:
            seconds = rng.choice((0.7, 2.5, 8.0))
            self.pressed.append(f"wait {seconds}s")
            box.wait(seconds)
        elif roll < 0.985:
            self.press(rng.choice(("ok", "back", "up", "down", "ok", "back", self.seat())), long=True)
        else:
            self.pressed.append("restart")
            self.restart()

    def play(self):
        """The case's presses at random; returns the box (for the test's own looks)."""
        for _ in range(self.case.presses):
            self.step_at_random()
        return self.box
