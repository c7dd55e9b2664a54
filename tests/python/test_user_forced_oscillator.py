"""A system that is not among the examples, written as a user would (docs/python.md): the forced
impact oscillator of Shaw & Holmes (1983), x'' + 2 zeta x' + x = cos(omega t) with a rigid stop at
x = d, its forcing frequency a parameter the model declares. Shooting on the stroboscopic section
and continuation in omega, with the frequency named by the user.

Expected values, analytic: away from the stop the orbit is the linear response, of amplitude
a(omega) = 1/sqrt((1 - omega^2)^2 + (2 zeta omega)^2), whose multipliers over one forcing period
T = 2 pi/omega are the damped flow's, a complex pair of modulus exp(-zeta T). Continued down in
omega from 2 (past the resonance, a < d), the orbit grows until it touches the stop where
a(omega_g) = d: for zeta = 0.05, d = 0.5, omega_g^2 = (1.99 + sqrt(1.99^2 + 12))/2, omega_g =
1.7298857... There the branch ends in grazing."""
import math

import numpy as np
import pytest

import clatter

pytest.importorskip("numba")

ZETA, D = 0.05, 0.5


class ForcedImpactOscillator:
    nq = 1
    contacts = ["stop"]
    coordinate_names = ["x"]

    def __init__(self, omega=2.0, zeta=ZETA, d=D):
        self.omega, self.zeta, self.d = omega, zeta, d

    def parameters(self):
        return {"omega": (self.omega, "rad/s", "forcing frequency"), "zeta": self.zeta,
                "d": (self.d, "m", "the stop")}

    def mass_matrix(self, t, q):
        return ((1.0,),)

    def applied_forces(self, t, q, qd):
        return (math.cos(self.omega * t) - 2.0 * self.zeta * qd[0] - q[0],)

    def contact(self, c, t, q, qd):
        # gap d - x; the Jacobian's rows (tangential, normal): g_N decreases as x grows
        return self.d - q[0], ((0.0,), (-1.0,)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.5 * q[0] * q[0]

    def force_scale(self):
        return 1.0


def amplitude(omega):
    return 1.0 / math.sqrt((1.0 - omega ** 2) ** 2 + (2.0 * ZETA * omega) ** 2)


def test_the_linear_response_grows_into_a_grazing_at_the_analytic_frequency():
    model = clatter.python_model(ForcedImpactOscillator(), law="newton", e=0.8, compile=True)
    start = dict(q=[0.0], qd=[0.0], t0=0.0, frequency="omega", transient=50,
                 options={"t_end": 1e4})
    orbit = clatter.periodic_orbit(model, **start)
    assert orbit["converged"], orbit["message"]
    # the linear response at omega = 2: multipliers exp(-zeta T (1 -+ i ...)), modulus
    # exp(-2 pi zeta / omega), to 1e-7
    assert np.abs(orbit["multipliers"]) == pytest.approx([math.exp(-math.pi * ZETA)] * 2, abs=1e-7)
    branch = clatter.continue_orbit(model, None, "omega", (1.0, 2.2), direction="down", **start)
    assert branch.end == "grazing", branch.message
    s = 1.99 + math.sqrt(1.99 ** 2 + 12.0)
    omega_g = math.sqrt(s / 2.0)
    assert amplitude(omega_g) == pytest.approx(D, rel=1e-12)  # the formula itself
    grazing = [p for p, k in zip(branch.bifurcations["p"], branch.bifurcations["kind"])
               if k == "grazing"]
    assert len(grazing) == 1
    # the branch's last point lies before the touch (its margin below 1e-4 m): within 1e-5
    assert omega_g < grazing[0] < omega_g + 1e-5
    # every point is the linear response: its period, and the multipliers' modulus to 1e-6
    for p, period in zip(branch["p"], branch["period"]):
        assert period == pytest.approx(2.0 * math.pi / p, rel=1e-12)
    clear = [(p, m) for p, m in zip(branch["p"], branch["max_abs_multiplier"])
             if p > omega_g + 1e-3]  # clear of the touch, where the differences straddle it
    assert len(clear) >= 10
    for p, m in clear:
        assert m == pytest.approx(math.exp(-2.0 * math.pi * ZETA / p), abs=1e-6)
