"""One refusal, wherever the room refuses something: :class:`Refused`.

The table (a command against its rules), the lobby (a table that cannot be made), the limiter
(an action past its limit), the worker pools (too much at once) and the routes (a request that
cannot be answered) all raise it, with what a client needs to know: the reason (a message, said
in the client's language), its kind (``code``), the HTTP status it answers with, and how long to
wait when a limit refused it. It is turned into an answer in one place each: the app's
exception handler makes it an RFC 9457 problem (``problems.py``), the WebSocket an ``Error``
event (``room.error_of``). This module holds no HTTP: it sits at the bottom, below both.
"""

from __future__ import annotations

from ..errors import TienLenError
from ..i18n import Msg, Said, render

RATE_LIMITED = "rate_limited"  # the kind of a refusal by a limit


class Refused(TienLenError):
    """Something refused: ``reason`` the words (a message, said in the asker's language; the
    exception's text is the English), ``code`` its kind on the WebSocket (None: a refusal by
    the rules; over HTTP the kind is its status's, see ``problems.CODES``), ``status`` the HTTP
    status it answers with, ``retry_after`` the seconds to wait (a limit's; None: none)."""

    def __init__(self, reason: str | Msg | Said, code: str | None = None, *, status: int = 400,
                 retry_after: float | None = None) -> None:
        super().__init__(render(reason))
        self.reason = reason
        self.code = code
        self.status = status
        self.retry_after = retry_after

    @classmethod
    def too_many(cls, reason: str | Msg, retry_after: float | None = None,
                 status: int = 429) -> Refused:
        """A refusal by a limit (429 "too many requests", or 503 when all are busy)."""
        return cls(reason, RATE_LIMITED, status=status, retry_after=retry_after)

    def say(self, lang: str) -> str:
        """The reason in ``lang``."""
        return render(self.reason, lang)

    def wait_header(self) -> dict[str, str]:
        """``Retry-After`` (whole seconds, at least 1) when a limit said how long to wait."""
        if not self.retry_after:
            return {}
        return {"Retry-After": str(max(1, round(self.retry_after)))}
