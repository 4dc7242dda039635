"""Every page of the course, for everyone, as the session's tour found it (tests/browser/tour.py).

Served under a sub-path, with the site's policy sent as a header besides each page's own: every
page opens without an error or a request to another origin, declares its policy, passes axe-core
in both schemes (in the dark one, the rules that read colours), fits a 320 px screen and a 200%
zoom, and lets a reader run a sample and switch scheme, and search under each policy the pages
declare; every panel's engine boots in its worker under the header policy, opens on the engine's
view of its defaults, answers every setting changed and its timeline's end, and passes axe-core in
that state too.

The tour is taken once per session, in the worker that runs this file: every test that reads it
lives here, so that no other worker takes it again (`make test` hands each file to one worker).
"""

from __future__ import annotations

import pytest

from tests.browser.tour import OPENS, POLICY, SCHEMES, USE, VIEWPORTS
from tests.browser.tour import the_tour as the_tour  # the session's tour of every page, as the fixture `tour`


def test_every_page_opens_without_errors_or_other_origins_under_a_sub_path_and_its_policies(tour, pages):
    assert "/" in pages and "/authoring/" in pages and "/lessons/context-compression/" in pages, pages
    assert tour.pages == pages
    found = tour.findings(OPENS)
    assert not found, "\n".join(found)


def test_every_page_declares_its_policy_and_every_engine_boots_and_answers_under_the_header_policy(tour):
    # A worker takes its policy from its own response, not from the page: a host that sends the
    # site's policy as a header governs the engine too. The tour boots every panel's engine under
    # that header policy and changes its every setting, so no panel needs a page load of its own here.
    found = tour.findings(POLICY)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_axe_finds_no_serious_or_critical_violation_on_any_page(tour, scheme):
    found = tour.findings(f"axe {scheme}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_no_page_scrolls_sideways_and_every_panel_works_at_320_px_and_200_percent(tour, size):
    found = tour.findings(f"reflow {size}")
    assert not found, "\n".join(found)


def test_every_page_works_under_its_policy_searching_switching_scheme_and_running_samples(tour):
    found = tour.findings(USE)
    assert not found, "\n".join(found)
