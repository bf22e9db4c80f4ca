"""The action notation and ids: every action round-trips; bad notation raises IllegalAction with a reason."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.actions import ACTIONS, NUM_ACTIONS, DuelAction, Kind
from tests.games.duel.scripted import GAME, start, texts


def test_notation_round_trip_of_every_action() -> None:
    """Every action: ``DuelAction.from_text(a.text()) is a`` and ``DuelAction.from_id(a.id) is a``."""
    assert len(ACTIONS) == NUM_ACTIONS == GAME.num_actions
    for i, a in enumerate(ACTIONS):
        assert a.id == i
        assert DuelAction.from_text(a.text()) is a
        assert DuelAction.from_id(a.id) is a
        assert GAME.action_from_text(a.text()) is a
        assert GAME.action_from_id(a.id) is a
        assert str(a) == a.text()
    assert len({a.text() for a in ACTIONS}) == NUM_ACTIONS


def test_notation_covers_every_kind_of_action() -> None:
    """The notation names every decision of the rules: pass, play, ability, stat, pick, line, champion, take, swap."""
    words = {a.text().split()[0] for a in ACTIONS}
    assert words == {k.word for k in Kind}
    assert texts(a for a in ACTIONS if a.kind is Kind.STAT) == ["stat spark", "stat heat", "stat charm"]
    assert sum(a.kind is Kind.PLAY for a in ACTIONS) == 21
    assert sum(a.kind is Kind.PICK for a in ACTIONS) == 33


@pytest.mark.parametrize(("text", "canonical"), [
    ("PASS", "pass"), ("  pass ", "pass"), ("Play s7", "play S7"), ("play 7", "play S7"), ("STAT Charm", "stat charm"),
    ("pick c12", "pick C12"), ("Ability S21", "ability S21"), ("champion 33", "champion C33"),
])
def test_notation_is_case_insensitive_on_input_canonical_on_output(text: str, canonical: str) -> None:
    """actions.py: "Notation (case-insensitive on input, canonical on output)" """
    assert DuelAction.from_text(text).text() == canonical


@pytest.mark.parametrize("text", [
    "", "play", "play S7 now", "fly S1", "play S0", "play S22", "pick C0", "pick C34", "stat fire", "play C7",
    "pick S7", "play S-1", "play S²", "pass 3", "pass C1", "pass S20",
])
def test_notation_bad_text_raises_illegal_action(text: str) -> None:
    """Bad notation is refused with IllegalAction and a reason (never another exception)."""
    with pytest.raises(IllegalAction) as err:
        DuelAction.from_text(text)
    assert err.value.reason


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10_000])
def test_notation_bad_id_raises_illegal_action(bad: int) -> None:
    """An id outside 0 .. num_actions - 1 is refused with IllegalAction and a reason."""
    with pytest.raises(IllegalAction) as err:
        DuelAction.from_id(bad)
    assert err.value.reason


def test_notation_legal_actions_of_a_scripted_match_round_trip() -> None:
    """The legal actions of a real position round-trip too (text and id)."""
    st = start([[2, 4, 5], [8, 10, 12]], hands=[[1, 3, 7], [4, 6, 9]])
    legal = st.legal_actions()
    assert texts(legal) == ["stat spark", "stat heat", "stat charm"]
    st.apply(DuelAction.from_text("stat spark"))
    for a in st.legal_actions():
        assert DuelAction.from_text(a.text()) is a
        assert DuelAction.from_id(a.id) is a
    assert texts(st.legal_actions()) == [
        "pass", "play S1", "play S3", "play S7", "ability S1", "ability S3", "ability S7",
    ]
