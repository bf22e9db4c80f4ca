"""The store's errors: every database failure reaches a caller as :class:`StoreError`, the driver's exception as
its ``__cause__``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import exc as sa_exc


class StoreError(Exception):
    """The database refused or failed (connection lost, constraint): the caller keeps its state as it was."""


class Conflict(StoreError):
    """A row that should be new exists already (an action index taken twice): another writer got there first."""


class LeaseLost(StoreError):
    """A fenced write (``fence`` given) refused: this process no longer holds the room's lease with that fence (it
    expired, was released, or another process took the room). Nothing was written; the room is no longer this
    process's to drive (``room_id``: the room, when known)."""

    def __init__(self, what: str, fence: int, room_id: str | None = None) -> None:
        self.fence = fence
        self.room_id = room_id
        room = f"the room {room_id}" if room_id is not None else "its room"
        super().__init__(f"{what}: this server no longer holds {room} (its lease with fence {fence} is lost: "
                         "expired, released or taken by another server); nothing was written")


class MatchOver(StoreError):
    """A write to a match that is no longer being played (its stored ``status``: ``"over"``, ``"resigned"``,
    ``"closed"``, ``"expired"``) refused: a stored result is never overwritten, and nothing was written."""

    def __init__(self, what: str, match_id: int, status: str) -> None:
        self.match_id = match_id
        self.status = status
        super().__init__(f"{what}: the match is no longer being played (its status is {status!r}); "
                         "nothing was written")


class UnsupportedDatabase(StoreError):
    """A database URL the server cannot use (``url``: as it was given)."""

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(f"unsupported or malformed database URL {url!r}: give a file path, sqlite:///FILE or "
                         "postgresql://USER@HOST/DATABASE")



@contextmanager
def database_errors(what: str) -> Iterator[None]:
    """A database failure in the block becomes :class:`StoreError` (``what`` failed), its cause kept."""
    try:
        yield
    except StoreError:
        raise
    except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
        raise StoreError(f"{what}: {first_line(exc)}") from exc


def first_line(exc: BaseException) -> str:
    """What went wrong, in the words of the database or its driver: the first line of its message."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def caused(error: StoreError, cause: BaseException) -> StoreError:
    """``error`` with ``cause`` as its ``__cause__``."""
    error.__cause__ = cause
    return error
