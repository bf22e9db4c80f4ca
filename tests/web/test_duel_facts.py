"""``GET /api/games/duel/facts``: what the browser draws Flame Duel's cards with, in the language asked for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from flametable.web.store import Store
from tests.web.client import Server


@pytest.fixture
def server(sqlite_database: str) -> Iterator[Server]:
    with Server(db_url=sqlite_database, open_store=Store.open) as s:
        yield s


@pytest.mark.parametrize(("lang", "spark", "second"), [("en", "Spark", "Sparkle Pip"), ("es", "Chispa", "Chispita")])
def test_the_facts_come_in_the_language_asked_for(server: Server, lang: str, spark: str, second: str) -> None:
    response = server.http.get(f"/api/games/duel/facts?lang={lang}")
    assert response.status_code == 200
    facts = response.json()
    assert facts["lang"] == lang
    assert facts["stats"][0]["name"] == spark
    assert facts["characters"][1]["name"] == second


def test_the_language_of_the_browser_is_the_default(server: Server) -> None:
    facts = server.http.get("/api/games/duel/facts", headers={"accept-language": "es-ES,es;q=0.9"}).json()
    assert facts["kinds"]["item"] == "Objeto"
