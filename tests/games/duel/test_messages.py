"""What a player reads when an action is refused: every reason the engine gives, filled in, in English and Spanish.

An :class:`IllegalAction` carries an English template (``reason``) and its parameters; a front end shows
``translated(gettext)``. A player must never read a literal ``{card}``, an untranslated phrase inside a Spanish
sentence, or find the match changed by a refused action.
"""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

import flametable
from flametable.core.errors import IllegalAction
from flametable.core.i18n import Phrase
from flametable.core.rng import Rng
from flametable.games.duel.actions import ACTIONS, DuelAction
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState

GAME = DuelGame()
LOCALE = Path(flametable.__file__).resolve().parent / "locale"
ENGLISH = gettext.NullTranslations()
SPANISH = gettext.translation("flametable", localedir=str(LOCALE), languages=["es"])

# Every reason DuelState.apply gives (R2, R3, R6, R10, R14 and the phases), as the English templates.
ENGINE_REASONS = {
    "{action} is not possible now: {expected}.",
    "{card} is not in your hand.",
    "Your ability can be triggered only once per round.",
    "{card} has already been picked.",
    "{card} is not one of your characters.",
    "{card} is already in your line-up.",
    "{card} is not a card you can choose from your discard pile.",
    "{card} is not one of your most charming characters.",
    "The match is over.",
}
# Every reason the notation gives (reading an action's text or id).
NOTATION_REASONS = {
    "No action has id {id} (ids are 0 to {last}).",
    "Cannot read the action {text!r}.",
    "Unknown action {word!r} in {text!r}.",
    "Unknown stat {word!r}: use spark, heat or charm.",
    "{word!r} needs a card {prefix}1 to {prefix}{limit}, got {arg!r}.",
}


def _check_message(exc: IllegalAction) -> None:
    english = exc.translated(ENGLISH.gettext)
    spanish = exc.translated(SPANISH.gettext)
    assert english == str(exc)
    for text in (english, spanish):
        assert "{" not in text, f"a placeholder left in {text!r} ({exc.reason!r}, {exc.params})"
        assert "}" not in text, f"a placeholder left in {text!r} ({exc.reason!r}, {exc.params})"
    assert spanish != english, f"not translated: {english!r}"
    assert SPANISH.gettext(exc.reason) != exc.reason, f"no Spanish template for {exc.reason!r}"
    for value in exc.params.values():
        if isinstance(value, Phrase):
            assert SPANISH.gettext(value) != value, f"no Spanish for the phrase {value!r}"
            assert value not in spanish, f"English phrase {value!r} inside {spanish!r}"
            assert SPANISH.gettext(value) in spanish


def _snapshot(st: DuelState) -> dict[str, object]:
    """Every field of the state, by value (the generator by its state)."""
    out = {name: getattr(st, name) for name in DuelState.__slots__ if name != "rng"}
    out["rng"] = st.rng.state
    return out


def _random_illegal_attempts(options: dict[str, str], seed: int, tries: int) -> set[str]:
    """Play a seeded random match; at every state try ``tries`` random actions that are not legal."""
    st = GAME.new_match(options, seed)
    rng = Rng(seed)
    seen: set[str] = set()
    while True:
        legal = st.legal_actions()
        before = _snapshot(st)
        # the rare tie-break pick (R14) is tried with every action, the other states with a few
        attempts = ACTIONS if st.phase is Phase.CHAMPION else [ACTIONS[rng.below(len(ACTIONS))] for _ in range(tries)]
        for action in attempts:
            if action in legal:
                continue
            trial = st.clone()
            with pytest.raises(IllegalAction) as info:
                trial.apply(action)
            _check_message(info.value)
            seen.add(info.value.reason)
            assert _snapshot(trial) == before, f"the refused {action} changed the match"
        if st.outcome is not None:
            return seen
        st.apply(legal[rng.below(len(legal))])


def test_every_reason_the_engine_gives_is_filled_in_and_translated() -> None:
    """Over many random illegal attempts in every mode, each refusal reads fully in English and in Spanish and
    leaves the match as it was; and every reason the engine has is met."""
    seen: set[str] = set()
    for seed in range(1, 61):
        for options in ({"mode": "shared", "pick": "random"}, {"mode": "shared", "pick": "draft"},
                        {"mode": "decks"}):
            seen |= _random_illegal_attempts(options, seed, 4)
    assert seen == ENGINE_REASONS


@pytest.mark.parametrize("text", ["", "pass now", "play", "jump S3", "stat fire", "play C3", "play S0", "line S40",
                                  "pick C34", "take S2x", "champion C1 C2"])
def test_every_reason_the_notation_gives_is_filled_in_and_translated(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.action_from_text(text)
    assert info.value.reason in NOTATION_REASONS
    _check_message(info.value)


@pytest.mark.parametrize("action_id", [-1, len(ACTIONS), 10_000])
def test_an_unknown_action_id_is_refused_with_its_number(action_id: int) -> None:
    with pytest.raises(IllegalAction) as info:
        DuelAction.from_id(action_id)
    assert info.value.reason in NOTATION_REASONS
    assert str(action_id) in str(info.value)
    _check_message(info.value)


def test_the_notation_reasons_are_all_met() -> None:
    texts = ["", "pass now", "jump S3", "stat fire", "play S0"]
    reasons = set()
    for text in texts:
        with pytest.raises(IllegalAction) as info:
            GAME.action_from_text(text)
        reasons.add(info.value.reason)
    with pytest.raises(IllegalAction) as info:
        DuelAction.from_id(-1)
    reasons.add(info.value.reason)
    assert reasons == NOTATION_REASONS
