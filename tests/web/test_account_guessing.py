"""Guessing an account's password is slowed, and strangers' guesses never shut its owner out:
the owner's own browsers, a right recovery code and a signed-in session's own password checks
pass however many wrong guesses others made at the name (issue 32, item 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from tienlen.web.accounts import accounts as accounts_module
from tienlen.web.accounts.accounts import NAME_CEILING, Accounts
from tienlen.web.accounts.identity import SqlIdentityStore
from tienlen.web.accounts.rows import DeviceRow
from tienlen.web.accounts.session import stored_as
from tienlen.web.limits import Limits, RateLimit
from tienlen.web.refusal import Refused
from tienlen.web.schema import open_repository

from .conftest import Server, Visitor
from .manual_time import ManualTime
from .test_accounts import PASSWORD, browser, claimed, count
from .waiting import in_a_thread


@pytest.fixture(autouse=True)
def fast_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords "hashed" as themselves: these tests count tries (argon2's work is
    test_accounts.py's)."""
    async def hashed(password: str) -> str:
        return "plain:" + password

    async def verified(stored: str | None, password: str) -> bool:
        return stored == "plain:" + password

    monkeypatch.setattr(accounts_module, "hash_password", hashed)
    monkeypatch.setattr(accounts_module, "verify_password", verified)
    monkeypatch.setattr(accounts_module, "needs_rehash", lambda stored: False)


TRIES = 3  # a name's tries from one place in these tests (10 by default: each costs a hash)


def few_tries(server: Server) -> None:
    accounts = server.app.state.accounts
    accounts.per_place = RateLimit(TRIES, 600.0, server.clock)
    accounts.per_session = RateLimit(TRIES, 600.0, server.clock)


def flood(server: Server, name: str = "Lan") -> Visitor:
    """A stranger's browser that guessed ``name``'s password wrong until it was answered 429."""
    few_tries(server)
    attacker = browser(server)
    answers = [attacker.post("/api/account/signin", {"name": name, "password": f"guess {i}"})
               for i in range(TRIES + 1)]
    assert [a.status_code for a in answers] == [401] * TRIES + [429]
    return attacker


def test_a_strangers_guesses_never_refuse_the_owners_own_browser(any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    lan, _ = claimed(server)  # this browser signed in to Lan (by claiming it)
    phone = browser(server)
    assert phone.post("/api/account/signin", {"name": "Lan", "password": PASSWORD}).is_success
    lan.post("/api/account/signout")
    phone.post("/api/account/signout")
    attacker = flood(server)  # from the same address as the owner, even
    assert attacker.post("/api/account/signin",
                         {"name": "Lan", "password": PASSWORD}).status_code == 429
    for owner in (lan, phone):  # both browsers signed in to Lan before
        again = owner.post("/api/account/signin", {"name": "Lan", "password": PASSWORD})
        assert again.status_code == 200 and again.json()["me"]["name"] == "Lan"
    assert count(server, DeviceRow) == 2


def test_a_browser_known_to_another_account_earns_nothing_here(server: Server) -> None:
    attacker, _ = claimed(server, "Minh")  # the attacker's browser is known to his own account
    own = attacker.http.cookies["tienlen_known"]
    victim = server.visitor()  # he plants his cookies in the owner's browser before she claims
    for name in ("tienlen_known", "tienlen_dev"):
        victim.http.cookies.set(name, attacker.http.cookies[name], domain="127.0.0.1")
    assert victim.post("/api/account/claim", {"name": "Lan", "password": PASSWORD}).is_success
    assert victim.http.cookies["tienlen_known"] != own  # her claim gave her a secret of her own
    few_tries(server)
    answers = [attacker.post("/api/account/signin", {"name": "Lan", "password": f"guess {i}"})
               for i in range(TRIES + 1)]
    assert [a.status_code for a in answers] == [401] * TRIES + [429]
    victim.post("/api/account/signout")
    assert victim.post("/api/account/signin",
                       {"name": "Lan", "password": PASSWORD}).status_code == 200


def test_a_right_recovery_code_is_never_refused_for_others_guesses(server: Server) -> None:
    _, answer = claimed(server)
    codes = answer["recovery_codes"]
    flood(server)
    lost = browser(server)  # a browser that never signed in to Lan, behind the same address
    wrong = lost.post("/api/account/recover", {"name": "Lan", "code": "abcd-efgh-jkmn-pqrs",
                                               "new_password": "a new one!"})
    assert wrong.status_code == 429  # a wrong code is a try like any other
    right = lost.post("/api/account/recover", {"name": "Lan", "code": codes[0],
                                               "new_password": "a new one!"})
    assert right.status_code == 200 and right.json()["me"]["name"] == "Lan"
    used = browser(server).post("/api/account/recover", {"name": "Lan", "code": codes[0],
                                                         "new_password": "a third one"})
    assert used.status_code == 429  # used up: now only a wrong code, counted


@pytest.mark.parametrize("path, body", [
    ("/api/account/password", {"password": PASSWORD, "new_password": "a better one"}),
    ("/api/account/codes", {"password": PASSWORD}),
    ("/api/account/delete", {"password": PASSWORD}),
])
def test_a_signed_in_sessions_own_checks_are_its_own(server: Server, path: str,
                                                     body: dict[str, Any]) -> None:
    lan, _ = claimed(server)
    flood(server)
    assert lan.post(path, body).status_code == 200
    assert count(server, DeviceRow) == (0 if path.endswith("delete") else 1)


def test_a_sessions_own_wrong_passwords_are_limited_for_it_alone(server: Server) -> None:
    lan, _ = claimed(server)
    phone = browser(server)
    phone.post("/api/account/signin", {"name": "Lan", "password": PASSWORD})
    few_tries(server)
    wrong = {"password": "not the password", "new_password": "whatever it is"}
    answers = [phone.post("/api/account/password", wrong) for _ in range(TRIES + 1)]
    assert [a.status_code for a in answers] == [403] * TRIES + [429]
    assert "in this session" in answers[-1].json()["detail"]
    assert lan.post("/api/account/codes", {"password": PASSWORD}).status_code == 200
    assert browser(server).post("/api/account/signin",
                                {"name": "Lan", "password": PASSWORD}).status_code == 200


# ---------------------------------------------------------------- many addresses, one clock
@pytest.fixture
def accounts(tmp_path: Path) -> Iterator[tuple[Accounts, ManualTime]]:
    clock = ManualTime()
    repo = open_repository(f"sqlite:///{tmp_path / 'accounts.sqlite3'}")
    yield Accounts(SqlIdentityStore(repo.engine, clock), clock,
                   Limits(signins_per_name=3, signins_per_address=1000)), clock
    repo.close()


def claim_lan(acc: Accounts) -> str:
    """Lan claimed; its owner's browser, as the account knows it."""
    done = in_a_thread(acc.claim(None, "Lan", PASSWORD, None, ""))
    assert done.known is not None
    return stored_as(done.known)


def signin(acc: Accounts, password: str, address: str, known: str | None = None,
           name: str = "Lan") -> int:
    """The status a sign-in answers (200: signed in)."""
    try:
        in_a_thread(acc.signin(name, password, address, None, "", known))
    except Refused as exc:
        return exc.status
    return 200


def test_guessing_from_many_addresses_meets_the_names_ceiling(
        accounts: tuple[Accounts, ManualTime]) -> None:
    acc, clock = accounts
    phone = claim_lan(acc)
    ceiling = 3 * NAME_CEILING
    assert [signin(acc, "guess", f"10.0.0.{i}") for i in range(ceiling)] == [401] * ceiling
    assert signin(acc, "guess", "10.0.1.1") == 429  # a new address: the name has had its tries
    assert signin(acc, PASSWORD, "10.0.1.2") == 429  # the right password too, from a stranger
    assert signin(acc, PASSWORD, "10.0.1.3", known=phone) == 200  # not the owner
    # the owner's browser is counted alone: its own wrong tries are limited as everyone's
    assert [signin(acc, "oops", "10.0.1.3", phone) for _ in range(3)] == [401, 401, 429]
    clock.now += 600.0  # ten minutes on, the tries are back
    assert signin(acc, PASSWORD, "10.0.2.1") == 200


def test_an_unknown_name_and_an_account_are_limited_alike(
        accounts: tuple[Accounts, ManualTime]) -> None:
    acc, _ = accounts
    claim_lan(acc)
    for name in ("Lan", "Nobody"):
        answers = []
        for _ in range(4):
            try:
                in_a_thread(acc.signin(name, "guess", "10.0.0.1", None, "", stored_as("x" * 43)))
            except Refused as exc:
                answers.append((exc.status, exc.reason.key))
        assert answers == [(401, "err.web.account_wrong")] * 3 + [(429, "err.web.account_tries")]
