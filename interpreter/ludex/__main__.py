"""``python -m ludex``: the ``ludex`` command (its entry point, ``ludex.command``, sets the handlers
of SIGINT and SIGTERM before the rest of ludex is imported)."""

import sys

from .command import main

sys.exit(main())
