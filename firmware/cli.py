"""The `corbeille` command line."""
import argparse
import json
import sys

from engines.core.errors import CorbeilleError
from engines.core.files import MAX_BYTES, decode_text, keep_parsed_in, read_text


def state_json(game) -> dict:
    return game.snapshot()


def cmd_script(args) -> int:
    from firmware.script import run_script

    try:
        text = read_stdin() if args.file == "-" else read_text(args.file, "script", CorbeilleError)
    except CorbeilleError as error:
        print(f"corbeille: {error}", file=sys.stderr)
        return 1
    journal = game_id = None
    if args.journal:
        from firmware.journal import Journal

        journal = Journal(args.journal)

    def record(game, act):
        nonlocal game_id
        if journal is None:
            return
        if game_id is None:
            game_id = journal.new_game(game.header)
        if act is None:
            journal.undo(game_id)
        else:
            journal.append(game_id, act.to_json())

    try:
        game = run_script(text, args.file, on_action=record, lang=args.lang or "en")
    except CorbeilleError as error:
        print(f"corbeille: {error}", file=sys.stderr)
        return 1
    finally:
        if journal:
            journal.close()
    print(json.dumps(state_json(game), indent=2, ensure_ascii=False))
    return 0


def read_stdin() -> str:
    """A script on standard input, read as UTF-8 whatever the locale says and refused like
    a file that is not UTF-8."""
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise CorbeilleError(f"<stdin>: more than {MAX_BYTES} bytes is too big for a script")
    return decode_text(data, "<stdin>", "script", CorbeilleError)


def open_game(args):
    """(game id, header, recorded actions) of the game `export` or `replay` reads.
    The journal is only read (firmware/journal/reader.py): beside a running box, in a
    read-only folder, damaged (read through a salvaged copy) or of an older schema, the
    file stays exactly as it is; what the reader found damaged is said on stderr."""
    from firmware.journal.reader import JournalReader

    if args.journal is None:            # the box's own journal, from --config's state.dir
        args.journal = str(_config(args).state.dir / "journal.sqlite") if getattr(args, "config", None) \
            else default_journal()
    with JournalReader(args.journal) as reader:
        game_id = args.game if args.game is not None else reader.last_game()
        try:
            if game_id is None:
                raise CorbeilleError(f"{args.journal}: no game recorded")
            header, recorded = reader.header(game_id), reader.actions(game_id)
        finally:
            for message in reader.repairs:
                print(f"corbeille: {message}", file=sys.stderr)
    return game_id, header, recorded


def cmd_export(args) -> int:
    from engines import game_class
    from engines.registry import game_of
    from firmware.script import export_script

    from firmware.session import read_recording

    _, header, recorded = open_game(args)
    game_cls = game_class(game_of(header))
    # a game an earlier version recorded is written with the setting it replays under
    header, _, _, _ = read_recording(game_cls, header, recorded)
    actions = [game_cls.ACTIONS.from_json(a) for a in recorded]
    sys.stdout.write(export_script(header, actions))
    return 0


def cmd_replay(args) -> int:
    from engines import game_class
    from engines.registry import game_of

    from firmware.session import read_recording

    _, header, recorded = open_game(args)
    cls = game_class(game_of(header))
    _, game, _, problem = read_recording(cls, header, recorded)   # an earlier version's too
    if problem is not None:
        from firmware.script import said
        print(f"corbeille: {said(problem[1], args.lang or 'en')}", file=sys.stderr)
        return 1
    print(json.dumps(state_json(game), indent=2, ensure_ascii=False))
    return 0


def box_game(path) -> tuple[str, str]:
    """(game, how it was found) for a box file checked without `--game`: a box file does
    not say which game it is for, so the one game whose reading accepts it, else the first
    game (its mistakes are then said as that game reads them)."""
    from importlib import import_module

    from engines.registry import games

    fits = []
    for name, entry in games().items():
        try:
            import_module(entry.box).load_box(path)
        except CorbeilleError:
            continue
        fits.append(name)
    if len(fits) == 1:
        return fits[0], ("cli.box_fits_one", {})
    if fits:
        return fits[0], ("cli.box_fits", {"games": ", ".join(fits)})
    return next(iter(games())), ("cli.box_fits_none", {})


def cmd_box_check(args) -> int:
    """Check a box file against its game's declared schema, then as the game reads it (four
    players), and say what it holds."""
    from importlib import import_module

    from engines import game_class
    from engines.core.boxfile import describe
    from engines.core.i18n import text
    from engines.registry import names, spec

    name, found = args.game, None
    if name is None and args.file is not None and not args.schema:
        name, found = box_game(args.file)
    name = name or names()[0]
    loader = import_module(spec(name).box)
    if args.schema:
        print(f"The {name} box file's keys (engines/{name}/box.py):")
        print("\n".join(describe(loader.SCHEMA, "  ")))
        return 0
    if args.file is None:
        print("corbeille: box check: give the box file to check (or --schema)", file=sys.stderr)
        return 2
    from firmware.box_files import missing_line, summary
    from firmware.script import said
    from firmware.texts import t

    lang = args.lang or "en"
    read_as = "" if found is None else t("cli.box_read_as", lang, game=name, found=t(found[0], lang, **found[1]),
                                         games="|".join(names()))
    # Four players fit every game; the box file is the only thing under test.
    header = {"game": name, "players": ["A", "B", "C", "D"], "box": args.file}
    try:
        box = loader.load_box(args.file)
        game = game_class(name)(header)
    except CorbeilleError as error:
        print(f"corbeille: {said(error, lang)}{read_as}", file=sys.stderr)
        missing = missing_line(loader, args.file, lang)
        if missing:
            print(missing, file=sys.stderr)
        return 1
    companies = state_json(game).get("companies", {})
    held = t("cli.box_companies", lang, count=len(companies), companies=", ".join(companies)) if companies else ""
    print(t("cli.box_file", lang, path=str(args.file), game=text(f"ui.game.{spec(name).prefix}", lang)) + held + read_as)
    print("\n".join(summary(loader, box, lang) + loader.holdings(box, lang)))
    if box.verified:
        print("verified = true: the owner checked it against the physical copy")
    else:
        print("verified = false: not yet checked against the physical copy; the box asks the table "
              "to confirm it at setup")
    return 0


def cmd_box_learned(args) -> int:
    from firmware.box_files import cmd_box_learned as learned
    return learned(args, open_game)


def cmd_box_import(args) -> int:
    from firmware.box_files import cmd_box_import as imported
    return imported(args)


def cmd_settings(args) -> int:
    """Every registered game's own settings, as commented lines of the configuration's [game] table."""
    from firmware.config import game_settings_toml

    print(game_settings_toml(), end="")
    return 0


def cmd_salvage(args) -> int:
    """Copy what can be read of a damaged journal into a new journal file; FILE is left as it is."""
    import os
    import shutil
    import tempfile

    from firmware.journal import lock as journal_lock
    from firmware.journal.connection import write_fresh
    from firmware.journal.salvage import read_damaged

    source = args.file
    out = args.to or source + ".salvaged.sqlite"
    if not os.path.isfile(source):
        print(f"corbeille salvage: {source}: " + ("is a directory" if os.path.isdir(source) else "no such file"),
              file=sys.stderr)
        return 1
    held = journal_lock.holder(source)
    if held is not None:
        print(f"corbeille salvage: {source}: in use by {held.describe()}; salvage a journal once nothing "
              f"writes to it (the box repairs its own journal when it starts)", file=sys.stderr)
        return 1
    if os.path.lexists(out):
        print(f"corbeille salvage: {out} already exists; give another name with --to", file=sys.stderr)
        return 1
    # Read a copy: SQLite may write beside a file it opens (its -shm, a checkpoint of the
    # -wal), and the damaged file must stay exactly as it was found.
    with tempfile.TemporaryDirectory(prefix="corbeille-salvage-") as tmp:
        copy = os.path.join(tmp, "journal.sqlite")
        try:
            shutil.copyfile(source, copy)
            if os.path.isfile(source + "-wal"):
                shutil.copyfile(source + "-wal", copy + "-wal")
        except OSError as error:
            print(f"corbeille salvage: cannot read {source}: {error.strerror}", file=sys.stderr)
            return 1
        games, meta, notes = read_damaged(copy)
    if not games:
        print(f"corbeille salvage: nothing could be recovered from {source} (no game header whose "
              f"checksum verifies)", file=sys.stderr)
        for note in notes:
            print(f"  {note.replace(copy, source)}", file=sys.stderr)
        return 1
    try:
        write_fresh(out, games, meta)
    except Exception as error:  # noqa: BLE001 - sqlite3 or OS errors: one message
        print(f"corbeille salvage: cannot write {out}: {error}", file=sys.stderr)
        return 1
    _say_salvaged(games, [note.replace(copy, source) for note in notes], source, out)
    return 0


def _say_salvaged(games: dict, notes: list[str], source: str, out: str) -> None:
    """What `corbeille salvage` recovered, game by game, and how to use it."""
    actions = sum(len(g[2]) for g in games.values())
    print(f"salvaged {len(games)} games and {actions} actions from {source} into {out}")
    for game_id, (header, _, rows) in sorted(games.items()):
        try:
            head = json.loads(header)
        except ValueError:
            head = None
        head = head if isinstance(head, dict) else {}
        players = head.get("players") if isinstance(head.get("players"), list) else []
        print(f"  game {game_id}: {head.get('game', '?')}, {', '.join(map(str, players))}: "
              f"{len(rows)} actions")
    for note in notes:
        print(f"  {note}")
    print(f"Read it with `corbeille export --journal {out}`; to play on, stop the box and put it in "
          f"place of its journal.sqlite.")


def default_journal() -> str:
    import os

    base = os.environ.get("STATE_DIRECTORY") or os.path.join(
        os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "corbeille")
    return os.path.join(base, "journal.sqlite")


def _global_options(parser, suppress=False):
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument("--config", metavar="PATH", default=default,
                        help="configuration file (default: $CORBEILLE_CONFIG, /etc/corbeille/corbeille.toml, "
                             "~/.config/corbeille/corbeille.toml, else built-in defaults)")
    parser.add_argument("--lang", choices=("fr", "en"), default=default,
                        help="language of the screens (default: the configuration's game.language)")


def registry_names():
    from engines.registry import names
    return names()


def _box_commands(sub, common) -> None:
    """`corbeille box check|learned|import`: the owner's box files."""
    p = sub.add_parser("box", parents=[common], help="box files (the owner's physical copy)")
    box = p.add_subparsers(dest="box_command", required=True)
    p = box.add_parser("check", parents=[common], help="check a box file as a game reads it")
    p.add_argument("file", nargs="?", help="box file (TOML)")
    p.add_argument("--game", choices=registry_names(),
                   help="the game it describes (default: the one game whose box file it can be)")
    p.add_argument("--schema", action="store_true", help="print the keys the game's box file may hold")
    p.set_defaults(func=cmd_box_check)
    p = box.add_parser("learned", parents=[common],
                       help="print a recorded game's box file with what the table learned folded in (a new file)")
    p.add_argument("--journal", help="journal file (default: the configured state directory's)")
    p.add_argument("--game", type=int, help="game id (default: the last game)")
    p.add_argument("--out", metavar="FILE", help="write it to FILE instead of printing it")
    p.set_defaults(func=cmd_box_learned)
    p = box.add_parser("import", parents=[common], help="make a box file from a spreadsheet (CSV)")
    p.add_argument("file", help="the spreadsheet, saved as CSV (a template per game: engines/<game>/box/)")
    p.add_argument("--game", required=True, choices=registry_names(), help="the game it describes")
    p.add_argument("--out", metavar="FILE", help="write the box file to FILE instead of printing it")
    p.set_defaults(func=cmd_box_import)


def build_parser():
    parser = argparse.ArgumentParser(prog="corbeille", description="Electronic banker for stock-market board games")
    _global_options(parser)
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, suppress=True)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", parents=[common], help="run the box: hardware from the configuration")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("sim", parents=[common], help="the box on a desktop: terminal screen, keyboard for buttons")
    p.add_argument("--text", action="store_true", help="show screens as text even in a large terminal")
    p.add_argument("--state", metavar="DIR", help="keep the game journal in DIR (default: the configured state dir)")
    p.set_defaults(func=cmd_sim)
    p = sub.add_parser("selftest", parents=[common],
                       help="light each LED, buzz, draw a test pattern, report each button pressed")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to wait for button presses (default 30)")
    p.set_defaults(func=cmd_selftest)
    p = sub.add_parser("script", parents=[common], help="run a script in the command language and print the state as JSON")
    p.add_argument("file", help="script file, or - for standard input")
    p.add_argument("--journal", help="also record the game in this journal (SQLite file)")
    p.set_defaults(func=cmd_script)
    _box_commands(sub, common)
    p = sub.add_parser("settings", parents=[common],
                       help="print every game's own settings (the configuration's [game] keys) with defaults and allowed values")
    p.set_defaults(func=cmd_settings)
    for name, func, text in (("export", cmd_export, "print a recorded game in the command language"),
                             ("replay", cmd_replay, "replay a recorded game and print its state as JSON")):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("--journal", help="journal file (default: the configured state directory's, "
                                         f"without --config {default_journal()})")
        p.add_argument("--game", type=int, help="game id (default: the last game)")
        p.set_defaults(func=func)
    p = sub.add_parser("web", parents=[common],
                       help="serve the table's live web view (public page, a private page per seat) on the network")
    p.add_argument("--check", action="store_true",
                   help="only say whether the configuration enables it ([web] enabled): exit 0 if so, 1 if not")
    p.add_argument("--avahi-service", action="store_true",
                   help="print the Avahi service file announcing the page (systemd/install.sh installs it)")
    p.add_argument("--access-point", action="store_true",
                   help="print the nmcli command making the box's own Wi-Fi ([web] access_point, ap_ssid, ap_password)")
    p.set_defaults(func=cmd_web)
    p = sub.add_parser("publish", parents=[common],
                       help="publish the table's public events to the venue's MQTT broker ([venue], docs/venue.md)")
    p.add_argument("--check", action="store_true",
                   help="only say whether the configuration enables it ([venue] enabled): exit 0 if so, 1 if not")
    p.set_defaults(func=cmd_publish)
    p = sub.add_parser("venue", parents=[common],
                       help="serve the venue page (every table, the league) from the venue's MQTT broker")
    p.set_defaults(func=cmd_venue)
    p = sub.add_parser("salvage", parents=[common],
                       help="copy what can be read of a damaged journal into a new journal file")
    p.add_argument("file", help="the damaged journal (left unchanged)")
    p.add_argument("--to", metavar="PATH", help="the new journal (default: FILE.salvaged.sqlite)")
    p.set_defaults(func=cmd_salvage)
    return parser


def _config(args):
    from firmware.config import load_config

    return load_config(getattr(args, "config", None))


def cmd_run(args) -> int:
    import logging
    import queue
    import signal
    import time

    from drivers.events import InputEvent
    from firmware.app import start_app
    from firmware.notify import Notifier
    from firmware.parts import add_gpio_parts, build_hardware

    logging.basicConfig(level=logging.INFO, format="corbeille: %(levelname)s %(message)s")
    config = _config(args)
    keep_parsed_in(config.state.parsed)   # box files parsed once, not at every resume
    events = queue.Queue()
    quit_event = lambda *_: events.put(InputEvent("quit", "quit", time.monotonic()))
    signal.signal(signal.SIGTERM, quit_event)
    signal.signal(signal.SIGINT, quit_event)
    hardware = build_hardware(config, events, gpio=False)
    app = None
    try:
        app = start_app(config, hardware, queue=events, lang=getattr(args, "lang", None), notifier=Notifier())
        app.refresh()                      # the first frame (and READY=1), then the GPIO parts
        add_gpio_parts(hardware, config, events)
        return app.run()
    finally:
        hardware.close()
        if app is not None and app.journal is not None:
            app.journal.close()


def cmd_sim(args) -> int:
    from firmware.sim import run_sim, stdin_is_terminal

    if not stdin_is_terminal():
        print("corbeille sim: standard input is not a terminal. The simulation reads the keyboard: run "
              "it in a terminal window (e.g. `make run`). To play without a keyboard, use "
              "`corbeille script FILE` (a game in the command language).", file=sys.stderr)
        return 2
    config = _config(args)
    try:
        return run_sim(config, lang=getattr(args, "lang", None), text=args.text, state_dir=args.state)
    except KeyboardInterrupt:
        return 130


def cmd_web(args) -> int:
    config = _config(args)
    if args.check:
        from firmware.texts import t

        lang = getattr(args, "lang", None) or config.game.language
        where = config.source or t("cli.defaults", lang)
        print(t("cli.web_enabled" if config.web.enabled else "cli.web_disabled", lang, where=str(where)))
        return 0 if config.web.enabled else 1
    if args.avahi_service or args.access_point:
        import shlex

        from firmware.web.network import access_point_command, avahi_service
        print(avahi_service(config.web.port) if args.avahi_service
              else shlex.join(access_point_command(config.web.ap_ssid, config.web.ap_password)), end="")
        return 0
    from firmware.web.server import serve

    return serve(config)


def cmd_publish(args) -> int:
    config = _config(args)
    if args.check:
        where = config.source or "the built-in defaults"
        print(f"venue publishing {'enabled' if config.venue.enabled else 'disabled'} ([venue] enabled in {where})")
        return 0 if config.venue.enabled else 1
    from firmware.publish import serve

    return serve(config)


def cmd_venue(args) -> int:
    from firmware.venue.server import serve

    return serve(_config(args))


def cmd_selftest(args) -> int:
    import queue

    from firmware.parts import build_hardware
    from firmware.selftest import run_selftest

    config = _config(args)
    events = queue.Queue()
    hardware = build_hardware(config, events)
    try:
        seen = run_selftest(hardware, events, lang=getattr(args, "lang", None) or config.game.language,
                            duration=args.seconds)
    except KeyboardInterrupt:
        return 130
    finally:
        hardware.close()
    return 0 if all(ok for _, ok, _ in seen["results"]) else 1


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (CorbeilleError, ValueError, OSError) as error:
        # configuration mistakes (ValueError subclasses), a journal that cannot be opened...
        from firmware.script import said
        print(f"corbeille: {said(error, getattr(args, 'lang', None) or 'en')}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
