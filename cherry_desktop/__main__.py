"""`python -m cherry_desktop` does what the `cherry-desktop` command does."""

import sys

from cherry_desktop.core.process.process_tie import run_frozen_launcher_if_asked

if __name__ == "__main__":
    # A frozen app is also its own child-process launcher (it has no interpreter to run it).
    run_frozen_launcher_if_asked(sys.argv)
    from cherry_desktop.app import main

    sys.exit(main())
