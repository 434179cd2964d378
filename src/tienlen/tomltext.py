"""TOML read with a bound on nesting: the standard library's parser, guarded.

``tomllib`` reads arrays and inline tables by recursion, so a short document nested a few
hundred deep (``a = [[[…]]]``, a thousand characters) raises RecursionError instead of a
syntax error; and one nested thousands deep by dotted keys (``a.a.a.… = 1``) is read, but
sends any recursive reader of the result over the same edge. :func:`loads` refuses both as
a :class:`tomllib.TOMLDecodeError` whose message, ``Nested too deeply (more than 32 levels)
(at line 1, column 37)``, is written the way tomllib writes its own (``toml_reason`` in the
i18n says it in Vietnamese too). Every reader of TOML in this package calls it.
"""

from __future__ import annotations

import re
import tomllib
from tomllib import TOMLDecodeError
from typing import Any, Final

__all__ = ["MAX_DEPTH", "NestingError", "TOMLDecodeError", "loads"]

MAX_DEPTH: Final = 32  # arrays and tables inside one another (the document's own not counted)

_NEXT: Final = re.compile(r"""[\[\]{}#"']""")  # what the pre-scan looks at; the rest it skips
_BASIC_END: Final = re.compile(r'["\\\n]')
_MULTI_BASIC_END: Final = re.compile(r'\\.|"""', re.S)


class NestingError(TOMLDecodeError):
    """A TOML document nested deeper than :data:`MAX_DEPTH` (a syntax error, for its readers)."""

    def __init__(self, doc: str, pos: int | None) -> None:
        text = f"Nested too deeply (more than {MAX_DEPTH} levels)"
        if pos is not None:  # where tomllib would say it: lines and columns from 1
            line, column = doc.count("\n", 0, pos) + 1, pos - doc.rfind("\n", 0, pos)
            text += f" (at line {line}, column {column})"
        ValueError.__init__(self, text)  # tomllib's own __init__ differs between versions


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads``, but a document nested deeper than :data:`MAX_DEPTH` is refused
    with :class:`NestingError` (a ``tomllib.TOMLDecodeError``), in linear time."""
    where = _too_deep_at(text)
    if where is not None:
        raise NestingError(text, where)
    try:
        data = tomllib.loads(text)
    except RecursionError:  # the pre-scan misread a malformed document: still a syntax error
        raise NestingError(text, None) from None
    if _deeper_than(data, MAX_DEPTH):  # nested by dotted keys or [a.b.c] headers
        raise NestingError(text, None)
    return data


def _too_deep_at(text: str) -> int | None:
    """Where a ``[`` or ``{`` opens level MAX_DEPTH + 1 (None: nowhere). Strings and comments
    are skipped, a table header counts as its brackets; one pass, never back."""
    level, i = 0, 0
    while (found := _NEXT.search(text, i)) is not None:
        i = found.start()
        c = text[i]
        if c in "[{":
            level += 1
            if level > MAX_DEPTH:
                return i
            i += 1
        elif c in "]}":
            level = max(0, level - 1)
            i += 1
        elif c == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        else:
            i = _string_end(text, i, c)
    return None


def _string_end(text: str, i: int, quote: str) -> int:
    """Just after the string that opens at ``i`` (the end of the text or of the line when it
    is not closed: tomllib says so)."""
    if text.startswith(quote * 3, i):
        if quote == '"':
            end = i + 3
            while (m := _MULTI_BASIC_END.search(text, end)) is not None and m.group() != '"""':
                end = m.end()
            close = m.end() if m is not None else len(text)
        else:
            found = text.find("'''", i + 3)
            close = len(text) if found < 0 else found + 3
        for _ in range(2):  # '''a''''': up to two quotes of the content before the closing three
            if text.startswith(quote, close):
                close += 1
        return close
    if quote == "'":  # a literal string: no escapes, ends at the line's end at the latest
        close = text.find("'", i + 1)
        line_end = text.find("\n", i + 1, len(text) if close < 0 else close)
        end = close if line_end < 0 else line_end
        return len(text) if end < 0 else end + 1
    end = i + 1
    while (m := _BASIC_END.search(text, end)) is not None:
        if m.group() == "\\":
            end = m.end() + 1
        else:
            return m.end()
    return len(text)


def _deeper_than(data: dict[str, Any], most: int) -> bool:
    """Whether arrays and tables lie more than ``most`` deep in ``data`` (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1) for value in data.values()]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            items: Any = value.values()
        elif isinstance(value, list):
            items = value
        else:
            continue
        if level > most:
            return True
        stack.extend((item, level + 1) for item in items)
    return False
