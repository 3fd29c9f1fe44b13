"""`python -m cherry_desktop` does what the `cherry-desktop` command does."""

import sys

from cherry_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
