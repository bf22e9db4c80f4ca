"""The rules of accounts (issue 23): a user name has 3 to 20 letters, digits, ``_`` or ``-`` and is one name whatever
its case or width (NFKC, casefolded); a password has 8 to 256 characters and is none of the most common ones nor the
name; passwords are hashed with Argon2id, by default with argon2-cffi's parameters, and made again when those
change; a session's CSRF token comes from its id alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import argon2
import pytest

from flametable.web.accounts import (
    PASSWORD_MAX,
    AccountError,
    HashCost,
    Hasher,
    check_name,
    check_password,
    common_passwords,
    csrf_token,
    name_key,
    new_session_id,
    session_hash,
)

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
QUICK = HashCost(1, 1024, 1)  # a test's: the default costs 64 MiB and about 0.1 s a hash


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def refusal(check: object, *args: str) -> tuple[str, str]:
    with pytest.raises(AccountError) as caught:
        check(*args)  # type: ignore[operator]
    return caught.value.code, str(caught.value)


# --- names ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "shown"), [
    ("Ana", "Ana"), ("ana_99", "ana_99"), ("x-y", "x-y"), ("_-_", "_-_"), ("123", "123"),
    ("Añil", "Añil"), ("Ζωή", "Ζωή"), ("Дарья", "Дарья"), ("कमला", "कमला"),  # letters of any script, with marks
    ("Ａｎａ", "Ana"), ("ﬁfi", "fifi"), ("Ana" + "\u0303", "Anã"),  # read in NFKC: width, ligatures, composed
    ("a" * 20, "a" * 20),
])
def test_a_name_of_letters_digits_underscores_and_hyphens_is_shown_in_its_nfkc_form(typed: str, shown: str) -> None:
    assert check_name(typed)[0] == shown


@pytest.mark.parametrize("typed", ["Ana", "ana", "ANA", "aNa", "Ａｎａ", "ａｎａ", "ＡＮＡ"])
def test_case_and_width_make_no_other_name(typed: str) -> None:
    assert check_name(typed)[1] == "ana"


def test_caseless_matching_folds_beyond_lower_case() -> None:
    assert name_key("Straße") == name_key("STRASSE") == "strasse"
    assert name_key("ΣΊΣΥΦΟΣ") == name_key("σίσυφος") == name_key("σίσυφοσ")  # final sigma


def test_look_alikes_beyond_nfkc_are_other_names() -> None:
    # documented: a Cyrillic а is not a Latin a (no confusables check), so these are two names
    assert name_key("\u0430na") != name_key("ana")


@pytest.mark.parametrize(("typed", "part"), [
    ("ab", "3 to 20 characters; 'ab' has 2"), ("", "has 0"), ("a" * 21, "has 21"),
    ("ﬃﬃﬃﬃﬃﬃﬃ", "has 21"),  # 7 ligatures are 21 letters once in NFKC
    ("ana maría", "holds ' '"), ("ana!", "holds '!'"), ("a.b", "holds '.'"), ("ana@x", "holds '@'"),
    ("\u0303ana", "holds '\u0303'"),  # a mark first, on nothing
    ("ana\u200b", "holds '\\u200b'"),  # zero-width space: invisible, refused
    ("😀😀😀", "holds '😀'"),
])
def test_a_name_too_short_too_long_or_with_other_characters_is_refused_saying_why(typed: str, part: str) -> None:
    code, message = refusal(check_name, typed)
    assert code == "bad_name"
    assert part in message


# --- passwords ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("password", ["correct horse battery", "8 chars!", "contraseña de Ana 2026",
                                      "x" * PASSWORD_MAX])
def test_a_long_enough_uncommon_password_is_taken(password: str) -> None:
    check_password(password, "Ana")


@pytest.mark.parametrize(("password", "part"), [
    ("", "at least 8 characters; this one has 0"), ("seven77", "has 7"), ("x" * (PASSWORD_MAX + 1), "at most 256"),
    ("password", "most common"), ("Password1", "most common"), ("QWERTY123", "most common"),
    ("iloveyou", "most common"), ("12345678", "most common"), ("contraseña", "most common"),
    ("        ", "most common"),  # spaces only
])
def test_a_short_long_or_common_password_is_refused_without_repeating_it(password: str, part: str) -> None:
    code, message = refusal(check_password, password)
    assert code == "weak_password"
    assert part in message
    assert repr(password) not in message


def test_a_password_that_is_the_user_name_is_refused() -> None:
    assert refusal(check_password, "ANA_Maria77", "ana_maria77")[0] == "weak_password"


def test_the_common_list_is_shipped_lower_case_each_entry_long_enough_to_matter_and_made_by_its_script() -> None:
    listed = common_passwords()
    assert len(listed) >= 500
    assert all(entry == entry.casefold() and len(entry) >= 8 for entry in listed)
    assert {"password", "12345678", "qwertyuiop", "iloveyou", "password1", "sunshine"} <= listed
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "common_passwords.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


# --- hashing --------------------------------------------------------------------------------------------------


def test_the_default_cost_is_argon2_cffi_s_above_owasp_s_minimum() -> None:
    cost = HashCost()
    assert (cost.time_cost, cost.memory_cost, cost.parallelism) == (
        argon2.DEFAULT_TIME_COST, argon2.DEFAULT_MEMORY_COST, argon2.DEFAULT_PARALLELISM)
    # OWASP's Password Storage Cheat Sheet: Argon2id with at least 19 MiB and 2 passes (or 12 MiB and 3...)
    assert cost.memory_cost >= 19 * 1024
    assert cost.time_cost >= 2


async def test_a_password_is_hashed_with_argon2id_salted_and_checked() -> None:
    hasher = Hasher(QUICK)
    first, second = await hasher.hash("correct horse"), await hasher.hash("correct horse")
    assert first.startswith("$argon2id$v=19$m=1024,t=1,p=1$")
    assert first != second  # salted
    assert "correct horse" not in first
    assert await hasher.verify(first, "correct horse")
    assert not await hasher.verify(first, "correct horsf")
    assert not await hasher.verify("not a hash", "correct horse")
    assert not await hasher.verify(None, "correct horse")  # no account: the dummy hash, and no
    assert not await hasher.verify(None, "")


async def test_the_default_parameters_make_an_owasp_grade_hash() -> None:
    hashed = await Hasher().hash("correct horse")
    assert hashed.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


async def test_a_hash_of_other_parameters_needs_making_again() -> None:
    old = await Hasher(QUICK).hash("correct horse")
    stronger = Hasher(HashCost(2, 2048, 1))
    assert stronger.needs_rehash(old)
    assert await stronger.verify(old, "correct horse")  # still checked with the parameters it was made with
    assert not stronger.needs_rehash(await stronger.hash("correct horse"))


def test_a_cost_is_read_from_its_three_numbers() -> None:
    assert HashCost.parse("1,16384,1") == HashCost(1, 16384, 1)
    for bad in ("", "1,2", "1,16384,1,1", "a,b,c", "0,16384,1", "1,4,1", "-1,16384,1", "1, 16384, 1x"):
        with pytest.raises(ValueError, match=f"^{re.escape(bad)}$"):
            HashCost.parse(bad)


# --- sessions' secrets ----------------------------------------------------------------------------------------


def test_a_session_id_is_32_random_bytes_stored_as_its_sha256_its_csrf_token_derived_apart() -> None:
    ids = {new_session_id() for _ in range(100)}
    assert len(ids) == 100
    one = ids.pop()
    assert len(one) == 43
    assert len(session_hash(one)) == 64
    assert csrf_token(one) == csrf_token(one)  # derived: nothing more stored
    assert csrf_token(one) != csrf_token(ids.pop())
    assert csrf_token(one) not in (one, session_hash(one))
    assert one not in csrf_token(one)


async def test_an_unknown_name_is_checked_against_a_dummy_hash_of_the_same_parameters() -> None:
    hasher = Hasher(HashCost(1, 4096, 1))
    real = await hasher.hash("correct horse")
    assert argon2.extract_parameters(hasher._dummy) == argon2.extract_parameters(real)
    assert hasher._dummy != Hasher(HashCost(1, 4096, 1))._dummy  # its salt is random, as a real one's
