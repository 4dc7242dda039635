"""The compaction setting refuses any invalid field, whatever the value, naming the field, the value and what is allowed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.lessons.context_compaction import Compaction, Refusal

modest = settings(max_examples=150, deadline=None)

LEAST = {"after_tokens": 1, "keep_recent_events": 0, "after_invocations": 1, "overlap": 0}
PARTNER = {
    "after_tokens": "keep_recent_events",
    "keep_recent_events": "after_tokens",
    "after_invocations": "overlap",
    "overlap": "after_invocations",
}

junk = st.one_of(
    st.booleans(),
    st.floats(),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)


@modest
@given(st.sampled_from(sorted(LEAST)), st.data())
def test_any_invalid_value_of_a_field_is_refused_when_built_naming_it(field, data):
    value = data.draw(st.one_of(junk, st.integers(max_value=LEAST[field] - 1)))
    fields = {field: value, PARTNER[field]: 4}
    try:
        Compaction(**fields)
    except Refusal as refusal:
        assert refusal.field == field and refusal.moment == "build"
        assert str(refusal).startswith(f"{field} is {value!r}; allowed: a whole number"), str(refusal)
    else:
        raise AssertionError(f"{field}={value!r} was accepted")
