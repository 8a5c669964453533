"""`corbeille venue`: the venue's process (its own unit, corbeille-venue.service).

It subscribes to every table of the venue (`corbeille/<venue>/+/...`) with its read-only
account, keeps the board and the league (SQLite, in the state folder unless [venue] league
names a file) and serves the venue page with uvicorn, one process.
"""
from __future__ import annotations

import logging
from pathlib import Path

from firmware.mqtt_link import ROOT, Link

log = logging.getLogger("corbeille.venue")


def league_path(config) -> Path:
    return Path(config.venue.league) if config.venue.league else Path(config.state.dir) / "league.sqlite"


def build(config, link):
    """The hub and the app for `config`, fed by `link` (firmware/mqtt_link.py)."""
    from firmware.venue.app import VenueHub, create_app
    from firmware.venue.board import VenueBoard
    from firmware.venue.league import League

    v = config.venue
    link.subscribe(f"{ROOT}/{v.venue}/+/events")
    link.subscribe(f"{ROOT}/{v.venue}/+/state")
    hub = VenueHub(VenueBoard(v.venue, League(league_path(config))), link.messages, config.game.language)
    return hub, create_app(hub)


def serve(config) -> int:
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="corbeille-venue: %(levelname)s %(message)s")
    v = config.venue
    link = Link(v.broker, v.port, v.username or "venue", v.password, tls=v.tls, ca_file=v.ca_file,
                name=f"corbeille-venue-{v.venue}", keep_session=True)
    hub, app = build(config, link)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            hub.stopping = True
            super().handle_exit(sig, frame)

    log.info("venue %s from %s:%s, page on %s:%s, league %s", v.venue, v.broker, v.port, v.host, v.serve_port,
             league_path(config))
    try:
        Server(uvicorn.Config(app, host=v.host, port=v.serve_port, log_level="warning", access_log=False,
                              lifespan="on")).run()
    finally:
        link.close()
    return 0
