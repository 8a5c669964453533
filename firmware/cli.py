"""The `corbeille` command line."""
import argparse
import json
import sys

from engines.core.errors import CorbeilleError, worded
from engines.core.files import MAX_BYTES, decode_text, keep_parsed_in, read_text


def state_json(game) -> dict:
    return game.snapshot()


def cmd_script(args) -> int:
    from firmware.script import run_script, said

    lang = args.lang or "en"
    try:
        text = read_stdin() if args.file == "-" else read_text(args.file, "script", CorbeilleError)
    except CorbeilleError as error:
        print(f"corbeille: {said(error, lang)}", file=sys.stderr)
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
        game = run_script(text, args.file, on_action=record, lang=lang)
    except CorbeilleError as error:
        print(f"corbeille: {said(error, lang)}", file=sys.stderr)
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
        raise worded(CorbeilleError, "ui.cli.stdin_too_big", limit=str(MAX_BYTES))
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
                raise worded(CorbeilleError, "ui.cli.no_game", journal=str(args.journal))
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
    from firmware.box_files import missing_line, summary
    from firmware.script import said
    from firmware.texts import t

    lang = args.lang or "en"
    if args.schema:
        print(t("cli.schema", lang, game=name))
        print("\n".join(describe(loader.SCHEMA, "  ", lang)))
        return 0
    if args.file is None:
        print("corbeille: " + t("cli.box_give", lang), file=sys.stderr)
        return 2
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
    print(t("cli.verified" if box.verified else "cli.unverified", lang))
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

    from firmware.journal import lock as journal_lock
    from firmware.journal.connection import write_fresh
    from firmware.texts import t

    lang = args.lang or "en"
    source = args.file
    out = args.to or source + ".salvaged.sqlite"
    said = lambda key, **params: print("corbeille salvage: " + t(key, lang, **params), file=sys.stderr)
    if not os.path.isfile(source):
        said("cli.salvage_folder" if os.path.isdir(source) else "cli.salvage_missing", file=source)
        return 1
    held = journal_lock.holder(source)
    if held is not None:
        said("cli.salvage_busy", file=source, holder=held.describe())
        return 1
    if os.path.lexists(out):
        said("cli.salvage_exists", out=out)
        return 1
    try:
        games, meta, notes = _read_copy(source)
    except OSError as error:
        said("cli.salvage_unreadable", file=source, reason=str(error.strerror))
        return 1
    if not games:
        said("cli.salvage_nothing", file=source)
        for note in notes:
            print(f"  {note}", file=sys.stderr)
        return 1
    try:
        write_fresh(out, games, meta)
    except Exception as error:  # noqa: BLE001 - sqlite3 or OS errors: one message
        said("cli.salvage_unwritable", out=out, reason=str(error))
        return 1
    _say_salvaged(games, notes, source, out, lang)
    return 0


def _read_copy(source: str) -> tuple:
    """`read_damaged` of a copy of `source` (its notes naming `source`): SQLite may write beside
    a file it opens (its -shm, a checkpoint of the -wal), and the damaged file must stay
    exactly as it was found."""
    import os
    import shutil
    import tempfile

    from firmware.journal.salvage import read_damaged

    with tempfile.TemporaryDirectory(prefix="corbeille-salvage-") as tmp:
        copy = os.path.join(tmp, "journal.sqlite")
        shutil.copyfile(source, copy)
        if os.path.isfile(source + "-wal"):
            shutil.copyfile(source + "-wal", copy + "-wal")
        games, meta, notes = read_damaged(copy)
    return games, meta, [note.replace(copy, source) for note in notes]


def _say_salvaged(games: dict, notes: list[str], source: str, out: str, lang: str) -> None:
    """What `corbeille salvage` recovered, game by game, and how to use it."""
    from firmware.texts import t

    actions = sum(len(g[2]) for g in games.values())
    print(t("cli.salvaged", lang, games=len(games), actions=actions, file=source, out=out))
    for game_id, (header, _, rows) in sorted(games.items()):
        try:
            head = json.loads(header)
        except ValueError:
            head = None
        head = head if isinstance(head, dict) else {}
        players = head.get("players") if isinstance(head.get("players"), list) else []
        print(t("cli.salvaged_game", lang, id=str(game_id), game=str(head.get("game", "?")),
                players=", ".join(map(str, players)), actions=len(rows)))
    for note in notes:
        print(f"  {note}")
    print(t("cli.salvaged_use", lang, out=out))


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


def in_language(parser, lang: str, path: str = ""):
    """`parser` with its help texts in `lang`: a command's or option's help is the catalog's
    `ui.help.<command path>.<name>`, else `ui.help.<name>` (an option several commands share),
    else the English it was built with. argparse's own words (usage, options) stay English."""
    from engines.core.i18n import catalog
    from firmware.texts import t

    def said(name, english):
        for key in (f"help.{path}.{name}" if path else f"help.{name}", f"help.{name}"):
            if "ui." + key in catalog(lang):
                return t(key, lang, default=default_journal())
        return english

    if parser.description:
        parser.description = said("description", parser.description)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for pseudo in action._choices_actions:
                pseudo.help = said(pseudo.dest, pseudo.help)
            for name, sub in action.choices.items():
                in_language(sub, lang, f"{path}.{name}" if path else name)
        elif action.help not in (None, argparse.SUPPRESS) and action.dest != "help":
            action.help = said(action.dest, action.help)
    return parser


def asked_language(argv) -> str | None:
    """The language `--lang` asks for in `argv`, read before the parser that says the help."""
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


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
        from firmware.texts import t

        print(t("cli.sim_no_terminal", getattr(args, "lang", None) or "en"), file=sys.stderr)
        return 2
    config = _config(args)
    try:
        return run_sim(config, lang=getattr(args, "lang", None), text=args.text, state_dir=args.state)
    except KeyboardInterrupt:
        return 130


def cmd_web(args) -> int:
    config = _config(args)
    if args.check:
        return _say_enabled(args, config, config.web.enabled, "web")
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
        return _say_enabled(args, config, config.venue.enabled, "publish")
    from firmware.publish import serve

    return serve(config)


def _say_enabled(args, config, enabled: bool, what: str) -> int:
    """`web --check`, `publish --check`: whether the configuration enables it (exit 0) or not
    (exit 1), in the language asked, else the configuration's."""
    from firmware.texts import t

    lang = getattr(args, "lang", None) or config.game.language
    where = config.source or t("cli.defaults", lang)
    print(t(f"cli.{what}_{'enabled' if enabled else 'disabled'}", lang, where=str(where)))
    return 0 if enabled else 1


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
    import firmware.texts  # noqa: F401 (registers the box's catalog: the commands' own texts)

    lang = asked_language(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = (parser if lang in (None, "en") else in_language(parser, lang)).parse_args(argv)
    try:
        return args.func(args)
    except (CorbeilleError, ValueError, OSError) as error:
        # configuration mistakes (ValueError subclasses), a journal that cannot be opened...
        from firmware.script import said
        print(f"corbeille: {said(error, getattr(args, 'lang', None) or 'en')}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
