"""`tienlen serve` refuses what it cannot use with a reason, not a traceback."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tienlen.cli import main


def test_serve_names_a_database_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "nonsense://nowhere"]) == 2
    assert "cannot use database 'nonsense://nowhere'" in capsys.readouterr().err


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be 1 to 65535" in capsys.readouterr().err
