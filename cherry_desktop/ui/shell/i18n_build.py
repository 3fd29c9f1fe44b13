"""`python -m cherry_desktop.ui.shell.i18n_build [build|update]`: compile `.ts` to `.qm` (build,
the default; run at install / packaging time) or re-extract source strings (update)."""

from __future__ import annotations

import sys

from cherry_desktop.ui.shell.i18n import build, update_sources


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if args and args[0] == "update":
        update_sources()
        return 0
    built = build()
    for qm in built:
        sys.stdout.write(f"{qm}\n")
    return 0 if built else 1


if __name__ == "__main__":
    sys.exit(main())
