"""Ratings in the store (issue 23), on SQLite and PostgreSQL: ``flametable db upgrade`` brings a database of 0004
(accounts) to 0005 with its accounts, rooms and matches kept; a match is rated exactly once, however many calls
(of one store or of two, as two server processes) rate it at once; only a match of a room whose creator and joiner
both asked, two accounts in people's seats, played to its end; the numbers are Glicko-2's, as the paper computes
them (worked out here from its formulas, not from the code under test)."""

from __future__ import annotations

import asyncio
import math
from dataclasses import replace

import pytest
import sqlalchemy as sa

from flametable.bots.registry import HUMAN
from flametable.web.rooms import token_hash
from flametable.web.store import AccountStore, RatingStore, SeatRow, Store, StoreError, rating_history, ratings
from tests.web.test_store import HEAD, a_match, a_room, made, table_names, upgrade_to
from tests.web.test_store_accounts import HASH, db_upgrade

pytestmark = pytest.mark.anyio

NOW = 1_800_000_000.0


# --- Glickman's formulas, as the paper writes them (steps 2-8), for one match between two players -----------------

def paper(r: float, rd: float, sigma: float, r_j: float, rd_j: float, s: float, *, grow: bool) -> tuple[float, float]:
    """The new rating and RD of a player (r, rd, sigma) after one game against (r_j, rd_j) with score s; ``grow``:
    step 6 adds sigma' squared (a rating period went by), else phi* = phi (no time passed: the players' first
    match, as the server's time model has it). The volatility is found by Illinois as in step 5."""
    mu, phi = (r - 1500) / 173.7178, rd / 173.7178
    mu_j, phi_j = (r_j - 1500) / 173.7178, rd_j / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g ** 2 * e * (1 - e))
    delta = v * g * (s - e)
    a = math.log(sigma ** 2)
    tau = 0.5

    def f(x: float) -> float:
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x)) / (2 * (phi ** 2 + v + math.exp(x)) ** 2)
                - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma_new ** 2) if grow else phi
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * g * (s - e)
    return 173.7178 * mu_new + 1500, 173.7178 * phi_new


def test_the_paper_s_formulas_give_the_numbers_of_the_issue() -> None:
    """Two new players, one win: the issue's 1662.3 / 290.3 and 1337.7 / 290.3 are the paper's with a full period
    in step 6; no time between a new player's start and the match (the server's model) gives 1662.2 / 290.2."""
    assert [round(x, 1) for x in paper(1500, 350, 0.06, 1500, 350, 1, grow=True)] == [1662.3, 290.3]
    assert [round(x, 1) for x in paper(1500, 350, 0.06, 1500, 350, 0, grow=True)] == [1337.7, 290.3]
    assert [round(x, 1) for x in paper(1500, 350, 0.06, 1500, 350, 1, grow=False)] == [1662.2, 290.2]


# --- helpers ------------------------------------------------------------------------------------------------

async def account(store: Store, name: str) -> int:
    made_account = await AccountStore(store).create(name, name.lower(), HASH, 1.0)
    assert made_account is not None
    return made_account.id


async def rated_match(store: Store, room_id: str, creator: int | None, joiner: int | None, *,
                      rated: bool = True, accept: bool = True, kinds: tuple[str, str] = (HUMAN, HUMAN),
                      status: str = "over", result: dict[str, object] | None = None, first_player: int = 0) -> int:
    """A room of two seats (``kinds``), player 0 the ``creator``'s and player 1 the ``joiner``'s (None: a guest's),
    made rated (``rated``) and accepted by the joiner (``accept``), its match ended with ``status`` and ``result``
    (default: seat 0 wins); the match's id."""
    seats = [SeatRow(p, kind, token_hash(f"{room_id}-{p}-" + "t" * 20) if kind == HUMAN else None)
             for p, kind in enumerate(kinds)]
    match_id = await made(store, a_room(room_id, seats=seats, match=a_match(room_id, first_player=first_player,
                                                                           players=list(kinds))))
    accounts = AccountStore(store)
    for player, owner in enumerate((creator, joiner)):
        if owner is not None:
            await accounts.attach_players(owner, room_id, [player])
    if rated and creator is not None:
        await RatingStore(store).make_rated(room_id, creator, NOW - 60)
        if accept and joiner is not None:
            assert await RatingStore(store).accept(room_id, joiner)
    await store.end_match(match_id, status, result if result is not None else
                          {"winner": 0, "reason": "two_round_wins", "scores": [2, 0]})
    return match_id


async def stored(store: Store, account_id: int, game: str = "duel") -> tuple[float, float, int] | None:
    async with store.engine.connect() as connection:
        row = (await connection.execute(sa.select(ratings.c.rating, ratings.c.rd, ratings.c.matches).where(
            ratings.c.account_id == account_id, ratings.c.game == game))).first()
    return None if row is None else (float(row[0]), float(row[1]), int(row[2]))


async def history_rows(store: Store) -> int:
    async with store.engine.connect() as connection:
        return int((await connection.execute(sa.select(sa.func.count()).select_from(rating_history))).scalar_one())


# --- the migration ------------------------------------------------------------------------------------------

async def test_db_upgrade_brings_an_accounts_database_to_ratings_with_everything_kept(db_url: str) -> None:
    await upgrade_to(db_url, "0004")
    old = await Store.open(db_url, migrate=False)
    try:
        ana = await account(old, "Ana")
        room = a_room("r1", seats=[SeatRow(0, HUMAN, "ab" * 32), SeatRow(1, HUMAN, "cd" * 32)])
        match_id = await made(old, room)
        await AccountStore(old).attach_players(ana, "r1", [0])
        await old.end_match(match_id, "resigned", {"winner": 1, "reason": "resigned", "scores": [0, 0]})
    finally:
        await old.close()
    assert "ratings" not in await table_names(db_url)

    done = db_upgrade(db_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"revision {HEAD}" in done.stdout

    assert {"rated_rooms", "ratings", "rating_history"} <= await table_names(db_url)
    store = await Store.open(db_url)
    try:
        again = await store.load_room("r1")
        assert again is not None
        assert (again.match.status, again.match.result) == ("resigned", {"winner": 1, "reason": "resigned",
                                                                         "scores": [0, 0]})
        assert await AccountStore(store).seat_holders("r1") == {0: ana}
        assert await RatingStore(store).rate(match_id, NOW) is None  # an old match was never asked to be rated
        played = await RatingStore(store).finished(ana)
        assert [(p.room_id, p.seat, p.score, p.opponent_id) for p in played] == [("r1", 0, 0.0, None)]
    finally:
        await store.close()


# --- exactly once -------------------------------------------------------------------------------------------

async def test_two_calls_at_once_rate_a_match_once(store: Store) -> None:
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    match_id = await rated_match(store, "r1", ana, bea)
    first, second = await asyncio.gather(RatingStore(store).rate(match_id, NOW), RatingStore(store).rate(match_id, NOW))
    assert first is not None
    assert second is not None
    assert sorted([first.fresh, second.fresh]) == [False, True]
    assert first.changes == second.changes
    assert await history_rows(store) == 2
    again = await RatingStore(store).rate(match_id, NOW + 100)  # a retry, later: the same changes, nothing written
    assert again is not None
    assert not again.fresh
    assert again.changes == first.changes
    assert (await stored(store, ana))[2] == 1  # type: ignore[index]


async def test_two_server_processes_rating_one_match_at_once_rate_it_once(db_url: str) -> None:
    """Two stores on one database, each with its own writer and connections (two server processes): each rates
    the match as its match ends there, at once, many times over."""
    one, two = await Store.open(db_url), await Store.open(db_url)
    try:
        ana, bea = await account(one, "Ana"), await account(one, "Bea")
        matches = [await rated_match(one, f"r{i}", ana, bea, result={"winner": i % 2, "reason": "x",
                                                                     "scores": [0, 0]}) for i in range(6)]
        fresh = 0
        for match_id in matches:
            done = await asyncio.gather(*(RatingStore(s).rate(match_id, NOW + match_id) for s in (one, two, one, two)))
            assert all(d is not None for d in done)
            assert len({d.changes for d in done if d is not None}) == 1
            fresh += sum(1 for d in done if d is not None and d.fresh)
        assert fresh == len(matches)
        assert await history_rows(one) == 2 * len(matches)
        assert (await stored(one, ana))[2] == len(matches)  # type: ignore[index]
        assert (await stored(one, bea))[2] == len(matches)  # type: ignore[index]
    finally:
        await one.close()
        await two.close()


async def test_two_matches_of_one_player_rated_at_once_lose_no_update(db_url: str) -> None:
    """Ana's two matches (against Bea, against Cai) end at once in two processes: both count, the second from
    the first's result."""
    one, two = await Store.open(db_url), await Store.open(db_url)
    try:
        ana, bea, cai = await account(one, "Ana"), await account(one, "Bea"), await account(one, "Cai")
        m1 = await rated_match(one, "r1", ana, bea)
        m2 = await rated_match(one, "r2", cai, ana, result={"winner": 1, "reason": "x", "scores": [0, 0]})
        r1, r2 = await asyncio.gather(RatingStore(one).rate(m1, NOW), RatingStore(two).rate(m2, NOW))
        assert r1 is not None
        assert r2 is not None
        assert r1.fresh
        assert r2.fresh
        ana_changes = sorted([r1.changes[0], r2.changes[1]], key=lambda c: c.before.rd, reverse=True)
        assert ana_changes[0].before.rd == 350  # the first from her start...
        assert ana_changes[1].before == replace(ana_changes[0].after, at=None)  # ...the second from the first's result
        final = await stored(one, ana)
        assert final is not None
        assert final[2] == 2
        assert final[0] == pytest.approx(ana_changes[1].after.rating)
    finally:
        await one.close()
        await two.close()


# --- what is rated, and how ---------------------------------------------------------------------------------

async def test_a_win_between_two_new_players_is_the_paper_s_numbers(store: Store) -> None:
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    rated = await RatingStore(store).rate(await rated_match(store, "r1", ana, bea), NOW)
    assert rated is not None
    won, lost = rated.changes
    want_won = paper(1500, 350, 0.06, 1500, 350, 1, grow=False)
    want_lost = paper(1500, 350, 0.06, 1500, 350, 0, grow=False)
    assert (won.account_id, won.score, won.opponent_id) == (ana, 1.0, bea)
    assert (won.after.rating, won.after.rd) == (pytest.approx(want_won[0], abs=1e-6), pytest.approx(want_won[1],
                                                                                                    abs=1e-6))
    assert (lost.after.rating, lost.after.rd) == (pytest.approx(want_lost[0], abs=1e-6),
                                                  pytest.approx(want_lost[1], abs=1e-6))
    assert round(won.after.rating, 1) == 1662.2
    assert round(lost.after.rating, 1) == 1337.8
    assert won.before.rating == lost.before.rating == 1500
    assert won.before.rd == 350
    assert await stored(store, ana) == (pytest.approx(want_won[0]), pytest.approx(want_won[1]), 1)
    assert await stored(store, bea) == (pytest.approx(want_lost[0]), pytest.approx(want_lost[1]), 1)


async def test_a_second_match_eight_hours_later_grows_the_rd_by_a_period_first(store: Store) -> None:
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    first = await RatingStore(store).rate(await rated_match(store, "r1", ana, bea), NOW)
    assert first is not None
    a, b = first.changes[0].after, first.changes[1].after
    second = await RatingStore(store).rate(await rated_match(
        store, "r2", ana, bea, result={"winner": 1, "reason": "x", "scores": [0, 0]}), NOW + 8 * 3600)
    assert second is not None
    want = paper(a.rating, a.rd, a.volatility, b.rating, b.rd, 0, grow=True)
    assert (second.changes[0].after.rating, second.changes[0].after.rd) == (
        pytest.approx(want[0], abs=1e-6), pytest.approx(want[1], abs=1e-6))


async def test_a_resignation_is_a_loss_and_a_draw_half_a_point(store: Store) -> None:
    ana, bea, cai, dan = [await account(store, n) for n in ("Ana", "Bea", "Cai", "Dan")]
    resigned = await rated_match(store, "r1", ana, bea, status="resigned",
                                 result={"winner": 1, "reason": "resigned", "scores": [0, 0]})
    drawn = await rated_match(store, "r2", cai, dan, result={"winner": None, "reason": "tie", "scores": [1, 1]})
    r = await RatingStore(store).rate(resigned, NOW)
    d = await RatingStore(store).rate(drawn, NOW)
    assert r is not None
    assert d is not None
    assert [c.score for c in r.changes] == [0.0, 1.0]
    assert r.changes[0].after.rating == pytest.approx(paper(1500, 350, 0.06, 1500, 350, 0, grow=False)[0])
    assert [c.score for c in d.changes] == [0.5, 0.5]
    assert [c.after.rating for c in d.changes] == [pytest.approx(1500), pytest.approx(1500)]
    assert d.changes[0].after.rd < 350  # a draw is information too


async def test_the_seats_follow_a_rematch_s_swap(store: Store) -> None:
    """In a rematch the room's player 1 (Bea) sits at seat 0: her win is hers."""
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    rated = await RatingStore(store).rate(await rated_match(store, "r1", ana, bea, first_player=1), NOW)
    assert rated is not None
    assert [(c.account_id, c.score) for c in rated.changes] == [(bea, 1.0), (ana, 0.0)]


@pytest.mark.parametrize("case", ["casual room", "nobody accepted", "a guest joined", "a bot's seat",
                                  "one account in both seats", "closed unplayed", "still playing"])
async def test_only_a_match_both_accounts_asked_for_and_played_out_is_rated(store: Store, case: str) -> None:
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    rating = RatingStore(store)
    if case == "casual room":
        match_id = await rated_match(store, "r1", ana, bea, rated=False)
    elif case == "nobody accepted":
        match_id = await rated_match(store, "r1", ana, bea, accept=False)
    elif case == "a guest joined":
        match_id = await rated_match(store, "r1", ana, None)
    elif case == "a bot's seat":
        match_id = await rated_match(store, "r1", ana, None, kinds=(HUMAN, "bot:hard"))
    elif case == "one account in both seats":
        match_id = await rated_match(store, "r1", ana, ana, accept=False)
        assert not await rating.accept("r1", ana)  # its own room: refused
    else:
        seats = [SeatRow(0, HUMAN, token_hash("a" * 24)), SeatRow(1, HUMAN, token_hash("b" * 24))]
        match_id = await made(store, a_room("r1", seats=seats, match=a_match("r1", players=[HUMAN, HUMAN])))
        await AccountStore(store).attach_players(ana, "r1", [0])
        await AccountStore(store).attach_players(bea, "r1", [1])
        await rating.make_rated("r1", ana, NOW)
        assert await rating.accept("r1", bea)
        if case == "closed unplayed":
            async with store.engine.begin() as connection:  # as the sweep leaves a match it closed
                await connection.execute(sa.text("UPDATE matches SET status = 'closed' WHERE id = :id"),
                                         {"id": match_id})
    assert await rating.rate(match_id, NOW) is None
    assert await history_rows(store) == 0
    assert await stored(store, ana) is None
    assert await rating.unrated() == []


async def test_an_accepted_room_is_accepted_once(store: Store) -> None:
    ana, bea, cai = await account(store, "Ana"), await account(store, "Bea"), await account(store, "Cai")
    await made(store, a_room("r1", seats=[SeatRow(0, HUMAN, "ab" * 32), SeatRow(1, HUMAN)]))
    rating = RatingStore(store)
    assert not await rating.accept("r1", bea)  # not rated
    await rating.make_rated("r1", ana, NOW)
    assert await rating.accept("r1", bea)
    assert not await rating.accept("r1", cai)
    assert await rating.rated_room("r1") is not None
    assert (await rating.rated_rooms(["r1", "r2"]))["r1"].joiner_id == bea
    with pytest.raises(StoreError):  # made rated twice
        await rating.make_rated("r1", ana, NOW)


async def test_a_match_whose_rating_failed_is_found_again(store: Store) -> None:
    ana, bea = await account(store, "Ana"), await account(store, "Bea")
    match_id = await rated_match(store, "r1", ana, bea)
    rating = RatingStore(store)
    assert await rating.unrated() == [match_id]
    assert await rating.rate(match_id, NOW) is not None
    assert await rating.unrated() == []
