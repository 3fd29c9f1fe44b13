"""`cherry-desktop --qt-probe`: start Qt's platform plugin and print its name (exit 0).

`doctor` runs it in a subprocess (`cherry_desktop.core.app.qt_platform.probe_platform`): when the
plugin cannot load, Qt aborts this process, not the doctor.
"""

from __future__ import annotations

import sys


def run_probe() -> int:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    sys.stdout.write(f"{app.platformName()}\n")
    sys.stdout.flush()
    return 0
