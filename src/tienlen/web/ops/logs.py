"""The server's logs as JSON lines (``tienlen serve --log-json``): one object a line on stderr,
for a log collector to read without parsing prose.

Each line: ``time`` (UTC, ISO 8601, milliseconds), ``level`` (``INFO``, ``WARNING``, ...),
``logger``, ``pid`` and ``process`` (:func:`.process.name`: ``HOST:PID`` unless given another),
``event`` (the message, as the plain log says it), ``table`` when the record carries one (a log
call's ``extra={"table": id}``), and ``error`` (the traceback) when one was logged. The
standard library's ``logging`` with :class:`JsonLines` as its formatter: a few lines of
``json.dumps``, no extra package for it.

:func:`config` is the ``logging.config.dictConfig`` that gives uvicorn's loggers and the
``tienlen`` ones this formatter (at the levels they have without the option: uvicorn's at
warning, as ``tienlen serve`` runs it; the ``tienlen`` ones from info, which is where the
start-up lines are said, :func:`say`). Without the option nothing is configured and the logs
stay as they are.
"""

from __future__ import annotations

import json
import logging
import logging.config
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from . import process

log = logging.getLogger("tienlen.web")


class JsonLines(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "pid": record.process,
            "process": process.name(), "event": record.getMessage()}
        table = getattr(record, "table", None)
        if table is not None:
            line["table"] = str(table)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def config() -> dict[str, Any]:
    """The logging configuration of ``--log-json`` (``logging.config.dictConfig``'s): uvicorn's
    loggers and ``tienlen``'s through one stderr handler that writes :class:`JsonLines`."""
    handler = {"handlers": ["json"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,  # the modules' loggers, made at import, log on
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json",
                              "stream": "ext://sys.stderr"}},
        "loggers": {"uvicorn": {**handler, "level": "INFO"},
                    "uvicorn.error": {"level": "INFO"},  # through "uvicorn"'s handler
                    "uvicorn.access": {**handler, "level": "INFO"},
                    "tienlen": {**handler, "level": "INFO"}},
    }


def start() -> Callable[[str], None]:
    """Make the logs JSON lines from now on (:func:`config`); what says a start-up line."""
    logging.config.dictConfig(config())
    return say


def say(text: str) -> None:
    """A start-up line (``tienlen serve``'s), as a log line: info of ``tienlen.web``."""
    log.info(text)
