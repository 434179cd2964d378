"""`tienlen serve` refuses what it cannot use with a reason, not a traceback, and keeps its
database in the user's data folder (or where it found one), never littering the working folder."""

from __future__ import annotations

from pathlib import Path

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


def test_serve_refuses_redis_without_a_shared_database(capsys: pytest.CaptureFixture[str]) -> None:
    """A room of many processes shares one PostgreSQL: --redis with SQLite (the default, or
    named) is refused, saying so; so is a URL that is no Redis's, and a Redis that is not there."""
    assert main(["serve", "--redis", "redis://127.0.0.1:6379/0"]) == 2
    assert "share a PostgreSQL database" in capsys.readouterr().err
    assert main(["serve", "--redis", "redis://127.0.0.1:6379/0", "--db", "sqlite:///x.db"]) == 2
    assert "sqlite is one process's own" in capsys.readouterr().err
    pg = "postgresql+psycopg://nobody@127.0.0.1:1/none"
    assert main(["serve", "--redis", "http://127.0.0.1:6379", "--db", pg]) == 2
    assert "--redis must be a Redis URL" in capsys.readouterr().err
    assert main(["serve", "--redis", "redis://127.0.0.1:1/0", "--db", pg]) == 2
    assert "no Redis answers at 'redis://127.0.0.1:1/0'" in capsys.readouterr().err


def test_serve_refuses_a_limit_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--idle-expiry", "0"]) == 2
    assert "idle-expiry must be more than 0" in capsys.readouterr().err


# ---------------------------------------------------------------------- where the database is kept
@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[object]:
    """``tienlen serve`` as far as its start-up lines, in the folder ``tmp_path/work`` with the
    data folder ``tmp_path/data`` (uvicorn is not run: the apps it was given are listed)."""
    import uvicorn

    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("TIENLEN_PURE", "1")  # no compiled engine to prepare
    apps: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: apps.append(app))
    return apps


def test_serve_keeps_its_database_in_the_users_data_folder(
        started: list[object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 0 and len(started) == 1
    kept = tmp_path / "data" / "tienlen" / "tienlen.sqlite3"
    assert f"(database sqlite:///{kept})" in capsys.readouterr().out.splitlines()[0]
    assert kept.is_file()
    assert list((tmp_path / "work").iterdir()) == []  # no tienlen.sqlite3, -wal or -shm here
    assert main(["admin", "list"]) == 0  # tienlen admin looks in the same place
    assert list((tmp_path / "work").iterdir()) == []


def test_serve_keeps_using_a_database_in_the_working_folder(
        started: list[object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tienlen.web.schema import open_repository

    here = tmp_path / "work" / "tienlen.sqlite3"
    open_repository(f"sqlite:///{here}").close()  # a server started here before
    assert main(["serve", "--lang", "vi"]) == 0
    first, said = capsys.readouterr().out.splitlines()[:2]
    assert first.endswith(f"(cơ sở dữ liệu sqlite:///{here})")
    assert said == (f"tienlen: cơ sở dữ liệu là {here}, có sẵn trong thư mục này, nơi các máy chủ "
                    "trước đây vẫn giữ nó (nếu ở đây không có, nó được giữ trong "
                    f"{tmp_path / 'data' / 'tienlen'}; --db chọn một cơ sở dữ liệu khác)")
    assert not (tmp_path / "data").exists()


def test_serve_uses_the_database_it_is_given(started: list[object], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    given = tmp_path / "given.sqlite3"
    assert main(["serve", "--db", f"sqlite:///{given}"]) == 0
    assert f"(database sqlite:///{given})" in capsys.readouterr().out
    assert given.is_file() and not (tmp_path / "data").exists()


def test_git_ignores_the_sqlite_files_a_server_leaves() -> None:
    import subprocess

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["tienlen.sqlite3", "tienlen.sqlite3-wal", "tienlen.sqlite3-shm"]
    done = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=root,
                          capture_output=True, text=True, timeout=30)
    assert done.stdout.split() == names
