"""Figures from Python ([issue 27], "Python users get no plotting helpers"): result.plot() draws
what `clatter simulate` draws. Expected: the command's own plot.png of the same scenario, written
with --precision 17 (so both read the same numbers), pixel for pixel; bad arguments refused with
the field named and nothing written."""
import os

import numpy as np
import pytest

import clatter


def pixels(path):
    import matplotlib.image
    return matplotlib.image.imread(path)


@pytest.mark.parametrize("scenario", ["rod_fig5.toml", "cradle3.toml"])
def test_the_figure_is_the_commands(cli, examples, tmp_path, scenario):
    path = os.path.join(examples, scenario)
    cli("simulate", path, "--out", tmp_path / "cli", "--precision", 17)
    r = clatter.simulate(clatter.load_scenario(path), progress=False)
    out = r.plot(tmp_path / "py.png")
    assert os.path.isfile(out)
    a, b = pixels(out), pixels(tmp_path / "cli" / "plot.png")
    assert a.shape == b.shape
    assert np.array_equal(a, b)
    # the module function is the same figure, and a style can be chosen
    generic = clatter.plot.simulation(r, tmp_path / "generic.png", style="generic", title="x")
    assert pixels(generic).shape[2] == 4
    assert sorted(os.listdir(tmp_path)) == sorted(["cli", "py.png", "generic.png"])


def test_a_models_run_is_drawn_generic(examples, tmp_path):
    sc = clatter.load_scenario(os.path.join(examples, "ball_zeno.toml"))
    init = sc.initial
    r = clatter.simulate(sc.model, q=init["q"], qd=init["qd"], t_end=1.0, progress=False)
    assert r.plot_style is None
    r.plot(tmp_path / "ball.png")
    assert os.path.getsize(tmp_path / "ball.png") > 10000


def test_bad_arguments_are_refused_before_anything_is_written(examples, tmp_path):
    sc = clatter.load_scenario(os.path.join(examples, "ball_zeno.toml"))
    r = clatter.simulate(sc, progress=False)
    with pytest.raises(ValueError, match="style"):
        r.plot(tmp_path / "a.png", style="bogus")
    with pytest.raises(FileNotFoundError, match="out"):
        r.plot(tmp_path / "missing" / "a.png")
    only_events = clatter.simulate(sc, events_only=True, progress=False)
    with pytest.raises(ValueError, match="no samples"):
        only_events.plot(tmp_path / "b.png")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("axes", [
    [("surface.omega", 3.0, 3.6, 25)],                                   # the diagram
    [("surface.omega", 3.0, 3.6, 6), ("surface.amplitude", 1.0, 1.2, 3)],  # the period map
])
def test_the_sweep_figure_is_the_commands(cli, examples, tmp_path, axes):
    # the ball's period doubling near omega = 3.1575 in both pictures; the same records drawn by
    # the same script: the command's bifurcation.png, pixel for pixel
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    args = []
    for name, lo, hi, n in axes:
        args += ["--param", name, lo, hi, n]
    cli("sweep", path, *args, "--carry-over", "up", "--transient-periods", 300,
        "--record-periods", 20, "--no-progress", "--out", tmp_path / "cli")
    r = clatter.sweep_parameters(sc, axes, carry_over="up", transient_periods=300,
                                 record_periods=20, progress=False)
    out = r.plot(tmp_path / "py.png", title=f"{sc.name}: {sc.description}")
    a, b = pixels(out), pixels(tmp_path / "cli" / "bifurcation.png")
    assert a.shape == b.shape
    assert np.array_equal(a, b)
