"""The box file commands that write a file: `corbeille box import` (a spreadsheet made a
box file) and `corbeille box learned`, what a recorded game learned at the table (RM13 as
amended), written as a new box file: the owner's file the game was played with, what the
table read folded in (Richesses du Monde's titles, royalty tables and joker count, Maxi
Bourse's nominal prices, A Vendre!'s squares and titles read without a board). The owner's
file is never touched; the new one is checked as `corbeille box check` checks a file before
it is written."""
import sys
from importlib import import_module

from engines.core.errors import CorbeilleError, worded


def learned_box_text(header, recorded) -> tuple:
    """(the box file text, the number of entries learned) of the game recorded with `header`
    and `recorded` (JSON actions); a CorbeilleError for a game that learns nothing."""
    from engines import game_class
    from engines.core.learning import LEARNABLES
    from engines.registry import game_of
    from firmware.session import read_recording

    name = game_of(header)
    if name not in LEARNABLES:
        raise worded(CorbeilleError, "ui.cli.learns_nothing", game=name, games=", ".join(LEARNABLES))
    _, game, _, problem = read_recording(game_class(name), header, recorded)
    if problem is not None:
        raise problem[1]
    writer = import_module(f"engines.{name}.box_toml")
    return writer.dump(game.learned_box()), len(game.learned_entries())


def cmd_box_learned(args, open_game) -> int:
    import tempfile
    from pathlib import Path

    from firmware.script import said
    from firmware.texts import t

    lang = args.lang or "en"
    _, header, recorded = open_game(args)
    try:
        text, count = learned_box_text(header, recorded)
    except CorbeilleError as error:
        print(f"corbeille: box learned: {said(error, lang)}", file=sys.stderr)
        return 1
    loader = import_module(f"engines.{header['game']}.box")
    with tempfile.TemporaryDirectory() as folder:        # checked as `box check` reads it, before it is given
        trial = Path(folder) / "learned.toml"
        trial.write_text(text, encoding="utf-8")
        try:
            loader.load_box(trial)
        except CorbeilleError as error:
            print("corbeille: " + t("cli.learned_fails", lang, error=said(error, lang)), file=sys.stderr)
            return 1
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(t("cli.learned_written", lang, out=args.out, count=count, game=header["game"],
                box=header.get("box") or t("cli.shipped_box", lang)), file=sys.stderr)
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
        print("corbeille: " + t("cli.no_csv", lang, game=args.game), file=sys.stderr)
        return 1
    try:
        text = reader.from_csv(args.file)
    except CorbeilleError as error:
        print(f"corbeille: {said(error, lang)}", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(t("cli.imported", lang, out=args.out, file=args.file, game=args.game), file=sys.stderr)
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
    """What `game` learned, as the box file it was played with plus what the table read, in
    <state>/learned/<game>-<id>.toml (the only folder the service writes): one durable
    write (an fsync) at the end of a game, when an unfinished game is left and when the
    menu asks, none while the game goes on (the SD card wears with every write) and none
    when the file already holds it. Each game its own file, so the file a game started
    from (and replays from) is never rewritten. None when nothing was learned."""
    import os
    from pathlib import Path

    entries = getattr(game, "learned_entries", None)
    if entries is None or not entries():
        return None
    text = import_module(f"engines.{game.name}.box_toml").dump(game.learned_box())
    folder = Path(state_dir) / "learned"
    path = folder / f"{game.name}-{game_id}.toml"
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return path
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8") as out:
        out.write(text)
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
