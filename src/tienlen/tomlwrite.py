"""A small TOML writer for the values this package writes (the standard library only reads TOML)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any


def value(v: Any) -> str:
    """One TOML value: a bool, int, finite float, string, list of those, or an inline table."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float) and math.isfinite(v):
        return repr(v)  # Python's shortest form reads back as the same float (0.8, 1e-05)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, Mapping):  # an inline table, keys always quoted
        return "{" + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {v!r} as TOML")


def dumps_table(data: Mapping[str, Any]) -> str:
    """Key = value lines for a flat mapping."""
    return "\n".join(f"{key} = {value(v)}" for key, v in data.items())
