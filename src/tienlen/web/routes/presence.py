"""Who is around: online (at a table of the room, or a browser seen lately), playing (seated at a
started table) and waiting (in quick match's queue). Friends' presence and the lobby's counts
both read it here. Each is asked from a route handler in FastAPI's thread pool: the tables from
the room's directory (``Services.directory``: this process's read on the event loop, the
others' from their entries), the sessions seen from the database."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..accounts.rows import SessionRow
from ..quickmatch.matchqueue import by_queue
from ..services import Services
from ..storage import transaction

ONLINE_SECONDS = 300.0  # a player whose browser was seen this recently is online


def connected(services: Services) -> set[str]:
    """The identities with a connection open to a table of the room."""
    return services.directory.connected()


def playing(services: Services) -> set[str]:
    """The identities seated at a started table of the room."""
    return services.directory.playing()


def online(services: Services, identity_id: str, at_table: bool,
           now: float | None = None) -> bool:
    """Whether ``identity_id`` is online: ``at_table`` now (read in the directory), or a browser
    of theirs seen lately."""
    now = services.clock.wall() if now is None else now
    if at_table:
        return True
    seen = max((s.seen for s in services.identities.sessions(identity_id)), default=0.0)
    return now - seen < ONLINE_SECONDS


def counts(services: Services, now: float | None = None,
           viewer: str | None = None) -> dict[str, Any]:
    """The lobby's counts, which agree: players online (at a table, seen lately, playing or
    waiting, and the ``viewer`` asking: an identity's id, None for a browser not known yet, who
    is online too), playing and waiting; and the queue's pools, the fullest first."""
    now = services.clock.wall() if now is None else now
    here, busy = connected(services), playing(services)
    with transaction(services.repo.engine) as conn:
        seen = {row[0] for row in conn.execute(
            select(SessionRow.identity).distinct().where(SessionRow.seen >= now - ONLINE_SECONDS))}
    waiting = services.queue.waiting()
    online = here | seen | busy | {e.identity for e in waiting}
    asking = 0 if viewer in online else 1  # the browser asking is here, known or not
    pools = sorted(((family, size, len(entries))
                    for (family, size), entries in by_queue(waiting).items()),
                   key=lambda pool: (-pool[2], pool[0], pool[1]))
    return {"online": len(online) + asking, "playing": len(busy), "waiting": len(waiting),
            "pools": [{"family": f, "size": s, "waiting": n} for f, s, n in pools]}
