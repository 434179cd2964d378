"""``tienlen admin``: what the command line does to a server's database. Admins are made only
here: each grant and revocation is written to the audit log as the command line's act.

Above ``schema.py``, not in ``moderation/``: it opens the database (every feature's tables made
and migrated, as the server opens it), which only a module above every feature may do.
"""

from __future__ import annotations

from ..errors import TienLenError, error
from .accounts.identity import Identity, SqlIdentityStore
from .accounts.names import account_key
from .moderation.store import COMMAND_LINE, SqlModerationStore
from .schema import open_repository


def set_admin(db_url: str, name: str, admin: bool = True) -> Identity:
    """Make the account ``name`` an admin (or, ``admin`` False, a player again), written to the
    audit log as done by the command line (``tienlen admin grant NAME --db URL``)."""
    repo = open_repository(db_url)
    try:
        who = SqlIdentityStore(repo.engine).by_account(account_key(name))
        if who is None:
            raise error(TienLenError, "err.cli.admin.no_account", name=repr(name))
        SqlModerationStore(repo.engine).set_role(who.id, "admin" if admin else "player",
                                                 COMMAND_LINE)
        return who
    finally:
        repo.close()


def admins(db_url: str) -> list[str]:
    """The names of the admins (``tienlen admin list``)."""
    repo = open_repository(db_url)
    try:
        return [name for _, name in SqlModerationStore(repo.engine).admins()]
    finally:
        repo.close()
