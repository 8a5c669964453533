"""The operator's corrections in Shark, at any time until the game is over (then: undo the
end first), for the players still in: an eliminated player holds nothing and is never
liquidated (SH9), so cash or shares given to him would stay outside the game.

Besides the players' cash and whose turn it is (engines/core/corrections.py), a player's
shares of a company, from (+) or to (-) the bank's stock of 40 (SH1), within what is there.

With the grid, the map: a building put on a free cell (`put_building`: taken from its colour's
supply of 18, SH7), taken off (`remove_building`: back to the supply) or moved to a free cell
(`move_building`); the counts follow, and every value follows the map by SH2, with no bonus and
no payment (the table settles what the wrong building did with cash corrections). A building
never touches another colour (SH6: the smaller chain goes at once), so neither does a
corrected one. Not while a
building is being placed (its colour and legal cells come from the map): place it or undo the
roll first. Without the grid (SH11) the operator enters the values, and corrects one with
`set_value` (the buildings counted stay as they are). The buildings a colour has used
(`set_used`: on the map and removed for good, SH7) are corrected on their own, at least
those on the map.
"""
from engines.core.actions import Cell, cell_text
from engines.core.corrections import Correction, tell_correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record
from engines.shark import board
from engines.shark.rules import BUILDINGS, COMPANIES, MAX_VALUE, SHARES


@record(frozen=True)
class Shares(Correction):
    kind = "adjust_shares"

    def option(self, game, seats):
        return shares_option(game, seats)

    def refusal(self, game, a):
        if a.delta > game.stock(a.company):
            return IllegalAction("error.sh.stock", company=a.company, shares=a.delta, stock=game.stock(a.company))
        if -a.delta > game.shares(a.company, a.player):
            return IllegalAction("error.sh.not_held", player=game.players[a.player], company=a.company,
                                 shares=-a.delta, held=game.shares(a.company, a.player))
        return None

    def apply(self, game, a):
        if a.delta:
            src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
            game.move_shares(a.company, src, dst, abs(a.delta), "correction")
        tell_correction(game, a.player, a.company, a.delta, a.reason)


@per_game
def shares_option(game, seats):
    return Option("adjust_shares", {"player": Choice(seats), "company": Choice(COMPANIES),
                                    "delta": IntRange(-SHARES, SHARES)})


class MapCorrection(Correction):
    """What the map's corrections share: refused while a building is being placed; after
    one, the values follow the map (SH2)."""

    def refusal(self, game, a):
        if getattr(game.step, "phase", None) in ("colour", "place"):
            return IllegalAction("error.sh.map_placing", player=game.players[game.step.seat])
        return self.cells_refusal(game, a)

    def cells_refusal(self, game, a):
        raise NotImplementedError

    def revalue(self, game, a, what, delta):
        grid = game.grid
        game.set_values({c: board.value_of(grid, c, game.settings["variant1"]) for c in COMPANIES})
        tell_correction(game, None, what, delta, a.reason)


def taken(game, cell):
    if game.grid.free(tuple(cell)):
        return IllegalAction("error.sh.cell_empty", cell=cell_text(cell))
    return None


def free(game, cell, company, leaving=None):
    """Why a building of `company` cannot stand on `cell` (the one on `leaving` moving there):
    the cell is taken, or it touches another colour, which a board never shows (SH6: the
    smaller chain is removed at once)."""
    grid, cell = game.grid, tuple(cell)
    if not grid.free(cell):
        return IllegalAction("error.sh.cell_taken", cell=cell_text(cell), company=game.s.pieces[cell])
    for near in grid.neighbours(cell):
        other = game.s.pieces.get(near)
        if other not in (None, company) and near != leaving:
            return IllegalAction("error.sh.cell_touches", cell=cell_text(cell), company=company, other=other)
    return None


@record(frozen=True)
class PutBuilding(MapCorrection):
    kind = "put_building"

    def option(self, game, seats):
        return None if game.box is None else put_option(game)

    def cells_refusal(self, game, a):
        if game.s.used[a.company] >= BUILDINGS:
            return IllegalAction("error.sh.supply", company=a.company, used=game.s.used[a.company])
        return free(game, a.cell, a.company)

    def apply(self, game, a):
        game.s.pieces[tuple(a.cell)] = a.company
        game.s.used[a.company] += 1
        game.s.on_board[a.company] += 1
        self.revalue(game, a, a.company, "+" + cell_text(a.cell))


@record(frozen=True)
class RemoveBuilding(MapCorrection):
    kind = "remove_building"

    def option(self, game, seats):
        return None if game.box is None else cell_option(game, "remove_building")

    def cells_refusal(self, game, a):
        return taken(game, a.cell)

    def apply(self, game, a):
        company = game.s.pieces.pop(tuple(a.cell))
        game.s.used[company] -= 1
        game.s.on_board[company] -= 1
        self.revalue(game, a, company, "-" + cell_text(a.cell))


@record(frozen=True)
class MoveBuilding(MapCorrection):
    kind = "move_building"

    def option(self, game, seats):
        return None if game.box is None else move_option(game)

    def cells_refusal(self, game, a):
        return taken(game, a.cell) or free(game, a.to, game.s.pieces[tuple(a.cell)], tuple(a.cell))

    def apply(self, game, a):
        company = game.s.pieces.pop(tuple(a.cell))
        game.s.pieces[tuple(a.to)] = company
        self.revalue(game, a, company, f"{cell_text(a.cell)}>{cell_text(a.to)}")


@record(frozen=True)
class Value(MapCorrection):
    """Without the grid: a colour's value as the table's board shows it."""
    kind = "set_value"

    def option(self, game, seats):
        return value_option(game) if game.box is None else None

    def cells_refusal(self, game, a):
        if a.value == 0 and game.s.on_board[a.company]:
            return IllegalAction("error.sh.value_buildings", company=a.company, buildings=game.s.on_board[a.company])
        return None

    def apply(self, game, a):
        game.set_values({**game.s.values, a.company: a.value})
        tell_correction(game, None, a.company, a.value, a.reason)


@record(frozen=True)
class Used(Correction):
    """The buildings of a colour taken from its supply: those on the map and those removed
    for good (SH7), which a game entered under way has no other way to count."""
    kind = "set_used"

    def option(self, game, seats):
        return USED

    def refusal(self, game, a):
        if a.company in COMPANIES and a.used < game.s.on_board[a.company]:
            return IllegalAction("error.sh.used_on_board", company=a.company, used=a.used,
                                 buildings=game.s.on_board[a.company])
        return None

    def apply(self, game, a):
        game.s.used[a.company] = a.used
        tell_correction(game, None, a.company, f"{a.used}/{BUILDINGS}", a.reason)


USED = Option("set_used", {"company": Choice(COMPANIES), "used": IntRange(0, BUILDINGS)})


def map_cells(game):
    return Choice(tuple(Cell(c) for c in sorted(game.box.zones)))


@per_game
def put_option(game):
    return Option("put_building", {"cell": map_cells(game), "company": Choice(COMPANIES)})


@per_game
def cell_option(game, kind):
    return Option(kind, {"cell": map_cells(game)})


@per_game
def move_option(game):
    return Option("move_building", {"cell": map_cells(game), "to": map_cells(game)})


@per_game
def value_option(game):
    return Option("set_value", {"company": Choice(COMPANIES), "value": IntRange(0, MAX_VALUE)})
