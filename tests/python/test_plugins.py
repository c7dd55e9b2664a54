"""A model plugin from Python (model/plugin.hpp, issue 25 item 1): clatter.load_plugin.

The example plugin examples/user_model/spring_box.cpp, loaded by name (the build tree keeps it in
<build>/lib/clatter/plugins, as an installed clatter does), used like a built-in kind: its
impacts against the closed form of user_model.toml's comment (x(t) = (u0/w) sin(w t), first
impact at t1 = asin(w L/u0)/w with speed sqrt(u0^2 - w^2 L^2), each impact multiplying the speed
by e, a crossing with speed u taking (pi - 2 atan(u/(w L)))/w), to 1e-9; bad files refused with
a ValueError naming the file.
"""
import math
import os
import re

import numpy as np
import pytest

import clatter


def test_version_is_the_library_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", clatter.__version__)


def test_a_plugin_model_gives_the_closed_form(examples):
    p = clatter.load_plugin("spring_box")
    assert p["name"] == "spring_box" and p["kinds"] == ["spring_box"]
    assert clatter.load_plugin(p["path"]) == p  # loading again is not a second registration
    source = {k["kind"]: k["source"] for k in clatter.models()}
    assert source["spring_box"] == "plugin " + p["path"]

    m, k_x, L, e, u0, t_end = 2.0, 8.0, 0.5, 0.8, 3.0, 6.0
    model = clatter.Model("spring_box", e=e, mass=m, k_x=k_x, k_y=3.0, half_width=L)
    r = clatter.simulate(model, q=[0.0, 0.2], qd=[u0, -0.4], t_end=t_end, events_only=True)
    ev = r.events
    impacts = np.flatnonzero(ev["kind"] == "impact")
    w = math.sqrt(k_x / m)
    t, u, expected = math.asin(w * L / u0) / w, math.sqrt(u0 * u0 - w * w * L * L), []
    while t <= t_end:
        expected.append((t, u))
        u *= e
        t += (math.pi - 2.0 * math.atan(u / (w * L))) / w
    assert len(impacts) == len(expected)
    for i, (t, u) in zip(impacts, expected):
        assert ev["t"][i] == pytest.approx(t, abs=1e-9)
        assert -ev["v_N_pre"][i] == pytest.approx(u, abs=1e-9)

    # the scenario file names the same plugin: loaded once, the same kind
    sc = clatter.load_scenario(os.path.join(examples, "user_model", "user_model.toml"))
    assert sc.model.kind == "spring_box"


def test_bad_plugins_are_value_errors_naming_the_file(examples):
    with pytest.raises(ValueError, match=r"plugin: /nonexistent/libx.so: no such file"):
        clatter.load_plugin("/nonexistent/libx.so")
    toml = os.path.join(examples, "user_model", "user_model.toml")
    with pytest.raises(ValueError, match=r"cannot be loaded as a shared library"):
        clatter.load_plugin(toml)
    with pytest.raises(ValueError, match=r"no plugin 'no_such_plugin'"):
        clatter.load_plugin("no_such_plugin")


def test_the_namespace_is_the_public_api():
    # nothing the module uses internally (numpy, sys, functools) is exported as its own name
    public = {n for n in dir(clatter) if not n.startswith("_")}
    assert public == set(clatter.__all__)
