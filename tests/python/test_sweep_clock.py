"""Sweeps of a model without a forcing from Python (issue 25 item 5): transient and record counted
in impacts, crossings or seconds (clock=...). The ball dropped from h0 = 1 m onto a fixed floor
(examples/ball_zeno.toml): the apex after impact k has height h0 e^(2k) (free flight and
v+ = e v-), to round-off in the closed-form flight. The bounces are resolved one by one
(chatter="cutoff", v_tol=1e-9): by default the engine predicts the accumulation at the first
impact and jumps to rest, and a predicted chatter's bounces are not impacts to count.
"""
import os

import pytest

import clatter


BOUNCES = {"chatter": "cutoff", "v_tol": 1e-9}


@pytest.fixture(scope="module")
def zeno(examples):
    return clatter.load_scenario(os.path.join(examples, "ball_zeno.toml"))


def test_impacts_clock_records_the_closed_form_apexes(zeno):
    rows = clatter.sweep_parameters(zeno, [("e", 0.5, 0.8, 4)], clock="impacts:ball",
                                    transient_periods=3, record_periods=4, **BOUNCES)
    for e, values, full in zip(rows["e"], rows["values"], rows["record_complete"]):
        assert full
        assert values == pytest.approx([e ** (2 * k) for k in range(3, 7)], abs=1e-12)


def test_crossings_clock_and_a_short_record(zeno):
    rows = clatter.sweep_parameters(zeno, [("e", 0.5, 0.5, 1)], clock="crossings",
                                    transient_periods=2, record_periods=3, **BOUNCES)
    assert rows["values"][0] == pytest.approx([0.5 ** (2 * k) for k in range(3, 6)], abs=1e-12)
    short = clatter.sweep_parameters(zeno, [("e", 0.5, 0.5, 1)], clock="impacts",
                                     transient_periods=3, record_periods=4, max_time=0.9,
                                     **BOUNCES)
    assert not short["record_complete"][0]
    assert "ran out after 1 of 7 impacts" in short["message"][0]


def test_an_unforced_model_without_a_clock_is_refused(zeno):
    with pytest.raises(ValueError, match="another clock"):
        clatter.sweep_parameters(zeno, [("e", 0.5, 0.8, 4)])
    with pytest.raises(ValueError, match="clock"):
        clatter.sweep_parameters(zeno, [("e", 0.5, 0.8, 4)], clock="impacts:nope")


def test_an_impacts_clock_that_a_chatter_ended_says_so(zeno):
    # by default the engine predicts the accumulation at the first impact and closes the contact
    # there (the remaining bounces are not simulated, so not counted): the message says so, and
    # how to count them
    rows = clatter.sweep_parameters(zeno, [("e", 0.5, 0.5, 1)], clock="impacts",
                                    transient_periods=3, record_periods=4, max_time=5.0)
    assert not rows["record_complete"][0]
    assert "chatter ended in its accumulation point" in rows["message"][0]
    assert 'chatter = "cutoff"' in rows["message"][0]
