"""The `corbeille` command line."""
import argparse
import json
import sys
from pathlib import Path

from engines.core.errors import CorbeilleError


def state_json(game) -> dict:
    module = sys.modules[type(game).__module__]
    return module.snapshot(game)


def cmd_script(args) -> int:
    from firmware.script import run_script

    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text(encoding="utf-8")
    except OSError as error:
        print(f"corbeille: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
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
        game = run_script(text, args.file, on_action=record)
    except CorbeilleError as error:
        print(f"corbeille: {error}", file=sys.stderr)
        return 1
    finally:
        if journal:
            journal.close()
    print(json.dumps(state_json(game), indent=2, ensure_ascii=False))
    return 0


def open_game(args):
    from firmware.journal import Journal

    journal = Journal(args.journal)
    for message in journal.repairs:
        print(f"corbeille: {message}", file=sys.stderr)
    game_id = args.game if args.game is not None else journal.last_game()
    if game_id is None:
        raise CorbeilleError(f"{args.journal}: no game recorded")
    return journal, game_id


def cmd_export(args) -> int:
    from engines import game_class
    from firmware.script import export_script

    journal, game_id = open_game(args)
    header = journal.header(game_id)
    actions_set = game_class(header.get("game", "maxibourse")).ACTIONS
    actions = [actions_set.from_json(a) for a in journal.actions(game_id)]
    sys.stdout.write(export_script(header, actions))
    return 0


def cmd_replay(args) -> int:
    from engines import game_class

    journal, game_id = open_game(args)
    header = journal.header(game_id)
    cls = game_class(header.get("game", "maxibourse"))
    game = cls.replay(header, [cls.ACTIONS.from_json(a) for a in journal.actions(game_id)])
    print(json.dumps(state_json(game), indent=2, ensure_ascii=False))
    return 0


def default_journal() -> str:
    import os

    base = os.environ.get("STATE_DIRECTORY") or os.path.join(
        os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "corbeille")
    return os.path.join(base, "journal.sqlite")


def build_parser():
    parser = argparse.ArgumentParser(prog="corbeille", description="Electronic banker for stock-market board games")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("script", help="run a script in the command language and print the state as JSON")
    p.add_argument("file", help="script file, or - for standard input")
    p.add_argument("--journal", help="also record the game in this journal (SQLite file)")
    p.set_defaults(func=cmd_script)
    for name, func, text in (("export", cmd_export, "print a recorded game in the command language"),
                             ("replay", cmd_replay, "replay a recorded game and print its state as JSON")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--journal", default=default_journal(), help="journal file (default: %(default)s)")
        p.add_argument("--game", type=int, help="game id (default: the last game)")
        p.set_defaults(func=func)
    p = sub.add_parser("sim", help="desktop demo: play a scripted Junior game and print the table")
    p.set_defaults(func=cmd_demo)
    return parser


def cmd_demo(args) -> int:
    from firmware.demo import run_demo

    return run_demo()


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CorbeilleError as error:
        print(f"corbeille: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
