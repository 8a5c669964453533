"""The quotation board's pages: the game's own (as many as its adapter lays out for the
board's size) and, once the game is over, the end-of-game report's before them; turned at
their pace, drawn only when what they show changed."""
from __future__ import annotations

from firmware.games import adapter_of
from firmware.render import clock_strip, render_screen


class BoardPages:
    """The board's page now (`page`), turned every `board_page_s` (`report_page_s` while the
    report is shown)."""

    def __init__(self, board_page_s: float, report_page_s: float):
        self.board_page_s, self.report_page_s = board_page_s, report_page_s
        self.page = 0
        self.pages = 1                       # how many there are, known once the board is first drawn
        self.next_page = None                # when it turns next (None: one page)
        self._report = (None, [])            # (game, version, language, board), the report's pages drawn for it
        self._last = None                    # what the board shows now

    @property
    def report(self) -> list:
        """The report's pages now shown (none while the game is played)."""
        return self._report[1]

    def redraw(self) -> None:
        """Draw the page at the next refresh even if nothing changed (a page chosen by hand)."""
        self._last = None

    def turn(self, now: float) -> None:
        if self.pages <= 1:
            return
        pace = self.report_page_s if self._report[1] else self.board_page_s
        if self.next_page is None:
            self.next_page = now + pace
        elif now >= self.next_page:
            self.page = (self.page + 1) % self.pages
            self.next_page = now + pace

    def refresh(self, board, controller, screen) -> None:
        """Draw the page now on `board`, when it changed; `screen`: the operator's."""
        session = controller.session
        if board is None or session is None:
            return
        if screen is not None and screen.kind == "qr":
            # A QR code shown from the menu (Téléphones) is drawn large on the board too:
            # read from anywhere at the table.
            if self._last != ("qr", screen):
                board.show(render_screen(screen, board.size, board.mode))
                self._last = ("qr", screen)
            return
        # During a seat clock the board's bottom row says what is sold, who leads and, on
        # a board that can redraw every second (not e-ink), the seconds left.
        clock = controller.seat_clock.board_line(getattr(board, "every_second", True))
        key = (session.game_id, session.version, controller.lang, self.page, clock)
        if key == self._last:
            return
        ui = adapter_of(session)
        box = session.game.box
        report = self._report_pages(session, board, controller.lang)
        pages = len(report) + ui.board_pages(box, board.size)
        if pages != self.pages:
            self.pages, self.page = pages, self.page % pages
        if self.page < len(report):
            image = report[self.page]
        else:
            image = ui.render_board(session.public_snapshot(), box, board.size, board.mode, controller.lang,
                                    self.page - len(report))
        board.show(clock_strip(image, clock) if clock else image)
        self._last = key

    def _report_pages(self, session, board, lang) -> list:
        """Once the game is over, the end-of-game report drawn for the board (its fortunes
        and prices charts, firmware.report.board_pages), shown before the game's own final
        board; drawn once per game position, language and board. Nothing while it is played."""
        if not session.over:
            self._report = (None, [])
            return []
        key = (session.game_id, session.version, lang, tuple(board.size), board.mode)
        if self._report[0] != key:
            from firmware.report import board_pages

            prices, fortunes = session.evening()
            _, box = adapter_of(session).report(session, lang)
            self._report = (key, board_pages(board.size, board.mode, lang, prices, fortunes, box=box))
        return self._report[1]
