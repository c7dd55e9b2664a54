"""Impact laws from Python: clatter.impact (one) and clatter.impacts (vectorised).

Expected values come from: the CLI `clatter impact` JSON (the same apply_law; nlohmann's JSON
writes doubles to round-trip precision, so equality is exact), one-at-a-time calls (exact), and a
closed form (frictionless Newton: v_N+ = -e v_N-, to 1e-15 relative).
"""
import json

import numpy as np
import pytest

import clatter

W_ROD = np.array([[2.75, 1.479], [1.479, 2.25]])  # the CLI test's contact matrix (SPD)


def random_inputs(n, seed):
    """Random pre-impact velocities, SPD contact matrices (from a random rod-like J M^-1 J^T),
    restitutions in [0, 1] and friction in [0, 3]."""
    rng = np.random.default_rng(seed)
    v = np.column_stack([rng.uniform(-3, 3, n), rng.uniform(-3, -1e-3, n)])
    a = rng.uniform(0.1, 3, n)
    c = rng.uniform(0.1, 3, n)
    b = rng.uniform(-0.95, 0.95, n) * np.sqrt(a * c)
    W = np.stack([np.stack([a, b], -1), np.stack([b, c], -1)], -2)
    return v, W, rng.uniform(0, 1, n), rng.uniform(0, 3, n)


@pytest.mark.parametrize("law", clatter.LAWS)
def test_vectorised_equals_one_at_a_time(law):
    # expected: clatter.impact (apply_law) called per element on 10^5 random inputs; tolerance:
    # exact (the same law on the same inputs)
    n = 100_000
    v, W, e, mu = random_inputs(n, seed=12)
    out = clatter.impacts(law, v, W, e=e, mu=mu)
    for key in ("v_post", "Lambda", "delta_energy", "region", "brach_case", "status"):
        assert len(out[key]) == n
    for i in range(n):
        one = clatter.impact(law, v[i], W[i], e=e[i], mu=mu[i])
        assert tuple(out["v_post"][i]) == one["v_post"], i
        assert tuple(out["Lambda"][i]) == one["Lambda"], i
        assert out["delta_energy"][i] == one["delta_energy"], i
        assert out["region"][i] == one["region"] and out["brach_case"][i] == one["brach_case"]
        assert clatter.STATUS_NAMES[out["status"][i]] == one["status"], i


def test_shared_W_and_scalar_parameters_broadcast():
    # expected: the batched W / per-element parameters of the same values; exact
    v, W, e, mu = random_inputs(1000, seed=3)
    shared = clatter.impacts("stronge", v, W_ROD, e=0.7, mu=0.4)
    full = clatter.impacts("stronge", v, np.broadcast_to(W_ROD, (1000, 2, 2)),
                           e=np.full(1000, 0.7), mu=np.full(1000, 0.4))
    for key in shared:
        np.testing.assert_array_equal(shared[key], full[key])


@pytest.mark.parametrize("law", clatter.LAWS)
def test_one_impact_equals_cli(law, cli):
    # expected: `clatter impact` (the CLI's JSON); exact
    p = cli("impact", "--law", law, "--W", 2.75, 1.479, 2.25, "--mu", 0.5, "--e", 0.8,
            "--v", 0.3, -1.0)
    j = json.loads(p.stdout)
    out = clatter.impact(law, [0.3, -1.0], W_ROD, e=0.8, mu=0.5)
    assert list(out["v_post"]) == j["v_post"]
    assert list(out["Lambda"]) == j["Lambda"]
    assert out["delta_energy"] == j["delta_energy"]
    assert out["status"] == j["status"]


def test_frictionless_newton_closed_form():
    # expected: v_N+ = -e v_N- and v_T+ = v_T- for B = 0, mu = 0 (closed form); 1e-15 relative
    v, _, e, _ = random_inputs(10_000, seed=5)
    out = clatter.impacts("newton", v, np.diag([1.3, 0.7]), e=e)
    np.testing.assert_allclose(out["v_post"][:, 1], -e * v[:, 1], rtol=1e-15, atol=0)
    np.testing.assert_array_equal(out["v_post"][:, 0], v[:, 0])


@pytest.mark.parametrize("kwargs,names", [
    (dict(v_pre=[0.1, 0.5]), ["v_pre[1] (v_N)", "negative"]),
    (dict(e=1.5), ["e:", "[0, 1]"]),
    (dict(e=-0.1), ["e:", "[0, 1]"]),
    (dict(mu=-1.0), ["mu:", ">= 0", "[0, 1e6]"]),
    (dict(W=[[1.0, 2.0], [2.0, 1.0]]), ["W:", "positive definite"]),
    (dict(W=[[1.0, 0.2], [0.1, 1.0]]), ["W:", "symmetric"]),
    (dict(W=[1.0, 0.0, 1.0]), ["W:", "shape (2, 2)"]),
    (dict(v_pre=[0.1, -1.0, 3.0]), ["v_pre:", "shape (2,)"]),
    (dict(v_pre=[0.1, float("nan")]), ["v_pre[1] (v_N)", "finite"]),
])
def test_one_impact_bad_input_names_the_argument(kwargs, names):
    # expected: ValueError whose message names the argument and the allowed range
    args = dict(law="stronge", v_pre=[0.1, -1.0], W=W_ROD, e=0.5, mu=0.3)
    args.update(kwargs)
    with pytest.raises(ValueError) as err:
        clatter.impact(**args)
    msg = str(err.value)
    assert msg.startswith(names[0]) and any(n in msg for n in names[1:]), msg


def test_vectorised_bad_input_names_argument_and_element():
    # expected: ValueError naming the argument and the first bad element
    v, W, e, mu = random_inputs(100, seed=7)
    e[42] = 1.2
    with pytest.raises(ValueError, match=r"^e\[42\]: .*\[0, 1\]"):
        clatter.impacts("stronge", v, W, e=e, mu=mu)
    v[17, 1] = 0.0
    with pytest.raises(ValueError, match=r"^v_pre\[17, 1\] \(v_N\): .*negative"):
        clatter.impacts("stronge", v, W, e=0.5, mu=mu)
    with pytest.raises(ValueError, match=r"^mu: .*got -1"):
        clatter.impacts("stronge", -np.abs(v) - 1e-3, W, e=0.5, mu=-1.0)
    with pytest.raises(ValueError, match=r"^W: must have shape \(2, 2\) or \(100, 2, 2\)"):
        clatter.impacts("stronge", v, W[:50], e=0.5, mu=0.1)
    with pytest.raises(ValueError, match=r"^e: must be a number or have shape \(100,\)"):
        clatter.impacts("stronge", v, W, e=np.zeros(3), mu=0.1)
    with pytest.raises(ValueError, match=r"^v_pre: must have shape \(N, 2\)"):
        clatter.impacts("stronge", v[:, 0], W, e=0.5, mu=0.1)
    with pytest.raises(ValueError, match=r"^law: unknown law 'strong'"):
        clatter.impacts("strong", v, W, e=0.5, mu=0.1)
