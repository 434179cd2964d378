"""The page's files (``web/static/``, plain ES modules in folders by job: ``lib``, ``table``,
``lobby``, ``people``): each ships in the wheel, and each import names a file that is there and
names it exports (the browser would refuse the whole page otherwise)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tienlen"
STATIC = PACKAGE / "web" / "static"
IMPORT = re.compile(r'import\s*\{([^}]*)\}\s*from\s*"([^"]+)"')


def _exports(text: str) -> set[str]:
    named = re.findall(r"export\s+(?:async\s+)?(?:function|class|const|let)\s+([\w$]+)", text)
    listed = [n.strip() for group in re.findall(r"export\s*\{([^}]*)\}", text) for n in group.split(",")]
    return set(named) | {n for n in listed if n}


def test_every_page_file_ships_in_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["tienlen"]
    shipped = {p for pattern in patterns for p in PACKAGE.glob(pattern) if p.is_file()}
    files = {p for p in STATIC.rglob("*") if p.is_file()}
    assert files and sorted(str(p.relative_to(STATIC)) for p in files - shipped) == []


def test_every_import_of_the_page_names_a_file_and_what_it_exports() -> None:
    wrong = []
    for path in sorted(STATIC.rglob("*.js")):
        for names, spec in IMPORT.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / spec).resolve()
            where = f"{path.relative_to(STATIC)}: {spec}"
            if not spec.startswith(".") or not target.is_file():
                wrong.append(f"{where} (no such file)")
                continue
            asked = {n.strip() for n in names.split(",") if n.strip()}
            missing = asked - _exports(target.read_text(encoding="utf-8"))
            wrong += [f"{where} exports no {n}" for n in sorted(missing)]
    assert wrong == []
