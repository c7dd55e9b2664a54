"""The rows of a simultaneous collision in events.csv ([issue 27] item 8): a cradle of unequal
masses (0.166, 0.332, 0.166 kg, [R]'s cradle otherwise; frictionless, e* = 0.85). Its first
collision writes one row per contact. A contact that separates is `open` after it (a row said
`stick` for ball C leaving at 0.88 m/s), and the collision's kinetic-energy change, the sum of its
rows' delta_energy, is a loss even where one row is positive (energy passed on through B-C)."""
import os

import numpy as np


def unequal_cradle(examples, tmp_path):
    import clatter
    with open(os.path.join(examples, "cradle3.toml")) as fh:
        text = fh.read()
    text = text.replace("n = 3\n", "masses = [0.166, 0.332, 0.166]\n").replace("mass = 0.166\n", "")
    path = tmp_path / "cradle_unequal.toml"
    path.write_text(text)
    return clatter.load_scenario(str(path))


def test_rows_of_a_collision_show_the_modes_it_leaves_and_lose_energy(examples, tmp_path):
    import clatter
    sc = unequal_cradle(examples, tmp_path)
    r = clatter.simulate(sc, t_end=0.3, progress=False)
    ev = r.events
    first = ev["t"] == ev["t"][0]
    rows = np.flatnonzero(first & (ev["kind"] == "impact"))
    assert len(rows) == 2  # A-B and B-C at once
    for k in rows:
        if ev["v_N_post"][k] > 1e-9:
            assert ev["mode_after"][k] == "open", (ev["contact"][k], ev["mode_after"][k])
    de = ev["delta_energy"][rows]
    assert de.sum() < 0.0
    assert de.max() > 0.0  # the B-C row: energy passed on, not created
    # the sum is the kinetic-energy change: I = m L^2 + (2/5) m R^2 per ball about its pivot
    m = np.array([0.166, 0.332, 0.166])
    inertia = m * 0.30 ** 2 + 0.4 * m * 0.05 ** 2
    k = rows[0]
    pre = np.array([ev[f"theta_{b}dot_pre"][k] for b in "ABC"])
    post = np.array([ev[f"theta_{b}dot_post"][k] for b in "ABC"])
    dT = 0.5 * inertia @ (post ** 2 - pre ** 2)
    assert abs(de.sum() - dT) < 1e-9 * abs(dT) + 1e-12
