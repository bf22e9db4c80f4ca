"""Any game's view as plain text: the drawing of a game that brings no drawing of its own (its registry entry
gives no ``table`` piece), shared by the terminal's plain table (:mod:`flametable.cli.generic`) and the learning
environments' ``render()`` (:mod:`flametable.rl.aec`)."""

from __future__ import annotations

import json
from typing import Any


def view_text(view: Any) -> str:
    """A view as plain text: JSON for plain data, else the view's own ``str``."""
    if isinstance(view, dict | list | tuple | str | int | float | bool) or view is None:
        return json.dumps(view, ensure_ascii=False, default=str)
    return str(view)
