"""`python -m tracker …` is `tracker …` (the TUI runs crawls this way, in a child process)."""

import sys

from tracker.cli import main

sys.exit(main())
