"""The league: finished games' rankings across evenings, kept in SQLite at the venue.

One row per player of each finished game (table, game key), written in one short
transaction when the table's state says the game is over; an undo that reopens the game
takes its rows out again. A player counts by the card they tapped (a hash the box sends,
never the card's number) or else by the name entered at setup; the names the box gives
players who entered none (colours, J1...) say nothing about who played and are left out.
The standings are per game (Maxi Bourse, Dividends...): games played, wins, mean rank.
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    tbl TEXT NOT NULL, game TEXT NOT NULL, game_name TEXT NOT NULL, finished REAL NOT NULL,
    player TEXT NOT NULL, identity TEXT NOT NULL, rank INTEGER NOT NULL, players INTEGER NOT NULL,
    PRIMARY KEY (tbl, game, identity)
)
"""


class League:
    def __init__(self, path, clock=time.time):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # One thread uses it at a time (the venue's event loop); made in another (the
        # process's start, a test), so SQLite's same-thread check is off.
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(SCHEMA)
        self.clock = clock

    def record(self, table: str, state: dict) -> None:
        """The finished game of `table` (its public state), its earlier rows replaced."""
        players = {p["name"]: p for p in state["players"] if isinstance(p, dict) and isinstance(p.get("name"), str)}
        rows = []
        for rank, name in state["ranking"]:
            p = players.get(name)
            if p is None or type(rank) is not int:
                raise ValueError(f"ranking names {name!r}, not a player of the game")
            identity = identity_of(p)
            if identity is not None:
                rows.append((table, state["game"], str(state.get("name", "")), name, identity, rank, len(players)))
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            old = self.db.execute("SELECT MIN(finished) FROM results WHERE tbl=? AND game=?",
                                  (table, state["game"])).fetchone()[0]
            self.db.execute("DELETE FROM results WHERE tbl=? AND game=?", (table, state["game"]))
            self.db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                [(t, g, n, old or self.clock(), who, i, r, c) for t, g, n, who, i, r, c in rows])

    def forget(self, table: str, game: str) -> None:
        if self.db.execute("SELECT 1 FROM results WHERE tbl=? AND game=? LIMIT 1", (table, game)).fetchone():
            self.db.execute("DELETE FROM results WHERE tbl=? AND game=?", (table, game))

    def standings(self) -> dict[str, list[dict]]:
        """game name -> its players, best first: {player, played, wins, mean_rank}."""
        out: dict[str, list[dict]] = {}
        rows = self.db.execute(
            "SELECT game_name, identity, COUNT(*), SUM(rank = 1), AVG(rank), "
            "(SELECT player FROM results r2 WHERE r2.identity = r.identity ORDER BY finished DESC LIMIT 1) "
            "FROM results r GROUP BY game_name, identity ORDER BY game_name, SUM(rank = 1) DESC, AVG(rank), 6")
        for game_name, _, played, wins, mean, player in rows:
            out.setdefault(game_name, []).append({"player": player, "played": played, "wins": wins,
                                                  "mean_rank": round(mean, 2)})
        return out

    def games(self) -> int:
        return self.db.execute("SELECT COUNT(DISTINCT tbl || ' ' || game) FROM results").fetchone()[0]

    def close(self) -> None:
        self.db.close()


def identity_of(player: dict) -> str | None:
    """Who a player is for the league: their card, else their own name; None for a name
    the box gave (a colour, J1...)."""
    card = player.get("card")
    if isinstance(card, str) and card:
        return "card:" + card
    if player.get("default") is False:
        return "name:" + player["name"].lower()
    return None
