"""`tienlen admin grant|revoke|list`: admins are made only from the command line, and each
grant is in the audit log as the command line's act; `tienlen serve` says how long reports and
chat are kept."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import insert, select

from tienlen.cli import main
from tienlen.web.accounts.names import account_key, confusable_key
from tienlen.web.accounts.rows import IdentityRow
from tienlen.web.moderation.rows import AuditRow
from tienlen.web.schema import open_repository


def database(tmp_path: Path, *names: str) -> str:
    """A server's database holding the accounts ``names`` and a guest called Guest."""
    url = f"sqlite:///{tmp_path / 'tienlen.sqlite3'}"
    repo = open_repository(url)
    with repo.engine.begin() as conn:
        for n, name in enumerate(names):
            conn.execute(insert(IdentityRow), {"id": f"i{n}", "name": name, "created": 0.0,
                                               "account_key": account_key(name),
                                               "look_key": confusable_key(name)})
        conn.execute(insert(IdentityRow), {"id": "iguest", "name": "Guest", "created": 0.0})
    repo.close()
    return url


def audit(url: str) -> list[tuple[str, str, str]]:
    repo = open_repository(url)
    with repo.engine.connect() as conn:
        got = [(r.actor, r.action, r.target) for r in
               conn.execute(select(AuditRow).order_by(AuditRow.id))]
    repo.close()
    return got


def test_grant_revoke_and_list_admins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = database(tmp_path, "Lan", "Minh")
    assert main(["admin", "list", "--db", url]) == 0
    assert "no admins" in capsys.readouterr().out
    assert main(["admin", "grant", "LAN", "--db", url]) == 0  # an account's name, any case
    assert "Lan is an admin" in capsys.readouterr().out
    assert main(["admin", "list", "--db", url]) == 0
    assert capsys.readouterr().out.split() == ["Lan"]
    assert main(["admin", "revoke", "Lan", "--db", url]) == 0
    assert "Lan is no longer an admin" in capsys.readouterr().out
    assert audit(url) == [("command line", "grant", "i0"), ("command line", "revoke", "i0")]


def test_only_an_account_can_be_made_admin(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    url = database(tmp_path, "Lan")
    for name in ("Guest", "Nobody"):
        assert main(["admin", "grant", name, "--db", url]) == 2
        assert f"no account called '{name}'" in capsys.readouterr().err
    assert main(["admin", "grant", "--db", url]) == 2
    assert "needs an account's NAME" in capsys.readouterr().err
    assert main(["--lang", "vi", "admin", "grant", "Nobody", "--db", url]) == 2
    assert "không có tài khoản nào tên" in capsys.readouterr().err
    assert audit(url) == []


@pytest.mark.parametrize(("lang", "words"), [("en", "days a player's report is kept"),
                                             ("vi", "số ngày lưu một báo cáo")])
def test_serve_says_how_long_reports_and_chat_are_kept(lang: str, words: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", lang, "serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert words in text
    for option, default in (("--keep-reports", "180"), ("--keep-chat", "30")):
        assert option in text
        assert default in text.split(option, 2)[-1][:200], option
