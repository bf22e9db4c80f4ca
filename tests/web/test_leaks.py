"""Issue 11: no hidden information reaches the wrong client. Seeded matches are played through the server by
client-side bots while a spectator watches; every message each of them received is checked against the engine's
own view of that audience at that version (``tests/web/leakcheck.py``). This is the suite's slice; the full
count is ``python -m benchmarks.server_leaks --matches 1000``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.record import MatchRecord, start
from flametable.service import view_json
from tests.web import leakcheck
from tests.web.leakcheck import KITS, SPECTATOR, Capture, Frame, Leak


@pytest.mark.parametrize(("game", "matches", "options", "bots"), [
    ("duel", 30, {}, ("bot:random", "bot:random")),
    ("duel", 8, {"pick": "draft"}, ("bot:random", "bot:random")),
    ("duel", 8, {"mode": "decks"}, ("bot:random", "bot:easy")),
    ("duals", 20, {}, ("bot:random", "bot:random")),
    ("duals", 5, {}, ("bot:easy", "bot:random")),
], ids=["duel", "duel-draft", "duel-own-decks", "duals", "duals-easy"])
def test_no_seat_and_no_spectator_is_sent_what_it_may_not_see(game: str, matches: int, options: dict[str, Any],
                                                              bots: tuple[str, str]) -> None:
    played, frames, leaks = leakcheck.run(game, matches, options=options, bots=bots, seed_base=len(options))
    assert played == matches
    assert frames > 100 * matches
    assert leaks == [], "\n".join(map(str, leaks[:5]))


def test_a_seeded_match_through_the_server_is_the_same_match_each_time() -> None:
    seed = leakcheck.match_seed("duals", 7)
    records = []
    for _ in range(2):
        with leakcheck.server() as (client, seeds):
            records.append(leakcheck.play(client, seeds, "duals", seed).record)
    assert records[0] == records[1]
    assert json.loads(records[0])["seed"] == seed


# ------------------------------------------------------------------ the check bites: doctored captures


@pytest.fixture(scope="module")
def capture() -> Iterator[Capture]:
    """One Flame Duel match (characters dealt at random: each player lines them up in secret first)."""
    with leakcheck.server() as (client, seeds):
        yield leakcheck.play(client, seeds, "duel", leakcheck.match_seed("duel", 0), wrong=0.3)


def doctor(capture: Capture, pick: Callable[[Frame, Any], bool], change: Callable[[Frame, Any], str]) -> tuple[
        Capture, Frame]:
    """A copy of ``capture`` with the first frame ``pick`` chooses rewritten by ``change`` (both get the frame and
    its JSON data)."""
    frames = list(capture.frames)
    for i, frame in enumerate(frames):
        data = None if frame.http else json.loads(frame.text)
        if pick(frame, data):
            frames[i] = dataclasses.replace(frame, text=change(frame, data))
            return dataclasses.replace(capture, frames=frames), frames[i]
    raise AssertionError("no frame to doctor")


def leaks_of(capture: Capture) -> list[Leak]:
    leaks, checked = leakcheck.check(capture)
    assert checked == len(capture.frames)
    return leaks


def reported(leaks: list[Leak], frame: Frame, rule: str) -> bool:
    return any(leak.index == frame.index and rule in leak.rule and leak.text == frame.text for leak in leaks)


def event_of(audience: int | str) -> Callable[[Frame, Any], bool]:
    """Picks an event of ``audience`` after an action (not a sync)."""
    return lambda frame, data: (frame.audience == audience and data is not None and data["type"] == "event"
                                and data["event"]["actor"] is not None)


def test_the_untouched_capture_has_no_leak(capture: Capture) -> None:
    assert leaks_of(capture) == []


def test_the_other_seats_view_in_an_event_is_reported(capture: Capture) -> None:
    record = MatchRecord.from_json(json.loads(capture.record))
    engine = registry.make_game("duel")

    def other_view(frame: Frame, data: Any) -> str:
        state = start(engine, record)
        for text in record.actions[:data["event"]["version"]]:
            state.apply(engine.action_from_text(text))
        data["event"]["view"] = view_json(state.view(1))
        return json.dumps(data)

    doctored, frame = doctor(capture, event_of(0), other_view)
    assert reported(leaks_of(doctored), frame, "view is not the engine's view")


def test_a_hidden_action_named_to_the_spectator_is_reported(capture: Capture) -> None:
    record = MatchRecord.from_json(json.loads(capture.record))

    def named(frame: Frame, data: Any) -> str:
        data["event"]["action"] = record.actions[data["event"]["version"] - 1]  # a secret "line C.."
        return json.dumps(data)

    doctored, frame = doctor(capture, lambda f, d: event_of(SPECTATOR)(f, d) and d["event"]["action"] is None,
                             named)
    assert reported(leaks_of(doctored), frame, "an event's action")


def test_the_seed_before_the_end_is_reported_and_after_it_is_not(capture: Capture) -> None:
    seed = str(capture.seed)
    before, frame = doctor(capture, lambda f, d: d is not None and d["type"] == "presence",
                           lambda f, d: f.text[:-1] + f',"n":{seed}}}')
    assert reported(leaks_of(before), frame, "the seed")
    after, _frame = doctor(capture, lambda f, d: f.audience == 1 and f.index > ended_at(capture, 1),
                           lambda f, d: f.text[:-1] + f',"n":{seed}}}')
    assert leaks_of(after) == []
    http, frame = doctor(capture, lambda f, d: f.http and "GET /api/rooms/" in f.text, lambda f, d: f.text + seed)
    assert reported(leaks_of(http), frame, "the seed")


def ended_at(capture: Capture, audience: int | str) -> int:
    return next(f.index for f in capture.frames if f.audience == audience and f.text.startswith('{"type":"ended"'))


def test_the_other_seats_token_is_reported(capture: Capture) -> None:
    token = capture.tokens[0]
    doctored, frame = doctor(capture, lambda f, d: f.audience == 1 and d is not None and d["type"] == "welcome",
                             lambda f, d: f.text.replace('"lang":', f'"token":"{token}","lang":'))
    assert reported(leaks_of(doctored), frame, "seat 0's token")
    watched, frame = doctor(capture, lambda f, d: f.audience == SPECTATOR and d is not None,
                            lambda f, d: f.text + token)
    assert any(leak.index == frame.index and "token" in leak.rule for leak in leaks_of(watched))


def test_a_hidden_action_in_the_log_is_reported(capture: Capture) -> None:
    record = MatchRecord.from_json(json.loads(capture.record))

    def pick(frame: Frame, data: Any) -> bool:
        return (frame.audience == SPECTATOR and data is not None and data["type"] == "log" and bool(data["lines"])
                and frame.index < ended_at(capture, SPECTATOR))

    def named(frame: Frame, data: Any) -> str:
        data["lines"][0] = f"Jugador 1: {record.actions[0]}"
        return json.dumps(data)

    doctored, frame = doctor(capture, pick, named)
    leaks = leaks_of(doctored)
    assert reported(leaks, frame, "a log that is not the one made from the audience's own views")


def test_an_error_naming_a_hidden_card_is_reported(capture: Capture) -> None:
    record = MatchRecord.from_json(json.loads(capture.record))
    engine = registry.make_game("duel")

    def pick(frame: Frame, data: Any) -> bool:
        return frame.audience == 0 and data is not None and data["type"] == "error" and data["code"] != "illegal"

    def hint(frame: Frame, data: Any) -> str:
        state = start(engine, record)
        for text in record.actions[:frame.version]:
            state.apply(engine.action_from_text(text))
        secret = sorted(KITS["duel"].hidden(state, view_json(state.view(0)), 0))
        data["message"] += f" (player 2 holds {secret[0]})"
        return json.dumps(data)

    doctored, frame = doctor(capture, pick, hint)
    assert reported(leaks_of(doctored), frame, "hidden cards named")


def test_two_hidden_cards_answered_differently_are_reported(capture: Capture) -> None:
    doctored, _frame = doctor(capture, lambda f, d: f.probe is not None,
                             lambda f, d: f.text.replace('"message":"', '"message":"In the pile: '))
    assert any("answered differently" in leak.rule for leak in leaks_of(doctored))


def test_card_names_are_found_in_texts_but_not_inside_room_ids_and_tokens() -> None:
    text = '{"message":"S7 is not in your hand.","detail":{"card":"C12","action":"score K3"},"room":"lCrPCw_-wTI_S7b2"}'
    assert leakcheck.CARD_NAME.findall(text) == ["S7", "C12", "K3"]
    assert leakcheck.CARD_NAME.findall('{"token":"S3VM7DvzvoH2-S4_K12x","room":"x-C1","id":"S9_a"}') == []


def test_a_leak_says_which_frame_broke_which_rule() -> None:
    leak = Leak("duel", 12, SPECTATOR, 40, "the seed before the match is over", '{"type":"presence"}')
    assert str(leak) == ("duel seed 12: frame 40 to 'spectator' breaks 'the seed before the match is over': "
                         '{"type":"presence"}')
