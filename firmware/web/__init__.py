"""The table's live web view: `corbeille web`, a read-only HTTP server beside the box
(docs/web.md). `table` (what a game's adapter gives its board as), `views` and `charts`
build the pages from the public feed (firmware/feed.py) and need no web library; `app`
(Starlette) and `server` (uvicorn) are imported by `corbeille web` only."""
