"""The engine's first impact of [NDC]'s rod on a belt against an independent SciPy flight
(tests/peers/ndc_first_impact_scipy.py: the paper's equations, solve_ivp DOP853 at 1e-12, no code
shared with clatter). Case 5-9 is where the engine misses the paper's u* by 1.03e-4 in v_N
(-0.324983 against -0.32488, tests/regression/ndc_rod_on_belt_test.cpp): the peer gives the same
-0.324983 from Table 4's state, so the miss is Table 4's rounding, not the model or the engine."""
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "peers"))
from ndc_first_impact_scipy import first_impact  # noqa: E402


@pytest.mark.parametrize("case,example", [("5-9", "ndc_case_5_9.toml"),
                                          ("1-3", "ndc_case_1_3.toml")])
def test_first_impact_equals_an_independent_scipy_flight(examples, case, example):
    import clatter
    t_peer, u_peer = first_impact(case)
    sc = clatter.load_scenario(os.path.join(examples, example))
    r = clatter.simulate(sc, t_end=t_peer + 0.1, progress=False)
    ev = r.events
    k = int(np.flatnonzero(ev["kind"] == "impact")[0])
    v_dr = sc.model.parameter("v_dr")
    u = np.array([ev["x"][k] - v_dr * ev["t"][k], ev["theta"][k], ev["xdot_pre"][k],
                  ev["ydot_pre"][k], ev["thetadot_pre"][k]])
    # both integrate at tolerances near 1e-12 over ~1 time unit: agreement to 1e-8 is ample
    assert abs(ev["t"][k] - t_peer) < 1e-8
    np.testing.assert_allclose(u, u_peer, atol=1e-8, rtol=0)
    if case == "5-9":
        assert abs(u_peer[3] - (-0.324983)) < 1e-6  # the number the C++ test asserts
        assert abs(u_peer[3] - (-0.32488)) > 1e-4  # [NDC]'s u*: not reproduced from Table 4
