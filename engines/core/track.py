"""A track of squares in board order with pawns moved by the dice (A Vendre!, Richesses du
Monde).

Squares are numbered 1..length; 0 is off the board, before square 1 (where A Vendre!'s
pawns start). A *linear* track ends on its last square: points past it are lost (A Vendre!
AV8: 57 + 4 stops at 60). A *circular* track goes on from its last square to square 1,
crossing the start arrow: each crossing is a lap (Richesses du Monde's world tours, RM8).
What a square does is the game's rule; the track only says where pawns go and what they
pass on the way, the same for every game with a board of squares.
"""
from __future__ import annotations

from dataclasses import field

from engines.core.records import record


@record(frozen=True)
class Move:
    seat: int
    start: int
    end: int
    passed: tuple     # every square entered on the way, the last one included
    laps: int         # start arrows crossed (circular tracks)


@record
class Track:
    length: int
    circular: bool
    positions: list = field(default_factory=list)   # seat -> square (0: off the board)
    laps: list = field(default_factory=list)        # seat -> start arrows crossed so far

    @classmethod
    def new(cls, length: int, players: int, circular: bool, start: int = 0) -> "Track":
        if length < 2 or not 0 <= start <= length:
            raise ValueError(f"a track of {length} squares cannot start pawns on {start}")
        return cls(length, circular, [start] * players, [0] * players)

    def at_end(self, seat: int) -> bool:
        """The pawn stands on the last square of a linear track."""
        return not self.circular and self.positions[seat] == self.length

    def move(self, seat: int, steps: int) -> Move:
        """Move a pawn `steps` squares forward (a die's points)."""
        if steps < 0:
            raise ValueError(f"a pawn moves forward; {steps} steps")
        start = square = self.positions[seat]
        passed, laps = [], 0
        for _ in range(steps):
            if not self.circular and square == self.length:
                break                                   # points past the end are lost
            if self.circular and square == self.length:
                square, laps = 1, laps + 1
            else:
                square += 1
            passed.append(square)
        self.positions[seat] = square
        self.laps[seat] += laps
        return Move(seat, start, square, tuple(passed), laps)

    def jump(self, seat: int, square: int, *, crossing_start: bool = False) -> Move:
        """Put a pawn on `square` (a card, a restart): no square passed on the way; a jump
        forward across the start arrow of a circular track counts a lap only when the game
        says so (`crossing_start`)."""
        if not 0 <= square <= self.length:
            raise ValueError(f"square {square} is not on a track of {self.length}")
        start = self.positions[seat]
        laps = 1 if crossing_start and self.circular else 0
        self.positions[seat] = square
        self.laps[seat] += laps
        return Move(seat, start, square, (), laps)
