#include "clatter/model/physical_pendulum.hpp"

#include <cmath>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::model {

void validate(const PhysicalPendulumParameters& p, const std::string& prefix) {
  const auto key = [&](const char* k) { return prefix + k; };
  for (const auto& [v, k] : {std::pair{p.mass, "mass"},
                             {p.com_distance, "com_distance"},
                             {p.inertia, "inertia"},
                             {p.tip_distance, "tip_distance"},
                             {p.tip_radius, "tip_radius"},
                             {p.gravity, "gravity"},
                             {p.line_height, "line_height"},
                             {p.line_angle, "line_angle"}})
    require_finite(v, key(k).c_str());
  require(p.mass > 0.0, key("mass").c_str(), "must be > 0 [kg]", p.mass);
  require(p.com_distance >= 0.0, key("com_distance").c_str(), "must be >= 0 [m]", p.com_distance);
  require(p.inertia > 0.0 && p.inertia >= p.mass * p.com_distance * p.com_distance * (1 - 1e-12),
          key("inertia").c_str(), "must be > 0 and >= mass * com_distance^2 [kg m^2]", p.inertia);
  require(p.tip_distance > 0.0, key("tip_distance").c_str(), "must be > 0 [m]", p.tip_distance);
  require(p.tip_radius >= 0.0, key("tip_radius").c_str(), "must be >= 0 [m]", p.tip_radius);
  require(p.gravity >= 0.0, key("gravity").c_str(), "must be >= 0 [m/s^2]", p.gravity);
  require(std::abs(p.line_angle) < 0.5 * std::numbers::pi, key("line_angle").c_str(),
          "must lie in (-pi/2, pi/2) [rad]", p.line_angle);
  // the pivot (origin) on the open side: n·(O − (0, h)) = −h cos α > ρ
  require(-p.line_height * std::cos(p.line_angle) > p.tip_radius, key("line_height").c_str(),
          "must put the pivot above the line (h cos(line_angle) < -tip_radius) [m]", p.line_height);
}

PhysicalPendulum::PhysicalPendulum(const PhysicalPendulumParameters& p, const LawChoice& law)
    : p_(p) {
  validate(p_, "model.");
  set_contacts({Contact::with_law("tip", law)});
}

std::vector<std::string> PhysicalPendulum::coordinate_names() const { return {"phi"}; }

MatQ PhysicalPendulum::mass_matrix(double /*t*/, const VecQ& /*q*/) const {
  return MatQ::Constant(1, 1, p_.inertia);
}

VecQ PhysicalPendulum::applied_forces(double /*t*/, const VecQ& q, const VecQ& /*qd*/,
                                      const VecA& /*aux*/) const {
  return VecQ::Constant(1, -p_.mass * p_.gravity * p_.com_distance * std::sin(q(0)));
}

void PhysicalPendulum::contact_geometry(int /*c*/, double /*t*/, const VecQ& q, const VecQ& qd,
                                        ContactGeometry& out) const {
  const double s = std::sin(q(0)), c = std::cos(q(0));
  const Vec2 a(s, -c), ap(c, s);
  const Vec2 t(std::cos(p_.line_angle), std::sin(p_.line_angle));
  const Vec2 n(-t.y(), t.x());
  const double l = p_.tip_distance;
  out.g_N = n.dot(l * a - Vec2(0.0, p_.line_height)) - p_.tip_radius;
  out.J = Rows2::Zero(2, 1);
  out.J(0, 0) = l * t.dot(ap) + p_.tip_radius;
  out.J(1, 0) = l * n.dot(ap);
  out.w = Vec2::Zero();
  out.v = out.J * qd;
  const double w2 = qd(0) * qd(0);
  out.gamma = Vec2(-l * w2 * t.dot(a), -l * w2 * n.dot(a));
  out.scale = l + std::abs(p_.line_height) + p_.tip_radius;
}

double PhysicalPendulum::potential_energy(double /*t*/, const VecQ& q) const {
  return -p_.mass * p_.gravity * p_.com_distance * std::cos(q(0));
}

double PhysicalPendulum::force_scale() const {
  // gravity, or (weightless pendulum) the inertia over the arm at unit angular acceleration
  return std::max(p_.mass * p_.gravity, p_.inertia / p_.tip_distance);
}

double PhysicalPendulum::velocity_scale(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  return (p_.tip_distance + p_.tip_radius) * std::abs(qd(0));
}

std::unique_ptr<System> PhysicalPendulum::clone() const {
  return std::make_unique<PhysicalPendulum>(*this);
}

ParameterSet PhysicalPendulum::own_parameters() const {
  ParameterSet s;
  s.add("mass", p_.mass, "kg", "mass");
  s.add("com_distance", p_.com_distance, "m", "pivot to centre of mass");
  s.add("inertia", p_.inertia, "kg m^2", "moment of inertia about the pivot");
  s.add("tip_distance", p_.tip_distance, "m", "pivot to the tip's centre");
  s.add("tip_radius", p_.tip_radius, "m", "radius of the tip (0: a point)");
  s.add("gravity", p_.gravity, "m/s^2", "gravitational acceleration (along -y)");
  s.add("line_height", p_.line_height, "m", "the line passes through (0, line_height)");
  s.add("line_angle", p_.line_angle, "rad", "inclination of the line");
  return s;
}

std::unique_ptr<System> PhysicalPendulum::with_own_parameter(std::string_view name,
                                                             double value) const {
  PhysicalPendulumParameters p = p_;
  if (name == "mass")
    p.mass = value;
  else if (name == "com_distance")
    p.com_distance = value;
  else if (name == "inertia")
    p.inertia = value;
  else if (name == "tip_distance")
    p.tip_distance = value;
  else if (name == "tip_radius")
    p.tip_radius = value;
  else if (name == "gravity")
    p.gravity = value;
  else if (name == "line_height")
    p.line_height = value;
  else if (name == "line_angle")
    p.line_angle = value;
  else
    (void)parameters().get(name);  // throws, naming the known parameters
  validate(p, "");
  auto out = std::make_unique<PhysicalPendulum>(*this);
  out->p_ = p;
  return out;
}

}  // namespace clatter::model
