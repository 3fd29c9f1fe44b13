"""Logging to a rotating file under the logs path (and stderr at WARNING)."""

from __future__ import annotations

import io
import logging
import logging.handlers
from pathlib import Path

from cherry_desktop.core.storage.private_files import FILE_MODE, tighten, tighten_files

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(log_file: Path, level: int = logging.INFO, *, max_bytes: int = 5_000_000,
                  backups: int = 5) -> logging.Handler:
    """Install (once per file) a rotating file handler on the root logger."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for h in list(root.handlers):
        if isinstance(h, _PrivateRotatingFileHandler):
            root.removeHandler(h)
            h.close()
    tighten_files(log_file.parent.glob(log_file.name + "*"))  # an older build's logs were 0644
    handler = _PrivateRotatingFileHandler(log_file, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    handler.setFormatter(logging.Formatter(_FORMAT))
    root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    return handler


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """Every log file it opens (the first one, each one after a rollover) is 0600 on POSIX."""

    def _open(self) -> io.TextIOWrapper:
        stream = super()._open()
        tighten(Path(self.baseFilename), FILE_MODE)
        return stream
