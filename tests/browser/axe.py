"""axe-core, pinned in package.json, run inside a page of the built site.

The script comes from node_modules, never from a CDN, and is evaluated through the browser's
debugging protocol, which the page's Content-Security-Policy does not govern: the page is audited
exactly as it is served, policy included.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


@cache
def axe_source() -> str:
    if not AXE.is_file():
        raise FileNotFoundError(f"{AXE} is missing: run npm ci (axe-core is pinned in package.json)")
    return AXE.read_text(encoding="utf-8")


# The rules axe-core (4.14) runs by default that read colours: the contrast of text, and links told
# apart from the text around them by colour alone. (Its AAA contrast rule is not run by default.)
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def serious_violations(page: Page, rules: tuple[str, ...] = (), within: str = "") -> list[dict[str, Any]]:
    """Each serious or critical violation on the page as it is now: rule, impact, and every node's
    selector and reason; only `rules` (axe-core's ids) when given, else every rule axe runs by default;
    only inside the element `within` selects when given (axe-core then skips its rules about the whole page)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([rules, within]) => {
            const only = rules.length ? { runOnly: { type: "rule", values: rules } } : {};
            const context = within ? document.querySelector(within) : document;
            if (!context) throw new Error(`nothing on the page to audit: no element matches ${within}`);
            const results = await axe.run(context, { resultTypes: ["violations"], ...only });
            return results.violations.map((rule) => ({
                id: rule.id,
                impact: rule.impact,
                nodes: rule.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary.split("\\n").slice(1).join(" ").trim()}`),
            }));
        }""",
        [list(rules), within],
    )
    return [rule for rule in found if rule["impact"] in SERIOUS]


def described(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"{rule['id']} ({rule['impact']}): {node}" for rule in violations for node in rule["nodes"])
