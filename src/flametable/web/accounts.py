"""Players' accounts (issue 23): user names, passwords and their hashes, sessions' secrets, and the
:class:`Accounts` that signs players up and in (its store: :class:`~flametable.web.store.AccountStore`; its HTTP
face: :mod:`flametable.web.routes.accounts` and :mod:`flametable.web.sessions`).

**User names** have 3 to 20 characters, each a letter of any script (Unicode's letters, so ``Añil`` and ``Ζωή``
are names), a decimal digit, ``_`` or ``-``; a combining mark may follow a letter (the vowel signs of Indic
scripts). A name is read in its NFKC form (full-width ``Ａｎａ`` is ``Ana``, the ligature ``ﬁ`` is ``fi``): that
form, its case kept, is the name shown; names are compared by their *key*, the NFKC form casefolded and normalised
again (``Ana``, ``ana``, ``ANA`` and ``Ａｎａ`` are one name; ``Straße`` and ``STRASSE`` too). Look-alikes beyond
NFKC are **not** caught: a Cyrillic ``а`` is another letter than a Latin ``a``, and a name may mix scripts.

**Passwords** have 8 to 256 characters and are none of the most common passwords (a list shipped in the package,
``web/data/common-passwords.txt``, compared casefolded), nor the user name. They are hashed with Argon2id
(``argon2-cffi``, its default parameters unless the server is told others: :class:`HashCost`), in a thread and at
most one hash per core at once; a hash made with other parameters is made again at the next sign-in. A password is
never logged, stored or sent back; neither is its hash.

**Signing in** fails with one code and one message (``bad_credentials``) whether the name exists or not, and takes
as long: a name with no account is checked against a dummy hash of the same parameters. Attempts (signing in or
up, a password changed, an account deleted) are counted per client address and per user name (:class:`Budgets`,
token buckets, the name's bucket whether or not it has an account): past either, ``too_many_attempts``.

**Sessions**: a session's id is ``secrets.token_urlsafe(32)``, sent once in an HttpOnly cookie and stored only as
its SHA-256; its CSRF token is derived from the id (:func:`csrf_token`), so nothing more is stored and only the
holder of the cookie can know it. A sign-in always makes a new id (a cookie the request came with is never kept);
signing out ends the session, changing the password ends every session of the account (the changer gets a new
one). A session lasts :attr:`AccountLimits.session_seconds` from its sign-in.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.web.rooms import Budgets
from flametable.web.store import AccountRow, AccountStore, SessionRow

NAME_MIN, NAME_MAX = 3, 20
"""A user name's length, in characters of its NFKC form."""
NAME_INPUT_MAX = 64
"""The longest user name a request may send (before NFKC: a name past it is refused unread)."""
PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""A password's length, in characters."""


class AccountError(FlametableError):
    """A request about accounts refused: ``code`` names the check, ``status`` is the HTTP status; the template says
    why, in the reader's language once translated."""

    def __init__(self, code: str, template: str, /, status: int = 400, **params: Any) -> None:
        self.code = code
        self.status = status
        super().__init__(template, **params)


def bad_credentials() -> AccountError:
    """The one refusal of a sign-in with a wrong name or a wrong password: it never tells which."""
    return AccountError("bad_credentials", N_("The user name or the password is wrong."), status=401)


# ------------------------------------------------------------------ names


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def name_key(name: str) -> str:
    """The key names are compared by: NFKC, casefolded, NFKC again (Unicode's caseless match for identifiers)."""
    return _nfkc(_nfkc(name).casefold())


def _name_char(char: str, first: bool) -> bool:
    if char in "_-":
        return True
    category = unicodedata.category(char)
    return category[0] == "L" or category == "Nd" or (category[0] == "M" and not first)


def check_name(name: str) -> tuple[str, str]:
    """The name as shown (NFKC, case kept) and its key; :class:`AccountError` ``bad_name`` saying what is wrong."""
    shown = _nfkc(name)
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        raise AccountError("bad_name", N_("A user name has {min} to {max} characters; {name!r} has {count}."),
                           min=NAME_MIN, max=NAME_MAX, name=shown[:NAME_INPUT_MAX], count=len(shown))
    for index, char in enumerate(shown):
        if not _name_char(char, index == 0):
            raise AccountError("bad_name", N_("A user name holds letters, digits, \"_\" and \"-\" only; {name!r} "
                                              "holds {char!r}."), name=shown, char=char)
    return shown, name_key(shown)


# ------------------------------------------------------------------ passwords

COMMON_PASSWORDS_FILE = "common-passwords.txt"
"""The most common passwords of 8 characters or more (``web/data/``, one a line, lower case: made by
``scripts/common_passwords.py``); a shorter one is refused by its length already."""


@cache
def common_passwords() -> frozenset[str]:
    text = resources.files("flametable.web").joinpath("data", COMMON_PASSWORDS_FILE).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def check_password(password: str, name: str | None = None) -> None:
    """:class:`AccountError` ``weak_password`` if the password may not be used (too short or long, all spaces, one
    of the most common, the user name ``name``); the message never repeats it."""
    if len(password) < PASSWORD_MIN:
        raise AccountError("weak_password", N_("A password has at least {min} characters; this one has {count}."),
                           min=PASSWORD_MIN, count=len(password))
    if len(password) > PASSWORD_MAX:
        raise AccountError("weak_password", N_("A password has at most {max} characters; this one has {count}."),
                           max=PASSWORD_MAX, count=len(password))
    folded = password.casefold()
    if not password.strip() or folded in common_passwords():
        raise AccountError("weak_password", N_("This password is one of the most common ones, the first that "
                                               "others try: choose another."))
    if name is not None and name_key(password) == name_key(name):
        raise AccountError("weak_password", N_("A password may not be your user name: choose another."))


@dataclass(frozen=True)
class HashCost:
    """Argon2id's parameters: passes, memory in KiB, lanes. The default is ``argon2-cffi``'s (RFC 9106's second
    recommendation: 3 passes over 64 MiB, 4 lanes), above OWASP's minimum; tests lower it."""

    time_cost: int = argon2.DEFAULT_TIME_COST
    memory_cost: int = argon2.DEFAULT_MEMORY_COST
    parallelism: int = argon2.DEFAULT_PARALLELISM

    @classmethod
    def parse(cls, text: str) -> HashCost:
        """``TIME,MEMORY,LANES`` (``1,16384,1``); :class:`ValueError` for anything else or values Argon2 refuses."""
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 3 or not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
            raise ValueError(text)
        cost = cls(*(int(part) for part in parts))
        if cost.time_cost < 1 or cost.parallelism < 1 or cost.memory_cost < 8 * cost.parallelism:
            raise ValueError(text)
        return cost

    def text(self) -> str:
        """The ``TIME,MEMORY,LANES`` that :meth:`parse` reads back."""
        return f"{self.time_cost},{self.memory_cost},{self.parallelism}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).rstrip(b"=").decode("ascii")


def _dummy_hash(cost: HashCost) -> str:
    """A hash of no password, with the parameters of ``cost``: checking a password against it costs what checking
    one against a real hash of those parameters does (the work is set by the parameters the PHC string names), and
    it is made without hashing anything (no start-up cost)."""
    return (f"$argon2id$v=19$m={cost.memory_cost},t={cost.time_cost},p={cost.parallelism}"
            f"${_b64(secrets.token_bytes(argon2.DEFAULT_RANDOM_SALT_LENGTH))}"
            f"${_b64(secrets.token_bytes(argon2.DEFAULT_HASH_LENGTH))}")


class Hasher:
    """Argon2id hashing off the event loop: in a thread, at most ``at_once`` hashes together (each holds its memory
    cost while it runs)."""

    def __init__(self, cost: HashCost | None = None, at_once: int | None = None) -> None:
        self.cost = cost or HashCost()
        self._argon2 = argon2.PasswordHasher(time_cost=self.cost.time_cost, memory_cost=self.cost.memory_cost,
                                             parallelism=self.cost.parallelism, type=argon2.Type.ID)
        self._turns = asyncio.Semaphore(at_once or os.cpu_count() or 1)
        self._dummy = _dummy_hash(self.cost)

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        async with self._turns:
            return await asyncio.to_thread(work, *args)

    async def hash(self, password: str) -> str:
        """The PHC string of ``password``'s Argon2id hash (``$argon2id$v=19$m=...``), a random salt in it."""
        made: str = await self._run(self._argon2.hash, password)
        return made

    def _check(self, hashed: str, password: str) -> bool:
        try:
            return bool(self._argon2.verify(hashed, password))
        except (VerificationError, InvalidHashError):
            return False

    async def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``hashed``; with ``hashed`` None (no such account), the same work is
        done against a dummy hash of the same parameters, and the answer is no."""
        if hashed is None:
            await self._run(self._check, self._dummy, password)
            return False
        ok: bool = await self._run(self._check, hashed, password)
        return ok

    def needs_rehash(self, hashed: str) -> bool:
        """Whether ``hashed`` was made with other parameters than this hasher's."""
        try:
            return bool(self._argon2.check_needs_rehash(hashed))
        except (InvalidHashError, ValueError):
            return True


# ------------------------------------------------------------------ sessions' secrets

SESSION_ID_PATTERN = r"[A-Za-z0-9_-]{43}"
"""What a session id looks like (``secrets.token_urlsafe(32)``)."""


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def session_hash(session_id: str) -> str:
    """What the store keeps of a session id: its SHA-256, hex."""
    return hashlib.sha256(session_id.encode("ascii")).hexdigest()


def csrf_token(session_id: str) -> str:
    """The session's CSRF token: derived from its id (SHA-256 of a label and the id; neither the id nor the stored
    hash can be had from it, and it cannot be had without the id, which only the cookie holds)."""
    digest = hashlib.sha256(b"flametable csrf token\0" + session_id.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


# ------------------------------------------------------------------ the accounts of a server


@dataclass(frozen=True)
class AccountLimits:
    """How long sessions last and how often one may try a password (``docs/server.md``, Accounts)."""

    session_seconds: float = 30 * 24 * 3600.0  # a session's life from its sign-in (the cookie's Max-Age)
    touch_every: float = 600.0  # a session's last use is written at most this often
    # attempts with a password (sign in, sign up, change the password, delete the account) per client address, on
    # average (one every 2 s)... and at once
    attempts_per_address_per_second: float = 0.5
    attempts_per_address_burst: int = 30
    # ...and per user name, whether or not it has an account (so the refusal tells nothing): two a minute, 10 at once
    attempts_per_name_per_second: float = 1 / 30
    attempts_per_name_burst: int = 10


def too_many_attempts() -> AccountError:
    return AccountError("too_many_attempts", N_("Too many attempts with a password: wait a minute, then try "
                                                "again."), status=429)


class Accounts:
    """A server's accounts: signing up and in, passwords changed, accounts deleted, sessions looked up. Every
    method may raise :class:`AccountError` (a refusal) or :class:`~flametable.web.store.StoreError`."""

    def __init__(self, store: AccountStore, hasher: Hasher | None = None, limits: AccountLimits | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.hasher = hasher or Hasher()
        self.limits = limits or AccountLimits()
        self.clock = clock
        self.per_address = Budgets(self.limits.attempts_per_address_per_second, self.limits.attempts_per_address_burst)
        self.per_name = Budgets(self.limits.attempts_per_name_per_second, self.limits.attempts_per_name_burst)

    def attempt(self, address: str, name: str | None) -> None:
        """Count one attempt with a password from ``address`` for the user name ``name`` (its key; any text, an
        account or not), or refuse it: ``too_many_attempts``."""
        if not self.per_address.allow(address):
            raise too_many_attempts()
        if name is not None and not self.per_name.allow(name_key(name[:NAME_INPUT_MAX])):
            raise too_many_attempts()

    async def sign_up(self, name: str, password: str, address: str) -> AccountRow:
        """A new account (``bad_name``, ``weak_password``, ``name_taken``, ``too_many_attempts``)."""
        shown, key = check_name(name)
        check_password(password, shown)
        self.attempt(address, None)  # signing up tries no password of anyone's: the address's budget alone
        taken = name_taken(shown)
        if await self.store.by_key(key) is not None:
            raise taken
        account = await self.store.create(shown, key, await self.hasher.hash(password), self.clock())
        if account is None:  # made meanwhile
            raise taken
        return account

    async def sign_in(self, name: str, password: str, address: str) -> AccountRow:
        """The account of ``name`` if ``password`` is its own (rehashed when the parameters changed); else
        ``bad_credentials`` after the same work either way, or ``too_many_attempts``."""
        self.attempt(address, name)
        try:
            _, key = check_name(name)
        except AccountError:
            key = None
        account = await self.store.by_key(key) if key is not None else None
        if not await self.hasher.verify(account.password_hash if account is not None else None, password):
            raise bad_credentials()
        assert account is not None
        if self.hasher.needs_rehash(account.password_hash):
            await self.store.rehash(account.id, account.password_hash, await self.hasher.hash(password))
        return account

    async def confirm(self, account: AccountRow, password: str, address: str) -> None:
        """``wrong_password`` unless ``password`` is the account's (to change it, to delete the account; ``account``
        as the request's session read it)."""
        self.attempt(address, account.name)
        if not await self.hasher.verify(account.password_hash, password):
            raise AccountError("wrong_password", N_("That is not your password: nothing was changed."), status=403)

    async def new_session(self, account: AccountRow, ending: str | None = None) -> str:
        """A new session of ``account``: its id (the cookie's value), stored as its hash; ``ending``, the hash of
        the session the request came with (if any), ends with it."""
        session_id = new_session_id()
        now = self.clock()
        await self.store.start_session(account.id, session_hash(session_id), now, ending=ending,
                                       expired_before=now - self.limits.session_seconds)
        return session_id

    async def change_password(self, account: AccountRow, current: str, new: str, address: str) -> str:
        """The account's new password, every session of it ended; the id of the changer's new session."""
        check_password(new, account.name)
        await self.confirm(account, current, address)
        session_id = new_session_id()
        if not await self.store.change_password(account.id, await self.hasher.hash(new), session_hash(session_id),
                                                self.clock()):
            raise signed_out()
        return session_id

    async def delete(self, account: AccountRow, password: str, address: str) -> None:
        """Delete the account (its password confirmed): name freed, hash and sessions gone, seats kept."""
        await self.confirm(account, password, address)
        await self.store.delete(account.id, self.clock())

    async def session(self, session_id: str) -> SessionRow | None:
        """The live session of the cookie's ``session_id``, its use noted (at most every ``touch_every`` s)."""
        now = self.clock()
        found = await self.store.session(session_hash(session_id), since=now - self.limits.session_seconds)
        if found is not None and now - found.last_seen >= self.limits.touch_every:
            await self.store.touch(found.id_hash, now)
        return found


def name_taken(name: str) -> AccountError:
    return AccountError("name_taken", N_("The user name {name!r} is taken (names are the same whatever their case "
                                         "or width): choose another."), status=409, name=name)


def signed_out() -> AccountError:
    return AccountError("signed_out", N_("You are not signed in (or your session has ended): sign in first."),
                        status=401)
