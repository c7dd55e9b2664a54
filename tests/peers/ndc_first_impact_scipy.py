#!/usr/bin/python3
"""[NDC]'s rod on a belt, written from the paper's equations alone (spec/003_dib.md §2.2, §5.2):
the free flight from Table 4's state to the first impact of the end P1 on y = 0, by SciPy's
solve_ivp (DOP853, rtol = atol = 1e-12) with an event on y. Independent of clatter: no code shared.

State z = (x, y, theta, xdot, ydot, omega), (x, y) the end P1, G = (x - cos th, y + sin th), unit
mass, length 2. With every contact open (lambda = 0):
    xdd = S_x - 3 R sin th - omega^2 cos th
    ydd = S_y - 3 R cos th + omega^2 sin th
    thdd = 3 R
    S_x = -k_x (x - v_dr t) - c_x (xdot - v_dr)
    S_y = -k_y (y - y0) - c_y ((y - y0)^2 - y1^2) ydot
    R   = -k_th (th - th0) - c_th omega

Usage: ndc_first_impact_scipy.py [CASE]   (CASE 5-9 or 1-3; prints t, xi, theta, v_T, v_N, omega)
"""
import math
import sys

import numpy as np
from scipy.integrate import solve_ivp

# Table 3 (parameters) and Table 4 (state at t = 0) of [NDC], as printed; theta0 of 1-3 = 0.275 pi
CASES = {
    "5-9": dict(v_dr=0.2, k_x=0.7, k_y=1.0, k_th=1.9, c_x=0.05, c_y=0.05, c_th=0.05, y0=0.5,
                y1=0.8, th0=0.7 * math.pi,
                z0=[0.0843, 0.4948, 2.1111, -0.0226, -0.4921, 0.1553]),
    "1-3": dict(v_dr=1.8, k_x=0.6, k_y=1.0, k_th=1.6, c_x=0.1, c_y=1.0, c_th=0.12, y0=0.5,
                y1=0.8, th0=0.275 * math.pi,
                z0=[-0.7585, 0.7032, 0.8728, 3.2236, -1.5523, -0.0019]),
}


def first_impact(case):
    p = CASES[case]

    def rhs(t, z):
        x, y, th, xd, yd, om = z
        sx = -p["k_x"] * (x - p["v_dr"] * t) - p["c_x"] * (xd - p["v_dr"])
        sy = -p["k_y"] * (y - p["y0"]) - p["c_y"] * ((y - p["y0"]) ** 2 - p["y1"] ** 2) * yd
        r = -p["k_th"] * (th - p["th0"]) - p["c_th"] * om
        s, c = math.sin(th), math.cos(th)
        return [xd, yd, om, sx - 3 * r * s - om * om * c, sy - 3 * r * c + om * om * s, 3 * r]

    def touch(t, z):
        return z[1]

    touch.terminal = True
    touch.direction = -1
    sol = solve_ivp(rhs, (0.0, 20.0), p["z0"], method="DOP853", rtol=1e-12, atol=1e-12,
                    events=touch)
    t = sol.t_events[0][0]
    z = sol.y_events[0][0]
    return t, np.array([z[0] - p["v_dr"] * t, z[2], z[3], z[4], z[5]])


if __name__ == "__main__":
    t, u = first_impact(sys.argv[1] if len(sys.argv) > 1 else "5-9")
    print(f"t = {t:.9f}  u = (xi, theta, v_T, v_N, omega) = " + ", ".join(f"{v:.9f}" for v in u))
