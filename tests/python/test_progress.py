"""Progress of long calls from Python (issue 25 item 3): simulate, sweep_parameters and
continue_orbit report to a callable while they run (the tqdm bars of progress=True use it); an
exception raised by it ends the call and is raised; progress=True/False works with tqdm.
"""
import os

import numpy as np
import pytest

import clatter


def run(model, t_end, progress):
    # DOPRI5 rather than the default DOP853: a run long enough to report more than once
    return clatter._clatter._simulate(model, 0.0, np.array([0.0, 1.0, 0.0]),
                                      np.array([1.5, 0.0, -1.5]), None,
                                      {"t_end": t_end, "two_contact": "sequential",
                                       "integrator": "dopri5"}, False, True,
                                      "none", progress)


def test_simulate_reports_increasing_times(python_wheel):
    times = []
    out = run(python_wheel, 8.0, times.append)
    assert out["reason"] == "end_time"
    assert len(times) >= 2
    assert all(0.0 <= a <= b <= 8.0 for a, b in zip(times, times[1:]))


def test_an_exception_in_progress_ends_the_run(python_wheel):
    def stop(t):
        if t > 1.0:
            raise RuntimeError("enough at t = %g" % t)
    with pytest.raises(RuntimeError, match="enough"):
        run(python_wheel, 50.0, stop)


def test_sweep_reports_each_record_and_the_bars_run(examples, python_wheel):
    zeno = clatter.load_scenario(os.path.join(examples, "ball_zeno.toml"))
    calls = []
    rows = clatter._clatter._run_sweep(zeno.model, [(0.0, np.array([0.0, 1.0, 0.0]), np.zeros(3))],
                                       {"t_end": 10.0, "chatter": "cutoff", "v_tol": 1e-9},
                                       [("e", 0.5, 0.8, 4)], "none", "apex", "y", -1, 3.0, 4.0,
                                       "surface.omega", 2, 0.0, True, "impacts", 10.0,
                                       lambda done, total: calls.append((done, total)))
    assert len(rows["point"]) == 4
    assert sorted(calls) == [(1, 4), (2, 4), (3, 4), (4, 4)]
    # the public calls with a bar forced on (tqdm is installed by scripts/setup.sh)
    pytest.importorskip("tqdm")
    clatter.sweep_parameters(zeno, [("e", 0.5, 0.8, 4)], clock="impacts", transient_periods=3,
                             record_periods=4, chatter="cutoff", v_tol=1e-9, progress=True)
    clatter.simulate(zeno, progress=True)
    clatter.load_plugin("rimless_wheel")
    m = clatter.Model("rimless_wheel", law="stronge", e=0.0, mu=3.0, spokes=6)
    b = clatter.continue_orbit(m, ["xdot", "ydot", "thetadot"], "slope", (0.18, 0.22),
                               anchor="theta", period=1.0, q=[0, 1, 0], qd=[1.5, 0, -1.5],
                               modulo_symmetry=True, closed=["spoke0"], max_points=20,
                               options={"two_contact": "sequential"}, progress=True)
    assert len(b["p"]) >= 3
