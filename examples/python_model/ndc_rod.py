"""[NDC] §5.3's rod dragged on a belt, written as a user's Python model (docs/python.md): the same
mechanics as the built-in C++ model rod_on_belt (include/clatter/model/rod_on_belt.hpp), for
clatter.python_model(..., compile=True) to be measured against it (bench/compiled_model_bench.py).

A homogeneous rod of unit mass and length 2 (I_G = 1/3), end P1 on the line y = 0; a spring and a
damper pull its centre G towards a reference moving at v_dr, a van der Pol force drives it
vertically, a torsional spring and damper hold its angle; no gravity; dimensionless.
    q = (x, y, theta): P1 = (x, y), G = (x - cos theta, y + sin theta); s, c = sin, cos theta
    M = [[1, 0, s], [0, 1, c], [s, c, 4/3]]
    at G, xi = x - v_dr t:  S_x = -k_x xi - c_x (xdot - v_dr),
                            S_y = -k_y (y - y0) - c_y ((y - y0)^2 - y1^2) ydot,
                            R = -k_theta (theta - theta0) - c_theta thetadot
    f = (S_x - c thetadot^2, S_y + s thetadot^2, R + S_x s + S_y c)
    contact P1 on y = 0: g_N = y, J = [[1, 0, 0], [0, 1, 0]], w = 0, gamma = 0
    V = (k_x xi^2 + k_y (y - y0)^2 + k_theta (theta - theta0)^2)/2 (bookkeeping: the springs act
    at G), and the power P_a of everything but the contact, as the C++ model states it.
The impact law is the contact's: [NDC]'s r is Stronge's e* (python_model(..., law="stronge",
e=r, mu=mu)). The state methods return tuples and use only numbers and math: compiled, they do not
allocate (docs/python.md, "Compiled models").
"""
import copy
import math

NAMES = ("v_dr", "k_x", "k_y", "k_theta", "c_x", "c_y", "c_theta", "y0", "y1", "theta0")


class NdcRod:
    coordinate_names = ["x", "y", "theta"]
    contacts = ["P1"]
    nq = 3

    def __init__(self, v_dr, k_x, k_y, k_theta, c_x, c_y, c_theta, y0, y1, theta0):
        self.v_dr, self.k_x, self.k_y, self.k_theta = v_dr, k_x, k_y, k_theta
        self.c_x, self.c_y, self.c_theta = c_x, c_y, c_theta
        self.y0, self.y1, self.theta0 = y0, y1, theta0

    @classmethod
    def from_parameters(cls, parameters):
        """From a built-in rod_on_belt's parameters (Model.parameters: a dict name -> value)."""
        return cls(**{k: parameters[k] for k in NAMES})

    def parameters(self):
        return {k: getattr(self, k) for k in NAMES}

    def with_parameter(self, name, value):
        other = copy.copy(self)
        setattr(other, name, value)
        return other

    def mass_matrix(self, t, q):
        s, c = math.sin(q[2]), math.cos(q[2])
        return ((1.0, 0.0, s), (0.0, 1.0, c), (s, c, 4.0 / 3.0))

    def forces_at_G(self, t, q, qd):
        xi = q[0] - self.v_dr * t
        dy = q[1] - self.y0
        Sx = -self.k_x * xi - self.c_x * (qd[0] - self.v_dr)
        Sy = -self.k_y * dy - self.c_y * (dy * dy - self.y1 * self.y1) * qd[1]
        R = -self.k_theta * (q[2] - self.theta0) - self.c_theta * qd[2]
        return Sx, Sy, R

    def applied_forces(self, t, q, qd):
        s, c = math.sin(q[2]), math.cos(q[2])
        Sx, Sy, R = self.forces_at_G(t, q, qd)
        w2 = qd[2] * qd[2]
        return (Sx - c * w2, Sy + s * w2, R + Sx * s + Sy * c)

    def contact(self, c, t, q, qd):
        return q[1], ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)), (0.0, 0.0), (0.0, 0.0), 1.0 + abs(q[1])

    def kinetic_energy(self, t, q, qd):
        s, c = math.sin(q[2]), math.cos(q[2])
        return (0.5 * (qd[0] * qd[0] + qd[1] * qd[1]) + (qd[0] * s + qd[1] * c) * qd[2]
                + (2.0 / 3.0) * qd[2] * qd[2])

    def potential_energy(self, t, q):
        xi = q[0] - self.v_dr * t
        dy = q[1] - self.y0
        dth = q[2] - self.theta0
        return 0.5 * (self.k_x * xi * xi + self.k_y * dy * dy + self.k_theta * dth * dth)

    def applied_power(self, t, q, qd):
        s, c = math.sin(q[2]), math.cos(q[2])
        Sx, Sy, R = self.forces_at_G(t, q, qd)
        xi = q[0] - self.v_dr * t
        dy = q[1] - self.y0
        return (-self.c_x * (qd[0] - self.v_dr) * qd[0]
                - self.c_y * (dy * dy - self.y1 * self.y1) * qd[1] * qd[1]
                - self.c_theta * qd[2] * qd[2] + (Sx * s + Sy * c) * qd[2]
                - self.k_x * xi * self.v_dr)

    def force_scale(self):
        return (1.0 + self.k_x + self.k_y + self.k_theta + self.c_x
                + self.c_y * (1.0 + self.y1 * self.y1) + self.c_theta)

    def velocity_scale(self, t, q, qd):
        return math.hypot(qd[0], qd[1]) + abs(qd[2]) + abs(self.v_dr)
