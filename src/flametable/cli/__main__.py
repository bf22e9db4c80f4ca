"""``python -m flametable.cli``: the same as the ``flametable`` command."""

from flametable.cli.main import main

main()
