"""``python -m ludex``: the ``ludex`` command."""

import sys

from .cli import main

sys.exit(main())
