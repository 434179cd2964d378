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


def test_serve_states_each_limit_and_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (("--max-tables", "20000"), ("--tables-per-client", "20"),
                            ("--tables-per-address", "200"), ("--creates-per-minute", "10"),
                            ("--creates-per-address", "100"), ("--messages-per-second", "20"),
                            ("--messages-per-address", "400"),
                            ("--connections-per-address", "500"), ("--max-body", "65536"),
                            ("--replays-per-client", "4"), ("--idle-expiry", "7200")):
        assert option in text
        assert f"(default: {default}" in text.split(option, 2)[-1], option  # as every --help says it


def test_serve_refuses_a_limit_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--idle-expiry", "0"]) == 2
    assert "idle-expiry must be more than 0" in capsys.readouterr().err
