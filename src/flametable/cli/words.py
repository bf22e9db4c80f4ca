"""Translated names of the games' enum-like words: stats, card kinds, outcome reasons, phases."""

from __future__ import annotations

from flametable.cli.i18n import translate
from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_
from flametable.duals.rules import Reason as DualsReason
from flametable.duel.cards import Stat, SupportKind
from flametable.duel.rules import Phase, Reason
from flametable.duel.state import PHASE_TEXT

STAT_NAMES = {Stat.SPARK: N_("Spark"), Stat.HEAT: N_("Heat"), Stat.CHARM: N_("Charm")}
KIND_NAMES = {SupportKind.ITEM: N_("Item"), SupportKind.PLACE: N_("Place"), SupportKind.EVENT: N_("Event")}
REASONS: dict[str, str] = {  # both games' outcome reasons, by their value
    Reason.TWO_WINS: N_("two round wins"),
    Reason.MORE_WINS: N_("more round wins after three rounds"),
    Reason.TIEBREAK: N_("won the tie-break round"),
    Reason.TIED_MATCH: N_("the tie-break round was drawn"),
    DualsReason.MOST_VP: N_("most victory points"),
    DualsReason.MORE_CARDS: N_("equal victory points, more scored cards"),
    DualsReason.SHARED: N_("equal victory points and scored cards: a shared victory"),
}


def stat_name(stat: int) -> str:
    return translate(STAT_NAMES[Stat(stat)])


def kind_name(kind: SupportKind) -> str:
    return translate(KIND_NAMES[kind])


def reason_text(reason: object) -> str:
    """The translated reason of an outcome (any game's reason; unknown ones as they are)."""
    text = REASONS.get(str(reason))
    return translate(text) if text is not None else str(reason)


# Engine phrases (N_-marked) that reach an IllegalAction as a parameter, e.g. ``{expected}``.
def illegal_text(exc: IllegalAction) -> str:
    """The engine's reason in the player's language, its N_-marked phrase parameters translated too."""
    return exc.translated(translate)


def phase_text(phase: Phase) -> str:
    """What the seat to act is expected to do, from the engine's own (N_-marked) phase texts."""
    return translate(PHASE_TEXT[phase])
