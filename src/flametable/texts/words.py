"""Both games' enum-like words in a player's language: stats, card kinds, outcome reasons, phases, errors."""

from __future__ import annotations

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.games.duals.rules import Reason as DualsReason
from flametable.games.duel.cards import Stat, SupportKind
from flametable.games.duel.rules import PHASE_TEXT, Phase, Reason
from flametable.texts.translator import Translator

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


def stat_name(tr: Translator, stat: int) -> str:
    return tr.translate(STAT_NAMES[Stat(stat)])


def kind_name(tr: Translator, kind: SupportKind) -> str:
    return tr.translate(KIND_NAMES[kind])


def reason_text(tr: Translator, reason: object) -> str:
    """The reason of an outcome (any game's reason; unknown ones as they are)."""
    text = REASONS.get(str(reason))
    return tr.translate(text) if text is not None else str(reason)


def error_text(tr: Translator, exc: FlametableError) -> str:
    """An engine's reason (an illegal action) or a bad file's or record's error, its phrase parameters
    translated too."""
    return tr.error(exc)



def phase_text(tr: Translator, phase: Phase) -> str:
    """What the seat to act is expected to do, from the engine's own (N_-marked) phase texts."""
    return tr.translate(PHASE_TEXT[phase])
