"""Which engine plays (issue 26): the native one where its extension is built, else the Python reference, and
``FLAMETABLE_ENGINE`` chooses. These run without the extension (a build is stood in for where one is needed)."""

from __future__ import annotations

import pytest

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.games.duel import native
from flametable.games.duel.game import DuelGame


@pytest.fixture
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "extension", lambda: None)
    monkeypatch.delenv(registry.ENGINE_VARIABLE, raising=False)


@pytest.mark.usefixtures("unbuilt")
def test_without_the_extension_the_python_engine_plays() -> None:
    entry = registry.get("duel")
    assert entry.engine() == "python"
    assert type(entry.make()) is DuelGame


@pytest.mark.usefixtures("unbuilt")
def test_asking_for_the_native_engine_without_it_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "native")
    with pytest.raises(registry.EngineError) as refused:
        registry.get("duel").make()
    assert "pip install ./native" in str(refused.value)
    assert isinstance(refused.value, FlametableError)  # a translated one-line error, never a traceback


def test_python_is_chosen_even_where_the_extension_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "python")
    assert native.factory() is None
    assert type(registry.get("duel").make()) is DuelGame


def test_an_unknown_engine_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "fast")
    with pytest.raises(registry.EngineError, match="must be python or native"):
        registry.get("duel").engine()
