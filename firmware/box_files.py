"""The box file commands that write a file: `corbeille box import` (a spreadsheet made a
box file) and `corbeille box learned`, what a recorded game learned at the table (RM13 as
amended), written as a new box file: the owner's file the game was played with, every title, royalty
table and joker count read off the cards folded in. The owner's file is never touched;
the new one is checked as `corbeille box check` checks a file before it is written."""
import sys
from importlib import import_module

from engines.core.errors import CorbeilleError


def learned_box_text(header, recorded) -> tuple:
    """(the box file text, the number of entries learned) of the game recorded with `header`
    and `recorded` (JSON actions); a CorbeilleError for a game that learns nothing."""
    from engines import game_class
    from engines.core.learning import LEARNABLES
    from engines.registry import game_of
    from firmware.session import read_recording

    name = game_of(header)
    if name not in LEARNABLES:
        raise CorbeilleError(f"{name} learns nothing at the table; its box file is written by hand "
                             f"(games that learn: {', '.join(LEARNABLES)})")
    _, game, _, problem = read_recording(game_class(name), header, recorded)
    if problem is not None:
        raise problem[1]
    try:
        writer = import_module(f"engines.{name}.box_toml")
    except ModuleNotFoundError:
        learned = ", ".join(" ".join(map(str, entry)) for entry in game.s.learned) or "nothing"
        raise CorbeilleError(f"{name}: its box file is not written back yet; copy what the table learned into "
                             f"it by hand: {learned}") from None
    return writer.dump(game.box), len(game.s.learned)


def cmd_box_learned(args, open_game) -> int:
    import tempfile
    from pathlib import Path

    _, header, recorded = open_game(args)
    try:
        text, count = learned_box_text(header, recorded)
    except CorbeilleError as error:
        print(f"corbeille: box learned: {error}", file=sys.stderr)
        return 1
    loader = import_module(f"engines.{header['game']}.box")
    with tempfile.TemporaryDirectory() as folder:        # checked as `box check` reads it, before it is given
        trial = Path(folder) / "learned.toml"
        trial.write_text(text, encoding="utf-8")
        try:
            loader.load_box(trial)
        except CorbeilleError as error:
            print(f"corbeille: box learned: the merged file does not load: {error}", file=sys.stderr)
            return 1
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{args.out}: {count} {'entry' if count == 1 else 'entries'} learned at the table folded into "
              f"{header.get('box') or 'the shipped box file'}; check it with `corbeille box check {args.out} "
              f"--game {header['game']}`", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_box_import(args) -> int:
    """A spreadsheet (CSV) made a box file: printed, or written to --out; a mistake names
    the row and the column, in the language asked."""
    from pathlib import Path

    from firmware.script import said
    from firmware.texts import t

    lang = args.lang or "en"
    try:
        reader = import_module(f"engines.{args.game}.box_csv")
    except ModuleNotFoundError:
        print(f"corbeille: {t('cli.box_no_sheet', lang, game=args.game)}", file=sys.stderr)
        return 1
    try:
        text = reader.from_csv(args.file)
    except CorbeilleError as error:
        print(f"corbeille: {said(error, lang)}", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(t("cli.box_imported", lang, out=args.out, file=args.file, game=args.game), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def summary(loader, box, lang: str) -> list[str]:
    """`corbeille box check`'s counts of a file that loads: what it holds, what the table
    will learn when play meets it, and that nothing is missing for the game to start."""
    from engines.core.i18n import text
    from firmware.texts import t

    known, learned = loader.counts(box)

    def listed(pairs):
        return ", ".join(text(key, lang, count=count) for key, count in pairs if count) or t("cli.box_nothing", lang)

    return [t("cli.box_known", lang, items=listed(known)), t("cli.box_learned", lang, items=listed(learned)),
            t("cli.box_missing", lang, keys=t("cli.box_nothing", lang))]


def missing_line(loader, path, lang: str) -> str | None:
    """`corbeille box check`'s line for a file that does not load: every key its game's
    schema requires and the file leaves out, or None when none is (the refusal then says
    what is wrong) or the file is not TOML at all."""
    from engines.core.boxfile import load_toml, missing_keys
    from firmware.texts import t

    try:
        data = load_toml(path)
    except CorbeilleError:
        return None
    missing = missing_keys(loader.SCHEMA, data)
    return t("cli.box_missing", lang, keys=", ".join(missing)) if missing else None


def write_learned(state_dir, game, game_id) -> "Path | None":
    """What `game` learned so far, as the box file it was played with plus what the table
    read, in <state>/learned/<game>-<id>.toml (the only folder the service writes): written
    when an entry is learned, never on a menu move; each game its own file, so the file a
    game started from (and replays from) is never rewritten. None when nothing was learned
    or the game has no writer."""
    import os
    from pathlib import Path

    learned = getattr(game.s, "learned", ())
    try:
        writer = import_module(f"engines.{game.name}.box_toml")
    except ModuleNotFoundError:
        return None
    if not learned:
        return None
    folder = Path(state_dir) / "learned"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game.name}-{game_id}.toml"
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8") as out:
        out.write(writer.dump(game.box))
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    return path


def newest_learned(state_dir, name: str):
    """The file the latest game of `name` learned into (`write_learned`), or None."""
    from pathlib import Path

    folder = Path(state_dir) / "learned"
    found = []
    for path in folder.glob(f"{name}-*.toml") if folder.is_dir() else ():
        number = path.stem.rpartition("-")[2]
        if number.isdigit():
            found.append((int(number), path))
    return max(found)[1] if found else None
