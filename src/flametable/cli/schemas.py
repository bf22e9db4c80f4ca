"""``python -m flametable.cli.schemas [DIR] [--check]``: the command line of :mod:`flametable.schemas` (the JSON
Schema documents of ``docs/schemas/``)."""

from __future__ import annotations

import sys

from flametable.schemas import main

if __name__ == "__main__":
    sys.exit(main())
