"""Fuzzing every record reader: any input is replayed or refused with a `RecordError`, never
another exception (which `python -m bot replay` would show as a traceback).

Seeded (hypothesis `derandomize`) and bounded by the number of examples, not by the clock, so the
same inputs run on every machine however loaded. `bench/fuzz_records.py` runs the same inputs by
the hundred thousand outside the suite.
"""

from __future__ import annotations

import base64
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.egn import FILE_TYPE, MATCH_FILE_TYPE, import_egn, unpack_deal
from bot.engine.errors import RecordError
from bot.engine.records import RECORD_FORMAT
from tests.support.record_fuzz import AWKWARD, mutate, replay_kind, sources

FUZZ = settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Any JSON value, awkward values included.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(AWKWARD),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
headers = st.sampled_from(
    [
        {"fileType": FILE_TYPE, "version": "1.4"},
        {"fileType": MATCH_FILE_TYPE, "version": "1.0"},
        {"format": RECORD_FORMAT, "version": 1},
    ]
)
fields = st.sampled_from(["metadata", "deals", "games", "options", "players", "first_dealer"])


@FUZZ
@given(source=st.sampled_from(sources()), seed=st.integers(0, 2**32), changes=st.integers(1, 4))
def test_a_changed_record_is_replayed_or_refused(source: tuple[str, Any], seed: int, changes: int):
    # Every example file and every kind the bot writes, with a few changes anywhere in it.
    replay_kind(mutate(source[1], random.Random(seed), changes))


@FUZZ
@given(header=headers, body=st.dictionaries(fields, json_values, max_size=4))
def test_any_structure_under_a_record_header_is_replayed_or_refused(header, body):
    replay_kind({**header, **body})


@FUZZ
@given(value=json_values)
def test_any_json_value_is_replayed_or_refused(value):
    replay_kind(value)


@FUZZ
@given(raw=st.binary(min_size=1, max_size=48), version=st.sampled_from([None, 1, 2, 3]))
def test_any_condensed_deal_is_read_or_refused(raw: bytes, version: int | None):
    if version is not None:
        raw = bytes([version << 4 | raw[0] & 0x0F]) + raw[1:]
    text = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    for reader in (lambda: unpack_deal(text), lambda: import_egn(_egn_of(text))):
        try:
            reader()
        except RecordError:
            pass


def _egn_of(deal: str) -> dict[str, Any]:
    return {"fileType": FILE_TYPE, "version": "1.4", "metadata": {"players": []}, "deals": [deal]}
