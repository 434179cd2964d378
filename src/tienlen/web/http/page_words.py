"""The page's own words: the part of a language's catalogue the page's files name, so that a
browser is not sent the terminal's and the command line's too (the whole catalogue is about
four times as large).

A key is the page's when a string in its files (``static/``: scripts and the HTML) is the key,
or the start of it followed by a dot: ``"web.room.pass"``, ``tn("web.hands", n)`` (its ``.one``
and ``.other``), ``t(`chat.phrase.${key}`)`` (every ``chat.phrase.`` key). A key made any other
way would be shown as itself; a test walks the page in both languages for that.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path

from ...i18n import catalogue

# a quoted key ("web.room.pass"), or the start of a template naming keys (`chat.phrase.${,
# `rank.${)
_NAMED = re.compile(r"""["'`]([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+)["'`]"""
                    r"""|`([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\.\$\{""")
PAGE_FILES = (".js", ".html")


def named_in(texts: Iterable[str]) -> frozenset[str]:
    """The keys, or starts of keys, that ``texts`` name (see the module's text)."""
    return frozenset(m.group(1) or m.group(2) for text in texts for m in _NAMED.finditer(text))


def page_keys(keys: Iterable[str], named: frozenset[str]) -> list[str]:
    """Those of ``keys`` that are ``named``, or that start with a named one and a dot."""
    out = []
    for key in keys:
        parts = key.split(".")
        if any(".".join(parts[:k]) in named for k in range(1, len(parts) + 1)):
            out.append(key)
    return out


@functools.cache
def _named(static: Path) -> frozenset[str]:
    return named_in(path.read_text(encoding="utf-8") for path in sorted(static.rglob("*"))
                    if path.suffix in PAGE_FILES)


def page_catalogue(lang: str, static: Path) -> dict[str, str]:
    """The page's words in ``lang`` (``static``: the page's files), English where ``lang``
    has none: the page loads this one file."""
    english = catalogue("en")
    words = {**english, **catalogue(lang)}
    return {key: words[key] for key in page_keys(words, _named(static))}


def page_catalogue_text(lang: str, static: Path) -> str:
    """:func:`page_catalogue` as the page is sent it (JSON)."""
    return json.dumps(page_catalogue(lang, static), ensure_ascii=False, separators=(",", ":"))
