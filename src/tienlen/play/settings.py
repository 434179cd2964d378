"""What the terminal player chose, kept between runs: the bots' pace, auto-pass and the deck's
colours, in ``$XDG_CONFIG_HOME/tienlen/play.toml`` (by default ``~/.config/tienlen/play.toml``).

A file that cannot be read or holds something else (a hand-edited value, a file of another
version) never stops the game: the defaults are played, and the reason is said (what is wrong,
where); the file is written again at the next change. A write goes to a file beside it first and
then takes its place, so a game that stops mid-write leaves the old file whole.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..i18n import t
from ..tomlwrite import dumps_table

PACES = (1.6, 0.8, 0.4, 0.15, 0.0)  # the bots' pauses, seconds, slowest first
MOST_BYTES = 4096  # a settings file is a few lines: a larger one is not this game's


@dataclass(frozen=True)
class PlaySettings:
    """The terminal player's choices."""

    pace: float = 0.8  # the bots' pause between moves, seconds (one of :data:`PACES`)
    auto_pass: bool = False  # pass at once when nothing in the hand beats the table
    four_colour: bool = False  # clubs green, diamonds blue


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's folder for tienlen's settings: ``$XDG_CONFIG_HOME/tienlen``, by default
    ``~/.config/tienlen`` (a relative ``XDG_CONFIG_HOME`` is ignored, as the specification says)."""
    environ = os.environ if environ is None else environ
    config = environ.get("XDG_CONFIG_HOME", "")
    base = Path(config) if config and Path(config).is_absolute() else Path.home() / ".config"
    return base / "tienlen"


def settings_path(environ: Mapping[str, str] | None = None) -> Path:
    return config_dir(environ) / "play.toml"


def load_settings(path: Path, lang: str = "en") -> tuple[PlaySettings, str | None]:
    """The settings kept at ``path`` (the defaults when there is no file yet), and what was
    wrong with the file, if anything (then the defaults, or the values that were right)."""
    try:
        with path.open("rb") as f:
            raw = f.read(MOST_BYTES + 1)
    except FileNotFoundError:
        return PlaySettings(), None
    except OSError as exc:
        return PlaySettings(), t("err.settings.unreadable", lang, path=str(path),
                                 error=exc.strerror or exc.__class__.__name__)
    if len(raw) > MOST_BYTES:
        return PlaySettings(), t("err.settings.too_big", lang, path=str(path), most=MOST_BYTES)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return PlaySettings(), t("err.settings.not_toml", lang, path=str(path), error=str(exc))
    settings, wrong = PlaySettings(), []
    for key, value in data.items():
        if key == "pace" and isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value) and value in PACES:
            settings = replace(settings, pace=float(value))
        elif key in ("auto_pass", "four_colour") and isinstance(value, bool):
            settings = replace(settings, **{key: value})
        else:
            wrong.append(key)
    if wrong:
        return settings, t("err.settings.values", lang, path=str(path),
                           keys=", ".join(repr(k) for k in sorted(wrong)),
                           paces=", ".join(f"{p:g}" for p in PACES))
    return settings, None


def save_settings(settings: PlaySettings, path: Path, lang: str = "en") -> str | None:
    """Keep ``settings`` at ``path`` (its folder made if needed); what went wrong, if anything
    (the game goes on: only the next run forgets)."""
    text = dumps_table({"pace": settings.pace, "auto_pass": settings.auto_pass,
                        "four_colour": settings.four_colour}) + "\n"
    part = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
    except OSError as exc:
        return t("err.settings.unwritable", lang, path=str(path),
                 error=exc.strerror or exc.__class__.__name__)
    return None
