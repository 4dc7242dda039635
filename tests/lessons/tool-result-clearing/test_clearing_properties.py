"""The cache arithmetic, for any session and any setting: what a request may read, and how the price
and the hit rate move. Sessions come from clearing_sessions, one per seed hypothesis draws."""

from __future__ import annotations

from clearing_sessions import drawn
from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.lessons.tool_result_clearing import Pricing, replay

modest = settings(max_examples=150, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
multipliers = st.floats(min_value=0, max_value=4, allow_nan=False)


@modest
@given(seeds)
def test_a_request_never_reads_more_than_the_previous_prompt(seed):
    run = replay(*drawn(seed))
    assert run.requests[0].cache.read == 0
    for before, request in zip(run.requests, run.requests[1:], strict=False):
        assert 0 <= request.cache.read <= before.prompt.tokens
        assert request.cache.read + request.cache.written == request.prompt.tokens


@modest
@given(seeds)
def test_with_clearing_off_every_request_reads_the_whole_previous_prompt(seed):
    session, _ = drawn(seed)
    run = replay(session, None)
    for before, request in zip(run.requests, run.requests[1:], strict=False):
        assert request.cache.read == before.prompt.tokens


@modest
@given(seeds)
def test_a_request_after_a_new_clear_reads_no_further_than_the_first_changed_message(seed):
    run = replay(*drawn(seed))
    for request in run.requests[1:]:
        if request.newly_cleared:
            blocks = request.prompt.blocks
            first = next(index for index, block in enumerate(blocks) if block.id in request.newly_cleared)
            assert request.cache.read <= sum(block.tokens for block in blocks[:first])


@modest
@given(seeds, multipliers, multipliers, st.floats(min_value=0, max_value=1))
def test_the_price_rises_with_each_multiplier_and_the_hit_rate_ignores_them(seed, read, write, more):
    session, setting = drawn(seed)
    cheaper = replay(session, setting, pricing=Pricing(read=read, write=write)).totals
    dearer_read = replay(session, setting, pricing=Pricing(read=read + more, write=write)).totals
    dearer_write = replay(session, setting, pricing=Pricing(read=read, write=write + more)).totals
    assert cheaper.price <= dearer_read.price and cheaper.price <= dearer_write.price
    assert cheaper.hit_rate == dearer_read.hit_rate == dearer_write.hit_rate


@modest
@given(seeds, st.floats(min_value=0, max_value=1), st.floats(min_value=0, max_value=1))
def test_the_cache_never_costs_more_than_no_cache_when_neither_a_read_nor_a_write_costs_more_than_input(seed, read, write):
    session, setting = drawn(seed)
    cached = replay(session, setting, pricing=Pricing(read=read, write=write)).totals
    uncached = replay(session, setting, caching=False).totals
    assert cached.sent == uncached.sent
    assert cached.price <= uncached.price + 1e-6 * uncached.sent


@modest
@given(seeds)
def test_the_hit_rate_is_the_share_read_and_stays_between_zero_and_one(seed):
    totals = replay(*drawn(seed)).totals
    assert 0 <= totals.hit_rate < 1
    assert totals.read + totals.written + totals.uncached == totals.sent
