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
import time
from typing import IO, TYPE_CHECKING

from ..errors import TienLenError
from .protocol import view_to_json

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View


class BotFailure(TienLenError):
    """An external bot crashed, hung, or answered with an illegal or malformed action."""


class ExternalBot:
    """A bot run as ``COMMAND`` (``cmd:COMMAND`` in a tournament), one process per bot."""

    def __init__(self, command: str, seed: int | None = None, time_limit: float = 5.0) -> None:
        if not command.strip():
            raise TienLenError("an external bot needs a command, such as 'cmd:python bot.py'")
        self.command = command
        self.name = f"cmd:{command}"
        self.time_limit = time_limit
        self.seed = seed
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        if self.seed is not None:
            env["TIENLEN_BOT_SEED"] = str(self.seed)
        try:
            self._buffer = b""
            return subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        except OSError as exc:
            raise BotFailure(f"{self.name} could not start: {exc.strerror}") from None

    def choose(self, view: View) -> Move:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            proc = self._proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(view_to_json(view)).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise BotFailure(f"{self.name} crashed (its input closed)") from None
        line = self._read_line(proc.stdout, self.time_limit)
        if line is None:
            self.close()
            raise BotFailure(f"{self.name} gave no answer within {self.time_limit:g} s")
        if not line:
            self.close()
            raise BotFailure(f"{self.name} crashed (its output closed, exit code {proc.poll()})")
        try:
            answer = json.loads(line)
            text = answer["action"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            raise BotFailure(f"{self.name} answered {line.strip()[:80]!r}, not "
                             '{"action": "TEXT"}') from None
        for move in view.legal:
            if str(move) == text.strip():
                return move
        raise BotFailure(f"{self.name} answered {text!r}, which is not a legal action")

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
        proc = self._proc
        self._proc = None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # closing at interpreter exit
            self.close()
