"""`corbeille web`: the web view's process (its own unit, corbeille-web.service).

It reads the configuration the box reads, follows the box's journal read-only, reads the
box's live channel, writes the addresses it serves on where the box shows them (both on
tmpfs: firmware/channel.py), and serves the pages with uvicorn, one process, one thread.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from firmware.channel import LiveReader, live_path, read_json, web_info_path, write_json
from firmware.feed import TableFeed
from firmware.web.network import page_urls

log = logging.getLogger("corbeille.web")

ADDRESSES_S = 10.0         # a box that got its address late (DHCP) shows it within this


def build(config):
    """The app for `config`: its hub (feed and live channel) and the Starlette app."""
    from firmware.web.app import Hub, create_app

    state = Path(config.state.dir)
    hub = Hub(TableFeed(state / "journal.sqlite"), LiveReader(live_path(state)), state, config.game.language)
    return hub, create_app(hub, tasks=[lambda: publish_addresses(config)])


async def publish_addresses(config) -> None:
    """Keep web.json (the URLs the box shows beside its QR codes) up to date."""
    path = web_info_path(config.state.dir)
    while True:
        urls = page_urls(config.web.host, config.web.port)
        if read_json(path) != urls:
            try:
                write_json(path, urls)
            except OSError as error:
                log.warning("cannot write %s: %s", path, error)
        await asyncio.sleep(ADDRESSES_S)


def serve(config) -> int:
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="corbeille-web: %(levelname)s %(message)s")
    hub, app = build(config)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            hub.stop()            # the streams end, so uvicorn's graceful stop does not wait for them
            super().handle_exit(sig, frame)

    log.info("serving the table on %s:%s, journal %s", config.web.host, config.web.port,
             Path(config.state.dir) / "journal.sqlite")
    Server(uvicorn.Config(app, host=config.web.host, port=config.web.port, log_level="warning", access_log=False,
                          lifespan="on")).run()
    return 0
