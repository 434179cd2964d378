"""The ``tienlen`` command."""

from __future__ import annotations

import argparse
import math
import os
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import TienLenError, error
from .i18n import DEFAULT, LANGS, Num, catalogue, display_name, env_lang, os_reason, say_error, t
from .rules import load_rules

if TYPE_CHECKING:
    from .session import Session

DEFAULT_PRESET = "pagat"  # the rules a command plays without --rules (and `rules --explain` shows)


class _Formatter(argparse.HelpFormatter):
    """Help that shows each option's default (when it has one worth showing)."""

    lang = "en"

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if ("%(default)" not in text and action.option_strings and default is not None
                and default is not False and default is not argparse.SUPPRESS):
            text += t("cli.help.default_suffix", self.lang)
        return text


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line (``tienlen play: …``) and whose help shows defaults,
    both in ``lang``."""

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        self.lang = lang
        formatter = type("_LangFormatter", (_Formatter,), {"lang": lang})
        kwargs.setdefault("formatter_class", formatter)
        super().__init__(*args, **kwargs)
        # type=int and type=float (here and in argument groups, which share the registry) say
        # a bad value in the reader's words: argparse's own message names the Python type
        self.register("type", int, _typed(int, "cli.arg.not_whole", lang))
        self.register("type", float, _typed(float, "cli.arg.not_number", lang))

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if "help" not in kwargs and kwargs.get("default") not in (None, False):
            kwargs["help"] = t("cli.help.default", self.lang)
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> Any:
        self.exit(2, t("cli.usage_error", self.lang, prog=self.prog, message=message) + "\n")


# argparse writes its own words (usage errors, "usage:", group titles, "show this help message
# and exit") through gettext: ``_ = gettext.gettext`` and ``ngettext`` in its module, looked up
# at each call. While the parser is built and reads the arguments, those two names are swapped
# for the catalogue (``argparse.<argparse's English>``), so every message argparse makes is
# Vietnamese as a whole, arguments and all. Not a subclass overriding error() and the formatter:
# the messages arrive there already formatted ("invalid choice: 'x' (choose from ...)") and would
# have to be matched back by patterns; not a gettext translation for argparse's domain: argparse
# has no domain of its own (it uses the global one, "messages"), so that would mean a process-wide
# textdomain and compiled .mo files beside the JSON catalogues (docs/i18n.md).
@contextmanager
def _argparse_words(lang: str) -> Iterator[None]:
    """argparse's own messages in ``lang`` while the block runs (English: left alone)."""
    if lang == DEFAULT:
        yield
        return
    words = catalogue(lang)

    def gettext(text: str) -> str:
        return words.get(f"argparse.{text}", text) if isinstance(text, str) else text

    def ngettext(singular: str, plural: str, n: int) -> str:
        return gettext(singular if n == 1 else plural)

    saved = vars(argparse)["_"], vars(argparse)["ngettext"]
    setattr(argparse, "_", gettext)  # noqa: B010 (a module's private name, on purpose)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


def _typed(kind: type[int] | type[float], key: str, lang: str) -> Any:
    """An argparse type: ``kind`` of the text, or the message ``key`` naming the text."""
    def parse(text: str) -> int | float:
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t(key, lang, text=repr(text))) from None
    return parse


def _count(minimum: int, lang: str = DEFAULT) -> Any:
    """An argparse type: a whole number, at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t("cli.arg.not_whole", lang, text=repr(text))) from None
        if number < minimum:
            raise argparse.ArgumentTypeError(t("cli.arg.at_least", lang, minimum=minimum,
                                               number=number))
        return number
    return parse


def _real(lang: str, not_key: str, fits: Callable[[float], bool], range_key: str) -> Any:
    """An argparse type: a number that ``fits``; the message ``not_key`` for text that is no
    number, ``range_key`` for a number out of range (each naming the text)."""
    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t(not_key, lang, text=repr(text))) from None
        if not fits(number):
            raise argparse.ArgumentTypeError(t(range_key, lang, text=text))
        return number
    return parse


def _seconds(lang: str = DEFAULT) -> Any:
    """An argparse type: a number of seconds, more than 0."""
    return _real(lang, "cli.arg.not_seconds", lambda n: n > 0 and math.isfinite(n),
                 "cli.arg.positive_seconds")


def _share(lang: str = DEFAULT) -> Any:
    """An argparse type: a share, a number from 0 to 1."""
    return _real(lang, "cli.arg.not_number", lambda n: 0 <= n <= 1, "cli.arg.share")


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


def _lang_option(p: argparse.ArgumentParser, lang: str = DEFAULT) -> None:
    p.add_argument("--lang", choices=LANGS, default=None, help=t("cli.help.lang", lang))


def argv_lang(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language before the arguments are parsed (so that argparse's errors and the help are
    in it): the last ``--lang X`` or ``--lang=X`` naming one of ours, else the environment's."""
    chosen = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else \
            argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None
        if value in LANGS:
            chosen = value
    return chosen or env_lang(environ)


def _lang(args: argparse.Namespace) -> str:
    """The language chosen with --lang, else the environment's."""
    return getattr(args, "lang", None) or getattr(args, "main_lang", None) or env_lang()


def _cmd_rules(args: argparse.Namespace) -> int:
    """The presets listed; or one preset's (or house-rules file's) options, as a file (--toml)
    or in words (--explain): without a preset, those of the default rules."""
    if args.preset is None and not (args.toml or args.explain):
        from .rules_text import preset_list

        print(preset_list(_lang(args)))
        return 0
    rules = load_rules(args.preset or DEFAULT_PRESET)
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


def _cmd_train(args: argparse.Namespace) -> int:
    import os

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # small matrices: threads only cost (10x slower actors)
    try:
        import torch  # noqa: F401  (the learner's; imported here so that its absence is said)

        from .rl.train import TrainConfig, train
    except ImportError as exc:
        raise error(TienLenError, "err.cli.train_extra", missing=exc.name) from None
    cfg = TrainConfig(rules=args.rules, players=args.players, seconds=args.seconds, out=args.out,
                      seed=args.seed, hidden=tuple(int(h) for h in args.hidden.split(",")),
                      lr=args.lr, batch=args.batch, reuse=args.reuse, epsilon=args.epsilon,
                      reward=args.reward, eval_every=args.eval_every, eval_deals=args.eval_deals,
                      log_every=args.log_every, resume=args.resume,
                      league=tuple(b for b in args.league.split(",") if b),
                      league_share=args.league_share, init=args.init, envs=args.envs,
                      backend=args.backend, address=args.address, actors=args.actors)
    record = train(cfg)
    print(t("cli.train.done", _lang(args), frames=Num(record.get("frames", 0)),
            hands=Num(record.get("hands", 0)), out=args.out))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run
    from .fast.bench import fast_report
    from .game import check_players

    rules = load_rules(args.rules)
    players = check_players(args.players)
    result = run(rules, players, args.hands, args.seed)
    lang = _lang(args)
    print(result.report(lang))
    print(fast_report(rules, players, args.hands, args.seed, result.hands_per_second, lang))
    return 0



def _terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _cmd_play(args: argparse.Namespace) -> int:
    from .arena import parse_bots
    from .game import check_players
    from .play.controller import Controller, check_bots, replay_command

    lang = _lang(args)
    if args.resume is not None:
        from .session import Session

        session = Session.from_record(_read_record(args.resume))
        bots = check_bots(parse_bots(args.bots or "heuristic"), session.players)
        controller = Controller.resume(session, bots, lang)
        if args.plain or not _terminal():
            raise error(TienLenError, "err.cli.resume_plain")
    else:
        rules = load_rules(args.rules)
        bots = check_bots(parse_bots(args.bots or "heuristic"), check_players(args.players))
        if args.plain or not _terminal():
            from .lineplay import play_session

            return play_session(rules, args.players, args.seed, args.name, bots=bots,
                                lang=lang)
        controller = Controller(rules, args.players, bots, args.seed, args.name, lang=lang)
    try:
        from .tui.app import TienLenApp
    except ImportError:
        raise error(TienLenError, "err.cli.tui_missing_play") from None
    from .play.settings import load_settings, settings_path

    # what the player chose in earlier runs; a flag given now wins for this run
    kept_in = settings_path()
    kept, problem = load_settings(kept_in, lang)
    saved = TienLenApp(controller, delay=0.0 if args.no_pause else kept.pace,
                       four_colour=args.four_colour or kept.four_colour,
                       auto_pass=args.auto_pass or kept.auto_pass, prepare=True,
                       settings_file=kept_in, notice=problem or "").run()
    if saved is not None:
        print(t("cli.saved", lang, path=saved, command=replay_command(saved)))
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    import json

    from .arena import Tournament, format_table, parse_bots, progress_bar, run_tournament

    rules = load_rules(args.rules)
    bots = parse_bots(args.bots or "heuristic")
    if len(bots) == 1:  # one bot for every seat, as in play
        bots *= args.players
    if args.json:
        check_writable(args.json)
    if args.address and args.backend != "ray":
        raise error(TienLenError, "err.cli.address")
    tournament = Tournament(rules, args.players, bots, args.deals, args.seed, args.time_limit)
    report = run_tournament(tournament, workers=args.workers, backend=args.backend,
                            address=args.address,
                            progress=None if args.quiet else progress_bar(lang=_lang(args)))
    if report["partial"] and not args.quiet and sys.stderr.isatty():
        print(file=sys.stderr)  # end the progress bar's line
    print(format_table(report, _lang(args)), flush=True)
    if len(report["bots"]) == 1:  # one row: the same bot at every seat, against itself
        print(textwrap.fill(t("cli.tournament.same_bot", _lang(args),
                              bot=report["bots"][0]["name"], players=args.players), 78))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(report, out, indent=2)
                out.write("\n")
        except OSError as exc:
            raise error(TienLenError, "err.file.cannot_write", path=repr(args.json),
                        error=os_reason(exc)) from None
    if report["partial"]:
        print(t("cli.tournament.partial", _lang(args), played=Num(report["deals_played"]),
                deals=Num(report["deals"])), file=sys.stderr)
        return 130
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .web.ops.options import ops_from
    from .web.server import limits_from, serve

    return serve(args.host, args.port, args.db, args.bot_delay, limits_from(args), _lang(args),
                 api_docs=args.api_docs, cache_dir=args.cache_dir, redis=args.redis,
                 ops=ops_from(args), agent=args.agent)


def _cmd_admin(args: argparse.Namespace) -> int:
    from .web.admin import admins, set_admin
    from .web.storage import default_db

    lang, db = _lang(args), args.db or default_db().url
    if args.action == "list":
        names = admins(db)
        print("\n".join(names) if names else t("cli.admin.none", lang))
        return 0
    if args.name is None:
        raise error(TienLenError, "err.cli.admin.name", action=args.action)
    who = set_admin(db, args.name, admin=args.action == "grant")
    print(t(f"cli.admin.{'granted' if args.action == 'grant' else 'revoked'}", lang, name=who.name))
    return 0


def _read_record(path: str) -> str:
    """A record file's text; a file that cannot be read, or is not text, is said so."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(TienLenError, "err.file.cannot_read", path=repr(path),
                    error=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise error(TienLenError, "err.file.not_record", path=repr(path)) from None


def _cmd_replay(args: argparse.Namespace) -> int:
    from .session import Session

    session = Session.from_record(_read_record(args.file))
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
    from .play.controller import action_words

    lines = []
    for number, game in enumerate(session.games, 1):
        names = [display_name(n, lang) for n in game.names]
        lines.append(t("cli.replay.hand", lang, n=number, name=names[game.dealer]))
        for seat, move in game.history:
            lines.append(t("cli.replay.move", lang, name=names[seat],
                           move=action_words(move, names, lang=lang)))
        if game.is_over:
            lines.append(t("cli.replay.finish", lang,
                           names=", ".join(names[s] for s in game.finish_order)))
            lines.append(t("cli.replay.units", lang, units=", ".join(
                f"{names[s]} {u:+d}" for s, u in enumerate(game.scores))))
    return "".join(line + "\n" for line in lines)


def _cmd_review(args: argparse.Namespace) -> int:
    import json

    from .review import review_json, review_record, review_text

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(TienLenError, "err.file.cannot_read", path=repr(args.file),
                    error=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise error(TienLenError, "err.file.not_record", path=repr(args.file)) from None
    review = review_record(text, seat=args.seat, hand=args.hand)
    if args.json:
        print(json.dumps(review_json(review), ensure_ascii=False, indent=1))
    else:
        print(review_text(review, _lang(args)), end="")
    return 0


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line's parser, its help in ``lang`` (argparse's own words: :func:`_argparse_words`)."""
    from .bots import bot_usage

    def h(key: str, **params: Any) -> str:
        return t(f"cli.help.{key}", lang, **params)

    parser = _Parser(prog="tienlen", description=h("description"), lang=lang)
    parser.add_argument("--version", action="version", version=f"tienlen {__version__}",
                        help=h("version"))
    parser.add_argument("--lang", dest="main_lang", choices=LANGS, default=None,
                        help=t("cli.help.lang", lang))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = sub.add_parser(name, help=h(name), lang=lang)
        return made

    rules_file = h("rules_file")
    players = h("players")

    p = command("rules")
    p.add_argument("preset", nargs="?", help=h("rules.preset"))
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--toml", action="store_true", help=h("rules.toml"))
    shown.add_argument("--explain", action="store_true", help=h("rules.explain"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_rules)

    p = command("train")
    p.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET|FILE", help=rules_file)
    p.add_argument("--players", type=int, default=4, metavar="N", help=players)
    p.add_argument("--seconds", type=float, default=600.0, help=h("train.seconds"))
    p.add_argument("--out", default="runs/learned", metavar="DIR", help=h("train.out"))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=h("train.seed"))
    p.add_argument("--hidden", default="256,256,128", help=h("train.hidden"))
    p.add_argument("--lr", type=float, default=5e-4, help=h("train.lr"))
    p.add_argument("--batch", type=int, default=256, metavar="N", help=h("train.batch"))
    p.add_argument("--reuse", type=float, default=2.0, help=h("train.reuse"))
    p.add_argument("--epsilon", type=_share(lang), default=0.05, help=h("train.epsilon"))
    p.add_argument("--reward", choices=["first", "rank", "mix"], default="mix",
                   help=h("train.reward"))
    p.add_argument("--eval-every", type=float, default=300.0, metavar="SECONDS",
                   help=h("train.eval_every"))
    p.add_argument("--eval-deals", type=int, default=30, metavar="N", help=h("train.eval_deals"))
    p.add_argument("--log-every", type=float, default=30.0, metavar="SECONDS",
                   help=h("train.log_every"))
    p.add_argument("--resume", action="store_true", help=h("train.resume"))
    p.add_argument("--league", default="", help=h("train.league"))
    p.add_argument("--league-share", type=_share(lang), default=0.0, help=h("train.league_share"))
    p.add_argument("--envs", type=_count(0, lang), default=64, metavar="N", help=h("train.envs"))
    p.add_argument("--backend", choices=["local", "ray"], default="local", help=h("train.backend"))
    p.add_argument("--address", metavar="ADDRESS", help=h("train.address"))
    p.add_argument("--actors", type=_count(1, lang), default=2, metavar="N", help=h("train.actors"))
    p.add_argument("--init", default=None, help=h("train.init"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_train)

    p = command("bench")
    p.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET|FILE", help=rules_file)
    p.add_argument("--players", type=int, default=4, metavar="N", help=players)
    p.add_argument("--hands", type=_count(1, lang), default=2000, metavar="N", help=h("bench.hands"))
    p.add_argument("--seed", type=int, default=1, metavar="N", help=h("bench.seed"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_bench)

    p = command("play")
    p.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET|FILE", help=rules_file)
    p.add_argument("--players", type=int, default=4, metavar="N", help=players)
    p.add_argument("--seed", type=int, default=None, metavar="N", help=h("play.seed"))
    p.add_argument("--name", default="You", metavar="NAME", help=h("play.name"))
    p.add_argument("--bots", default="heuristic", metavar="BOTS",
                   help=h("play.bots", bots=bot_usage(lang)))
    p.add_argument("--no-pause", "--fast", dest="no_pause", action="store_true",
                   help=h("play.fast"))
    p.add_argument("--four-colour", action="store_true", help=h("play.four_colour"))
    p.add_argument("--auto-pass", action="store_true", help=h("play.auto_pass"))
    p.add_argument("--resume", default=None, metavar="RECORD", help=h("play.resume"))
    _lang_option(p, lang)
    p.add_argument("--plain", action="store_true", help=h("play.plain"))
    p.set_defaults(func=_cmd_play)

    p = command("tournament")
    p.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET|FILE", help=rules_file)
    p.add_argument("--players", type=int, default=4, metavar="N", help=players)
    p.add_argument("--bots", help=h("tournament.bots", bots=bot_usage(lang)))
    p.add_argument("--deals", type=int, default=100, metavar="N", help=h("tournament.deals"))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=h("tournament.seed"))
    p.add_argument("--workers", type=_count(1, lang), default=1, metavar="N",
                   help=h("tournament.workers"))
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help=h("tournament.backend"))
    p.add_argument("--address", metavar="ADDRESS", help=h("tournament.address"))
    p.add_argument("--time-limit", type=_seconds(lang), default=5.0, metavar="SECONDS",
                   help=h("tournament.time_limit"))
    p.add_argument("--json", metavar="FILE", help=h("tournament.json"))
    p.add_argument("--quiet", action="store_true", help=h("tournament.quiet"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_tournament)

    p = command("serve")
    p.add_argument("--host", default="127.0.0.1", help=h("serve.host"))
    p.add_argument("--port", type=int, default=8000, help=h("serve.port"))
    p.add_argument("--db", default=None, help=h("serve.db"))
    p.add_argument("--redis", default=None, metavar="URL", help=h("serve.redis"))
    p.add_argument("--bot-delay", type=float, default=0.5, help=h("serve.bot_delay"))
    p.add_argument("--api-docs", action="store_true", help=h("serve.api_docs"))
    p.add_argument("--cache-dir", default=None, metavar="DIR", help=h("serve.cache_dir"))
    p.add_argument("--agent", default=None, metavar="NAME=py:MODULE:ATTR@PRESET/PLAYERS",
                   help=h("serve.agent"))
    from .web.ops.options import add_ops_options  # the standard library only, like this module
    from .web.server import add_limit_options

    add_limit_options(p, lang)
    add_ops_options(p, lang)
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_serve)

    p = command("admin")
    p.add_argument("action", choices=["grant", "revoke", "list"], help=h("admin.action"))
    p.add_argument("name", nargs="?", metavar="NAME", help=h("admin.name"))
    p.add_argument("--db", default=None, metavar="URL", help=h("admin.db"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_admin)

    p = command("replay")
    p.add_argument("file", help=h("replay.file"))
    p.add_argument("--text", action="store_true", help=h("replay.text"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_replay)

    p = command("review")
    p.add_argument("file", help=h("review.file"))
    p.add_argument("--seat", type=_count(0, lang), default=0, metavar="N", help=h("review.seat"))
    p.add_argument("--hand", type=_count(1, lang), default=None, metavar="K", help=h("review.hand"))
    p.add_argument("--json", action="store_true", help=h("review.json"))
    _lang_option(p, lang)
    p.set_defaults(func=_cmd_review)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = argv_lang(argv)
    try:
        with _argparse_words(lang):
            args = build_parser(lang).parse_args(argv)
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
