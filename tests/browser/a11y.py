"""The automated accessibility check of a page: axe-core (vendored under ``vendor/axe-core``, tests only) injected
into the page and run on the whole document; :func:`violations` returns the rules broken at the impacts asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

SERIOUS = ("serious", "critical")


def violations(page: Page, impact: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is now, at ``impact`` levels: each ``{id, impact, help, nodes}``
    with ``nodes`` the offending elements' selectors and axe's summary of what is wrong with each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async (impacts) => {
            const results = await axe.run(document, { resultTypes: ["violations"] });
            return results.violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
            }));
        }""",
        list(impact),
    )
    return found


def describe(found: list[dict[str, Any]]) -> str:
    """The violations as readable lines for an assertion message."""
    lines = []
    for v in found:
        lines.append(f"{v['impact']} {v['id']}: {v['help']}")
        lines.extend(f"    {n['target']}: {n['summary']}" for n in v["nodes"][:5])
    return "\n".join(lines)
