"""The ``tienlen`` command."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import TienLenError, error
from .i18n import LANGS, display_name, env_lang, os_reason, say_error, t
from .rules import Rules

if TYPE_CHECKING:
    from .session import Session


class _Formatter(argparse.HelpFormatter):
    """Help that shows each option's default (when it has one worth showing)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if ("%(default)" not in text and action.option_strings and default is not None
                and default is not False and default is not argparse.SUPPRESS):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line (``tienlen play: …``) and whose help shows defaults."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if "help" not in kwargs and kwargs.get("default") not in (None, False):
            kwargs["help"] = "default: %(default)s"
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _count(minimum: int) -> Any:
    """An argparse type: a whole number, at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {number}")
        return number
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds, more than 0."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not number > 0 or not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return number


def check_writable(path: str) -> None:
    """Fail before any work when a file cannot be written at ``path``."""
    target = Path(path).expanduser()
    folder = target.parent
    if target.is_dir():
        raise error(TienLenError, "err.file.is_folder", path=repr(path))
    if not folder.is_dir():
        raise error(TienLenError, "err.file.no_folder", path=repr(path), folder=repr(str(folder)))
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise error(TienLenError, "err.file.denied", path=repr(path))


def _lang_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="the language of what is shown: en or vi (default: from LC_ALL, "
                        "LC_MESSAGES or LANG; English otherwise)")


def _lang(args: argparse.Namespace) -> str:
    """The language chosen with --lang, else the environment's."""
    return getattr(args, "lang", None) or env_lang()


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        print(t("cli.presets", _lang(args)))
        for name in Rules.presets():
            print(f"  {name}")
        return 0
    rules = load_rules(args.preset)
    if args.toml:
        from .rules_text import full_toml

        print(full_toml(rules), end="")
    elif args.explain:
        from .rules_text import explain_text

        print(explain_text(rules, lang=_lang(args)))
    else:
        from .rules_text import describe_text

        print(describe_text(rules, _lang(args)))
    return 0


def load_rules(spec: str) -> Rules:
    """A preset name, or the path of a house-rules TOML file."""
    if spec in Rules.presets():
        return Rules.preset(spec)
    if spec.endswith(".toml") or "/" in spec:
        return Rules.from_toml(spec)
    return Rules.preset(spec)  # raises with the list of presets


def _cmd_train(args: argparse.Namespace) -> int:
    import os

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # small matrices: threads only cost (10x slower actors)
    try:
        from .rl.train import TrainConfig, train
    except ImportError as exc:
        raise error(TienLenError, "err.cli.train_extra", missing=exc.name) from None
    cfg = TrainConfig(rules=args.rules, players=args.players, seconds=args.seconds, out=args.out,
                      seed=args.seed, hidden=tuple(int(h) for h in args.hidden.split(",")),
                      lr=args.lr, batch=args.batch, reuse=args.reuse, epsilon=args.epsilon,
                      reward=args.reward, eval_every=args.eval_every, eval_deals=args.eval_deals,
                      log_every=args.log_every, resume=args.resume,
                      league=tuple(b for b in args.league.split(",") if b),
                      league_share=args.league_share, init=args.init)
    record = train(cfg)
    print(t("cli.train.done", _lang(args), frames=record.get("frames"), hands=record.get("hands"),
            out=args.out))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import fast_report, run
    from .game import check_players

    rules = load_rules(args.rules)
    players = check_players(args.players)
    result = run(rules, players, args.hands, args.seed)
    print(result.report())
    print(fast_report(rules, players, args.hands, args.seed, result.hands_per_second))
    return 0



def _terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _cmd_play(args: argparse.Namespace) -> int:
    from .arena import parse_bots
    from .game import check_players
    from .tui.controller import Controller, check_bots

    rules = load_rules(args.rules)
    bots = check_bots(parse_bots(args.bots or "heuristic"), check_players(args.players))
    if args.plain or not _terminal():
        from .lineplay import play_session

        return play_session(rules, args.players, args.seed, args.name, bots=bots,
                            lang=_lang(args))
    lang = _lang(args)
    controller = Controller(rules, args.players, bots, args.seed, args.name, lang=lang)
    try:
        from .tui.app import TienLenApp
    except ImportError:
        raise error(TienLenError, "err.cli.tui_missing_play") from None
    saved = TienLenApp(controller, delay=0.0 if args.fast else 0.8).run()
    if saved is not None:
        print(t("cli.saved", lang, path=saved))
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    import json

    from .arena import Tournament, format_table, parse_bots, progress_bar, run_tournament

    rules = load_rules(args.rules)
    bots = parse_bots(args.bots) if args.bots else ("heuristic",) * args.players
    if args.json:
        check_writable(args.json)
    if args.address and args.backend != "ray":
        raise error(TienLenError, "err.cli.address")
    tournament = Tournament(rules, args.players, bots, args.deals, args.seed, args.time_limit)
    report = run_tournament(tournament, workers=args.workers, backend=args.backend,
                            address=args.address,
                            progress=None if args.quiet else progress_bar())
    if report["partial"] and not args.quiet and sys.stderr.isatty():
        print(file=sys.stderr)  # end the progress bar's line
    print(format_table(report), flush=True)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(report, out, indent=2)
                out.write("\n")
        except OSError as exc:
            raise error(TienLenError, "err.file.cannot_write", path=repr(args.json),
                        error=os_reason(exc)) from None
    if report["partial"]:
        print(t("cli.tournament.partial", _lang(args), played=report["deals_played"],
                deals=report["deals"]), file=sys.stderr)
        return 130
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .web.server import limits_from, serve

    return serve(args.host, args.port, args.db, args.bot_delay, limits_from(args))


def _cmd_replay(args: argparse.Namespace) -> int:
    from .session import Session

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(TienLenError, "err.file.cannot_read", path=repr(args.file),
                    error=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise error(TienLenError, "err.file.not_record", path=repr(args.file)) from None
    session = Session.from_record(text)
    lang = _lang(args)
    if not args.text and _terminal():
        try:
            from .tui.replay import ReplayApp
        except ImportError:
            raise error(TienLenError, "err.cli.tui_missing_replay") from None
        ReplayApp(session, args.file, lang).run()
        return 0
    print(replay_text(session, lang), end="")
    return 0


def replay_text(session: Session, lang: str = "en") -> str:
    """A session's record action by action, in ``lang`` (``tienlen replay --text``): names the
    program gave and phase actions in words; cards as the record writes them."""
    from .tui.controller import action_words

    lines = []
    for number, game in enumerate(session.games, 1):
        names = [display_name(n, lang) for n in game.names]
        lines.append(t("cli.replay.hand", lang, n=number, name=names[game.dealer]))
        for seat, move in game.history:
            lines.append(t("cli.replay.move", lang, name=names[seat],
                           move=action_words(str(move), names, lang=lang)))
        if game.is_over:
            lines.append(t("cli.replay.finish", lang,
                           names=", ".join(names[s] for s in game.finish_order)))
            lines.append(t("cli.replay.units", lang, units=", ".join(
                f"{names[s]} {u:+d}" for s, u in enumerate(game.scores))))
    return "".join(line + "\n" for line in lines)


def build_parser() -> argparse.ArgumentParser:
    from .bots import bot_usage

    parser = _Parser(prog="tienlen", description="Tiến Lên, every rule exactly.")
    parser.add_argument("--version", action="version", version=f"tienlen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rules", help="list the presets, or show one preset's options (or its "
                       "rules in words: --explain)")
    p.add_argument("preset", nargs="?", help="a preset name or a house-rules TOML file")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--toml", action="store_true",
                       help="print every option with its value, as a house-rules file to edit")
    shown.add_argument("--explain", action="store_true", help="print the rules in plain words")
    _lang_option(p)
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("train", help="train the learned bot by self-play (extra train: torch)")
    p.add_argument("--rules", default="pagat", help="a preset name or a house-rules TOML file")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=600.0, help="how long to train")
    p.add_argument("--out", default="runs/learned", help="folder for progress and checkpoints")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", default="256,256,128", help="hidden layer widths")
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--reuse", type=float, default=2.0, help="gradient samples per new decision")
    p.add_argument("--epsilon", type=float, default=0.05, help="share of random plays in self-play")
    p.add_argument("--reward", choices=["first", "rank", "mix"], default="mix")
    p.add_argument("--eval-every", type=float, default=300.0, help="seconds between arena checks")
    p.add_argument("--eval-deals", type=int, default=30,
                   help="deals per arena check (each played from every seat)")
    p.add_argument("--log-every", type=float, default=30.0)
    p.add_argument("--resume", action="store_true", help="continue from OUT/state.pt")
    p.add_argument("--league", default="", help="ladder bots some hands are played against "
                   "(the network at one seat), such as heuristic,greedy")
    p.add_argument("--league-share", type=float, default=0.0, help="the share of those hands")
    p.add_argument("--init", default=None, help="start from these weights (an .npz, or shipped: "
                   "the learned bot's) instead of random ones")
    p.set_defaults(func=_cmd_train)

    p = sub.add_parser("bench", help="the engine's speed figures")
    p.add_argument("--rules", default="pagat", metavar="PRESET|FILE",
                   help="a preset name or a house-rules TOML file")
    p.add_argument("--players", type=int, default=4, metavar="N", help="players at the table, 2 to 8")
    p.add_argument("--hands", type=_count(1), default=2000, metavar="N", help="random hands to play")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="the seed of the random hands")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("play", help="play hands in a row against bots in the terminal")
    p.add_argument("--rules", default="pagat", metavar="PRESET|FILE",
                   help="a preset name or a house-rules TOML file")
    p.add_argument("--players", type=int, default=4, metavar="N", help="players at the table, 2 to 8")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="the seed of the deals (default: a new game each time)")
    p.add_argument("--name", default="You", metavar="NAME", help="your name at the table")
    p.add_argument("--bots", default="heuristic", metavar="BOTS",
                   help="the opponents' bots, comma-separated, one for each or one for all: "
                   + bot_usage())
    p.add_argument("--fast", action="store_true", help="no pause between the bots' moves")
    _lang_option(p)
    p.add_argument("--plain", action="store_true",
                   help="play line by line instead of full screen (also when not in a terminal)")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("tournament", help="bots against bots over duplicate deals")
    p.add_argument("--rules", default="pagat", metavar="PRESET|FILE",
                   help="a preset name or a house-rules TOML file")
    p.add_argument("--players", type=int, default=4, metavar="N", help="players at the table, 2 to 8")
    p.add_argument("--bots", help="one bot per seat, comma-separated (default: heuristic in "
                   "every seat): " + bot_usage() + ", cmd:COMMAND (an external bot, "
                   "docs/bots-protocol.md); NAME=BOT names a bot in the results, as in "
                   "me=cmd:./bot.pl")
    p.add_argument("--deals", type=int, default=100, metavar="N",
                   help="deals to play, each once for every rotation of the bots")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="the seed of the deals")
    p.add_argument("--workers", type=_count(1), default=1, metavar="N", help="local processes")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where the deals are played")
    p.add_argument("--address", metavar="ADDRESS",
                   help="the Ray cluster's address (default: start a local Ray)")
    p.add_argument("--time-limit", type=_seconds, default=5.0, metavar="SECONDS",
                   help="seconds an external bot has for each decision")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON to this file (docs/bots.md)")
    p.add_argument("--quiet", action="store_true", help="no progress")
    p.set_defaults(func=_cmd_tournament)

    p = sub.add_parser("serve", help="the web server: play in the browser with friends and bots")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="a database URL (default: sqlite:///tienlen.sqlite3; "
                   "postgresql+psycopg://user@host/db for PostgreSQL)")
    p.add_argument("--bot-delay", type=float, default=0.5,
                   help="seconds a bot waits before it plays (on average: each wait varies by a quarter)")
    from .web.server import add_limit_options  # the standard library only, like this module

    add_limit_options(p)
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("replay", help="step through a record, forwards and back")
    p.add_argument("file")
    p.add_argument("--text", action="store_true",
                   help="print the hands action by action (also when not in a terminal)")
    _lang_option(p)
    p.set_defaults(func=_cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    lang = env_lang()
    try:
        args = build_parser().parse_args(argv)
        lang = _lang(args)
        code = int(args.func(args))
        sys.stdout.flush()
        return code
    except TienLenError as exc:  # said in the chosen language when it carries a message
        print(f"tienlen: {say_error(exc, lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, and keep Python from complaining
        # when it flushes the standard output at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
