"""A user's own model written in Python (docs/python.md): a rigid body in the plane with point
contacts above a vertically oscillating floor h(t) = A sin(omega t), the same mechanics as the
built-in planar bodies (src/model/planar_body_model.cpp), written as a researcher would.

    q = (x, y, theta),  M = diag(m, m, I),  f = (0, -m g, 0),  V = m g y
    contact at body point c (body frame), world offset r = R(theta) c:
      g_N = y + r_y - h(t),   v = J qd - w,   J = [[1, 0, -r_y], [0, 1, r_x]],
      w = (0, hdot(t)),       gamma = (-thetadot^2 r_x, -thetadot^2 r_y - hddot(t))

Use:  clatter.python_model(PlanarBody.rod(mass=1, half_length=1), law="stronge", e=0.8, mu=0.05)
The optional scale methods give the engine the same tolerances as the built-in model, so that
both runs agree to round-off (tests/python/test_python_model.py).
"""
import copy
import math

import numpy as np


class PlanarBody:
    coordinate_names = ["x", "y", "theta"]
    nq = 3

    def __init__(self, mass, inertia, points, names, gravity=9.81, amplitude=0.0, omega=0.0):
        self.m, self.I, self.g = mass, inertia, gravity
        self.points, self.contacts = points, names
        self.A, self.omega = amplitude, omega

    @classmethod
    def ball(cls, mass=1.0, **surface):
        # a point mass: its spin is decoupled, any I > 0 gives the same motion (I = m, as built in)
        return cls(mass, mass, [(0.0, 0.0)], ["ball"], **surface)

    @classmethod
    def rod(cls, mass=1.0, half_length=1.0, **surface):
        L = half_length
        return cls(mass, mass * L * L / 3.0, [(-L, 0.0), (L, 0.0)], ["P1", "P2"], **surface)

    # its parameters by name, with the built-in planar bodies' names: sweeps, continuation and
    # DIB change them through with_parameter (clatter.python_model)
    _attributes = {"mass": "m", "gravity": "g", "surface.amplitude": "A", "surface.omega": "omega"}

    def parameters(self):
        return {"mass": (self.m, "kg", "mass"),
                "gravity": (self.g, "m/s^2", "gravitational acceleration"),
                "surface.amplitude": (self.A, "m", "floor motion h = A sin(omega t)"),
                "surface.omega": (self.omega, "rad/s", "floor frequency")}

    def with_parameter(self, name, value):
        other = copy.copy(self)
        setattr(other, self._attributes[name], value)
        return other

    def mass_matrix(self, t, q):
        return np.diag(np.array([self.m, self.m, self.I]))

    def applied_forces(self, t, q, qd):
        return np.array([0.0, -self.m * self.g, 0.0])

    def floor(self, t):
        """h, hdot, hddot of the floor."""
        if self.A == 0.0:
            return 0.0, 0.0, 0.0
        s, c = math.sin(self.omega * t), math.cos(self.omega * t)
        return self.A * s, self.A * self.omega * c, -self.A * self.omega * self.omega * s

    def contact(self, c, t, q, qd):
        cx, cy = self.points[c]
        if cx == 0.0 and cy == 0.0:
            rx = ry = 0.0
        else:
            s, co = math.sin(q[2]), math.cos(q[2])
            rx, ry = cx * co - cy * s, cx * s + cy * co
        h, hdot, hddot = self.floor(t)
        w2 = qd[2] * qd[2]
        J = np.array([[1.0, 0.0, -ry], [0.0, 1.0, rx]])
        scale = abs(q[1]) + math.hypot(cx, cy) + abs(self.A)
        return q[1] + ry - h, J, np.array([0.0, hdot]), np.array([-w2 * rx, -w2 * ry - hddot]), scale

    def potential_energy(self, t, q):
        return self.m * self.g * q[1]

    def kinetic_energy(self, t, q, qd):
        return 0.5 * (self.m * (qd[0] * qd[0] + qd[1] * qd[1]) + self.I * qd[2] * qd[2])

    def force_scale(self):
        return self.m * (self.g + abs(self.A) * self.omega * self.omega)

    def mass_scale(self):
        return self.m

    def velocity_scale(self, t, q, qd):
        return math.sqrt(qd[0] * qd[0] + qd[1] * qd[1]) + abs(self.A * self.omega)

    def rate_bound(self, qd):
        return self.omega + abs(qd[2])

    def gap_scale(self, c, t, q):
        return abs(q[1]) + math.hypot(*self.points[c]) + abs(self.A)
