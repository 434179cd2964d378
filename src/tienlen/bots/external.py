"""External bots in any language: a JSON-lines conversation over a subprocess's stdin/stdout.

For each decision the bot gets one line, a JSON object (``view_to_json``), and
answers with one line ``{"action": "TEXT"}`` where TEXT is one of ``legal``.
A bot that crashes, answers late, or answers with anything but a legal action
raises :class:`BotFailure`; the arena then plays ``random`` for that seat for
the rest of the hand and reports it.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from typing import IO, TYPE_CHECKING, Any

from ..errors import TienLenError, error
from ..i18n import Msg, msg, os_reason, render
from .protocol import view_to_json

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View


class BotFailure(TienLenError):
    """An external bot crashed, hung, or answered with an illegal or malformed action.
    ``stderr``: the last lines the bot wrote to its standard error; ``what``: the failure
    without the bot's name, as a message ("crashed (…)"), ``reason`` the whole of it."""

    def __init__(self, message: str, stderr: str = "", what: Msg | None = None) -> None:
        super().__init__(message)
        self.stderr = stderr
        self.what = what


def _failure(name: str, stderr: str, key: str, /, **params: Any) -> BotFailure:
    """The failure ``key`` (``err.extbot.*``) of the bot ``name``: "NAME crashed (…)"."""
    what = Msg(key, params)
    reason = msg("err.extbot.failure", name=name, what=what)
    failure = BotFailure(render(reason), stderr, what)
    failure.reason = reason
    return failure


def _settle(proc: subprocess.Popen[bytes]) -> None:
    """Give a bot whose pipes closed a moment to exit (so its exit code is known)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=1.0)


class ExternalBot:
    """A bot run as ``COMMAND`` (``cmd:COMMAND`` in a tournament), one process per bot."""

    def __init__(self, command: str, seed: int | None = None, time_limit: float = 5.0) -> None:
        if not command.strip():
            raise error(TienLenError, "err.bot.no_command")
        self.command = command
        self.name = f"cmd:{command}"
        self.time_limit = time_limit
        self.seed = seed
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._stderr: IO[bytes] | None = None  # a temporary file that keeps the bot's stderr

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        if self.seed is not None:
            env["TIENLEN_BOT_SEED"] = str(self.seed)
        try:
            args = shlex.split(self.command)
        except ValueError as exc:
            raise _failure(self.name, "", "err.extbot.could_not_start", error=str(exc)) from None
        self._close_stderr()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the bot runs)
        try:
            self._buffer = b""
            return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=self._stderr, env=env)
        except OSError as exc:
            raise _failure(self.name, "", "err.extbot.could_not_start",
                           error=os_reason(exc)) from None

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the bot wrote to its standard error ('' when none)."""
        err = self._stderr
        if err is None:
            return ""
        try:
            err.flush()
            size = err.seek(0, os.SEEK_END)
            err.seek(max(0, size - 4096))
            text = err.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def _fail(self, key: str, /, **params: Any) -> BotFailure:
        """Stop the bot and make the failure ``key``, with the end of its standard error."""
        self._kill()
        return _failure(self.name, self.stderr_tail(), key, **params)

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()
            self._stderr = None

    def choose(self, view: View) -> Move:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            proc = self._proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(view_to_json(view)).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            _settle(proc)
            raise self._fail("err.extbot.input_closed", code=proc.poll()) from None
        line = self._read_line(proc.stdout, self.time_limit)
        if line is None:
            raise self._fail("err.extbot.no_answer", seconds=f"{self.time_limit:g}")
        if not line:
            _settle(proc)
            raise self._fail("err.extbot.output_closed", code=proc.poll())
        try:
            answer = json.loads(line)
            text = answer["action"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            raise _failure(self.name, self.stderr_tail(), "err.extbot.malformed",
                           line=repr(line.strip()[:80])) from None
        for move in view.legal:
            if str(move) == text.strip():
                return move
        raise _failure(self.name, self.stderr_tail(), "err.extbot.illegal", text=repr(text))

    def _read_line(self, stream: IO[bytes], limit: float) -> str | None:
        """One line from the bot ('' at end of output), or None when none came in time."""
        deadline = time.monotonic() + limit
        fd = stream.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None
                chunk = os.read(fd, 65536)
                if not chunk:
                    return ""
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace") or " "

    def close(self) -> None:
        self._kill()
        self._close_stderr()

    def _kill(self) -> None:
        proc = self._proc
        self._proc = None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):  # unsent input to a dead bot
                        stream.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # closing at interpreter exit
            self.close()
