"""What the players read, in their language: one message catalogue per language.

The catalogues are ``en.json`` and ``vi.json`` beside this module: flat objects from a message
key to a whole sentence with named placeholders (``"{name} wins the hand"``). The same files
are served to the web page (``/i18n/vi.json``), so the page and the server say the same words.
Standard library only (the engine stays free of third-party packages); docs/i18n.md says why a
plain catalogue rather than gettext.

A message that is built from parts (a refused play naming a combination) is a :class:`Msg`: its
key and its parameters, where a parameter may itself be a :class:`Msg` (a noun phrase, said in
the same language) or a list of them (said as "a or b"). The API, the records and the error
classes stay language-neutral; only :func:`render` picks words.

>>> t("end.you_win", "vi")
'Bạn thắng ván này!'
>>> card_name("Qh", "vi"), card_name("Qh", "en")
('quân đầm cơ', 'queen of hearts')
>>> pick_lang("vi-VN,vi;q=0.9,en;q=0.8"), pick_lang("fr_FR.UTF-8"), pick_lang("vi_VN.UTF-8")
('vi', 'en', 'vi')
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Final, NamedTuple

LANGS: Final = ("en", "vi")
DEFAULT: Final = "en"
PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


class Msg(NamedTuple):
    """A message not yet put in words: its catalogue key and its parameters."""

    key: str
    params: Mapping[str, Any] = {}

    def __str__(self) -> str:
        return render(self, DEFAULT)


class Parts(NamedTuple):
    """Messages said one after another, joined by ``sep`` (a parameter: ``"a; b"``)."""

    items: tuple[Msg | str, ...]
    sep: str = "; "


class Num(NamedTuple):
    """A number to be written for a reader, by ``spec`` (Python's format: ``",d"``, ``".2f"``,
    ``"+.3f"``): a parameter of a message, put in the reader's way by :func:`number`."""

    value: float
    spec: str = ",d"

    def __str__(self) -> str:
        return number(self.value, self.spec)


_VI_MARKS: Final = str.maketrans(",.", ".,")


def number(value: float, spec: str = ",d", lang: str = DEFAULT) -> str:
    """``value`` formatted by ``spec`` as a reader of ``lang`` writes numbers: in English
    ``1,921`` and ``0.35``, in Vietnamese ``1.921`` and ``0,35`` (the marks swapped).

    >>> number(1921.4, ",.0f", "vi"), number(0.354, ".2f", "vi"), number(-1.5, "+.1f", "en")
    ('1.921', '0,35', '-1.5')
    """
    text = format(value, spec)
    return text.translate(_VI_MARKS) if lang == "vi" else text


class Said(NamedTuple):
    """Words from outside the project (the operating system, the TOML parser, pydantic): their own
    English text, kept exactly as they wrote it, and the same as a message for other languages."""

    english: str
    message: Msg

    def __str__(self) -> str:
        return self.english


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (``en`` or ``vi``), key to text."""
    if lang not in LANGS:
        raise ValueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGS)}")
    text = resources.files("tienlen.i18n").joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def catalogue_text(lang: str) -> str:
    """The catalogue file itself (served to the page)."""
    catalogue(lang)  # checks the name
    return resources.files("tienlen.i18n").joinpath(f"{lang}.json").read_text(encoding="utf-8")


def t(key: str, lang: str = DEFAULT, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled; a missing key falls back to
    English (a test checks that none is missing)."""
    cat = catalogue(lang if lang in LANGS else DEFAULT)
    text = cat.get(key)
    if text is None:
        text = catalogue(DEFAULT)[key]

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in params:
            return m.group(0)
        return _param(params[name], lang)
    return PLACEHOLDER.sub(fill, text)


def tn(key: str, n: int, lang: str = DEFAULT, /, **params: Any) -> str:
    """A message with a count: ``key.one`` for 1, else ``key.other`` (``{n}`` is the count)."""
    form = "one" if n == 1 else "other"
    return t(f"{key}.{form}", lang, n=n, **params)


def _param(value: Any, lang: str) -> str:
    if isinstance(value, Msg | Said):
        return render(value, lang)
    if isinstance(value, Num):
        return number(value.value, value.spec, lang)
    if isinstance(value, Parts):
        return value.sep.join(_param(v, lang) for v in value.items)
    if isinstance(value, list | tuple):
        parts = [_param(v, lang) for v in value]
        if len(parts) <= 1:
            return "".join(parts)
        return t("list.or", lang, first=", ".join(parts[:-1]), last=parts[-1])
    return str(value)


def render(message: Msg | Said | str, lang: str = DEFAULT) -> str:
    """A :class:`Msg` (or a text already in words) in ``lang``."""
    if isinstance(message, str):
        return message
    if isinstance(message, Said):
        return message.english if lang == DEFAULT else render(message.message, lang)
    return t(message.key, lang, **dict(message.params))


def say_error(exc: BaseException, lang: str = DEFAULT) -> str:
    """What an error says, in ``lang`` when it carries its reason as a message (``reason``),
    else its own (English) text."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, Msg | Said | str) and reason:
        return render(reason, lang)
    return str(exc)


# ---------------------------------------------------------------------- words from outside
def os_reason(exc: OSError) -> Said | str:
    """Why the operating system refused (``exc.strerror``: "No such file or directory"), said in
    the reader's language for the common reasons (``os.ENOENT``…), else as the system said it."""
    text = exc.strerror or str(exc) or type(exc).__name__
    name = errno.errorcode.get(exc.errno) if isinstance(exc.errno, int) else None
    key = f"os.{name}"
    if name and key in catalogue(DEFAULT):
        return Said(text, Msg(key))
    return text


_TOML_AT: Final = re.compile(r"(?s)(?P<what>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)"
                             r"|end of document)\)")
_TOML_WITH: Final = (  # the parser's sentences with a value in them, as tomllib writes them
    (re.compile(r"Illegal character (?P<x>.+)"), "toml.illegal_character"),
    (re.compile(r"Found invalid character (?P<x>.+)"), "toml.invalid_character"),
    (re.compile(r"Duplicate inline table key (?P<x>.+)"), "toml.duplicate_key"),
    (re.compile(r"Cannot redefine namespace (?P<x>.+)"), "toml.redefine"),
    (re.compile(r"Cannot mutate immutable namespace (?P<x>.+)"), "toml.immutable"),
    (re.compile(r"Cannot declare (?P<x>.+) twice"), "toml.twice"),
    (re.compile(r"Expected (?P<x>'[^']*')"), "toml.expected"),
    (re.compile(r"Nested too deeply \(more than (?P<x>\d+) levels\)"), "toml.too_deep"),  # tomltext
)


def toml_reason(exc: ValueError) -> Said | str:
    """The TOML parser's description of a syntax error ("Invalid value (at line 1, column 9)")
    said in the reader's language: the sentence (``toml.text.<English>`` or ``toml.*``) and where
    it is; a sentence the catalogue does not know stays as the parser wrote it."""
    text = str(exc)
    m = _TOML_AT.fullmatch(text)
    what_text = m.group("what") if m else text
    what: Msg | str = what_text
    if f"toml.text.{what_text}" in catalogue(DEFAULT):
        what = Msg(f"toml.text.{what_text}")
    else:
        for pattern, key in _TOML_WITH:
            found = pattern.fullmatch(what_text)
            if found:
                what = Msg(key, {"x": found.group("x")})
                break
    if m is None:
        return Said(text, what) if isinstance(what, Msg) else text
    if m.group("line"):
        return Said(text, Msg("toml.at", {"what": what, "line": m.group("line"),
                                          "column": m.group("column")}))
    return Said(text, Msg("toml.at_end", {"what": what}))


def validation_reason(error: Mapping[str, Any]) -> Said | str:
    """pydantic's description of a bad value (one of ``ValidationError.errors()``), said in the
    reader's language by its ``type`` (``valid.int_parsing``…), else as pydantic wrote it."""
    text = str(error.get("msg", ""))
    key = f"valid.{error.get('type')}"
    if key not in catalogue(DEFAULT):
        return text
    ctx = dict(error.get("ctx") or {})
    if isinstance(ctx.get("expected"), str):  # "'a' or 'b'": the "or" in the reader's words
        ctx["expected"] = Said(ctx["expected"], Msg("valid.expected", {
            "list": ctx["expected"].replace(" or ", ", ")}))
    return Said(text, Msg(key, ctx))


def pick_lang(value: str | None, default: str = DEFAULT) -> str:
    """The language of an Accept-Language header or a locale (``vi_VN.UTF-8``): the first of
    ours named, else ``default``."""
    if not value:
        return default
    for part in value.split(","):
        tag = part.split(";")[0].strip().lower().replace("_", "-").split(".")[0]
        base = tag.split("-")[0]
        if base in LANGS:
            return base
    return default


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment: LC_ALL, then LC_MESSAGES, then LANG (as gettext reads
    them); English when none names Vietnamese."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return pick_lang(value)
    return DEFAULT


# ---------------------------------------------------------------------- columns
def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: a combining mark none (a Vietnamese letter written
    decomposed, "e" + U+0302), a wide or full-width character two (East Asian), others one."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def pad(text: str, columns: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (``<`` left, ``>`` right)."""
    fill = " " * max(0, columns - width(text))
    return text + fill if align == "<" else fill + text


def label_rows(rows: list[tuple[str, str]], indent: str = "  ") -> list[str]:
    """Lines of ``label value``, the values in one column after the widest label (an empty label
    continues the row above)."""
    column = max(width(label) for label, _ in rows)
    return [f"{indent}{pad(label, column)} {value}" for label, value in rows]


# ---------------------------------------------------------------------- names
BOT_NAME: Final = re.compile(r"Bot ([1-9]\d*)")
YOU: Final = "You"


def bot_name(n: int) -> str:
    """The name a bot's seat is given, the same in every language (records keep it)."""
    return f"Bot {n}"


def display_name(name: str, lang: str = DEFAULT) -> str:
    """A seat's name as shown in ``lang``: the names the program gives ("Bot 2", "You") in its
    words ("Máy 2", "Bạn"); a name a player chose as it is."""
    m = BOT_NAME.fullmatch(name)
    if m:
        return t("tui.bot_name", lang, n=int(m.group(1)))
    return t("tui.you_name", lang) if name == YOU else name


def rules_name(name: str, lang: str = DEFAULT) -> str:
    """A rule set's name as shown in ``lang``: a preset's display name ("Miền Nam (Southern)",
    "Miền Nam"), any other name (a house-rules file's) as it is."""
    key = f"preset.name.{name}"
    return t(key, lang) if key in catalogue(DEFAULT) else name


# ---------------------------------------------------------------------- cards
def card_name(card: str, lang: str = DEFAULT) -> str:
    """A card's name for a screen reader: ``card_name("Qh", "vi") == "đầm cơ"``."""
    rank, suit = card[:-1], card[-1].lower()
    return t("card.name", lang, rank=t(f"rank.{rank}", lang), suit=t(f"suit.{suit}", lang))
