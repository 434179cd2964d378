"""Write docs/rules/*.md from the engine's rules (tests/test_rules_text.py checks they match).

    python scripts/make_rules_docs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tienlen.rules_text import docs_pages


def main() -> None:
    folder = Path(__file__).resolve().parent.parent / "docs" / "rules"
    folder.mkdir(exist_ok=True)
    for name, text in docs_pages().items():
        (folder / name).write_text(text, encoding="utf-8")
        print(f"wrote {folder / name}")


if __name__ == "__main__":
    main()
