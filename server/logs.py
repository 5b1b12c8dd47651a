"""The server's log: plain lines, or one JSON object a line (`regent serve --log-format json`)
for a log collector. Neither ever holds a request's content."""

from __future__ import annotations

import json
import logging
import sys
import time

FORMATS = ("text", "json")
_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """`{"time", "level", "logger", "message"}`, plus `method`, `code` and `ms` on a call's
    line and `error` when an exception is logged."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        call = getattr(record, "call", None)
        if isinstance(call, dict):
            line.update(call)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, form: str = "text") -> None:
    """Log at `level` to standard error in the format `form` (one of FORMATS)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(_TEXT))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
