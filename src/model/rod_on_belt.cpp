#include "clatter/model/rod_on_belt.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

void validate(const RodOnBeltParameters& p, const std::string& prefix) {
  const auto finite = [&](double v, const char* k) { require_finite(v, (prefix + k).c_str()); };
  const auto nonneg = [&](double v, const char* k) {
    finite(v, k);
    require(v >= 0.0, (prefix + k).c_str(), "must be >= 0", v);
  };
  finite(p.v_dr, "v_dr");
  nonneg(p.k_x, "k_x");
  nonneg(p.k_y, "k_y");
  nonneg(p.k_theta, "k_theta");
  nonneg(p.c_x, "c_x");
  nonneg(p.c_y, "c_y");
  nonneg(p.c_theta, "c_theta");
  finite(p.y0, "y0");
  nonneg(p.y1, "y1");
  finite(p.theta0, "theta0");
}

RodOnBelt::RodOnBelt(const RodOnBeltParameters& p, const LawChoice& law) : p_(p) {
  validate(p_, "model.");
  set_contacts({Contact::with_law("P1", law)});
}

std::vector<std::string> RodOnBelt::coordinate_names() const { return {"x", "y", "theta"}; }

MatQ RodOnBelt::mass_matrix(double /*t*/, const VecQ& q) const {
  const double s = std::sin(q(2)), c = std::cos(q(2));
  MatQ M(3, 3);
  M << 1.0, 0.0, s, 0.0, 1.0, c, s, c, 4.0 / 3.0;
  return M;
}

Vec3 RodOnBelt::forces_at_G(double t, const VecQ& q, const VecQ& qd) const {
  const double xi = q(0) - p_.v_dr * t;
  const double dy = q(1) - p_.y0;
  const double Sx = -p_.k_x * xi - p_.c_x * (qd(0) - p_.v_dr);
  const double Sy = -p_.k_y * dy - p_.c_y * (dy * dy - p_.y1 * p_.y1) * qd(1);
  const double R = -p_.k_theta * (q(2) - p_.theta0) - p_.c_theta * qd(2);
  return {Sx, Sy, R};
}

void RodOnBelt::forces_and_power(double t, const VecQ& q, const VecQ& qd, double s, double c,
                                 VecQ& f, double& power) const {
  const double w2 = qd(2) * qd(2);
  const double xi = q(0) - p_.v_dr * t;
  const double dy = q(1) - p_.y0;
  const Vec3 F = forces_at_G(t, q, qd);
  f.resize(3);
  f << F(0) - c * w2, F(1) + s * w2, F(2) + F(0) * s + F(1) * c;
  power = -p_.c_x * (qd(0) - p_.v_dr) * qd(0) - p_.c_y * (dy * dy - p_.y1 * p_.y1) * qd(1) * qd(1) -
          p_.c_theta * qd(2) * qd(2) + (F(0) * s + F(1) * c) * qd(2) - p_.k_x * xi * p_.v_dr;
}

VecQ RodOnBelt::applied_forces(double t, const VecQ& q, const VecQ& qd, const VecA& /*aux*/) const {
  VecQ f;
  double power = 0.0;
  forces_and_power(t, q, qd, std::sin(q(2)), std::cos(q(2)), f, power);
  return f;
}

void RodOnBelt::evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& /*aux*/,
                         Evaluation& out) const {
  const double s = std::sin(q(2)), c = std::cos(q(2));
  MatQ M(3, 3);
  M << 1.0, 0.0, s, 0.0, 1.0, c, s, c, 4.0 / 3.0;
  out.mass.compute(M);
  forces_and_power(t, q, qd, s, c, out.f, out.power_applied);
  out.aux_rate = VecA();
  contact_geometry(0, t, q, qd, out.contacts[0]);
}

void RodOnBelt::contact_geometry(int /*c*/, double /*t*/, const VecQ& q, const VecQ& qd,
                                 ContactGeometry& out) const {
  out.g_N = q(1);
  out.J = Rows2::Zero(2, 3);
  out.J(0, 0) = 1.0;
  out.J(1, 1) = 1.0;
  out.w = Vec2::Zero();
  out.v = Vec2(qd(0), qd(1));
  out.gamma = Vec2::Zero();
  out.scale = 1.0 + std::abs(q(1));  // the rod's half-length and the height
}

double RodOnBelt::kinetic_energy(double /*t*/, const VecQ& q, const VecQ& qd) const {
  const double s = std::sin(q(2)), c = std::cos(q(2));
  return 0.5 * (qd(0) * qd(0) + qd(1) * qd(1)) + (qd(0) * s + qd(1) * c) * qd(2) +
         (2.0 / 3.0) * qd(2) * qd(2);
}

double RodOnBelt::potential_energy(double t, const VecQ& q) const {
  const double xi = q(0) - p_.v_dr * t;
  const double dy = q(1) - p_.y0;
  const double dth = q(2) - p_.theta0;
  return 0.5 * (p_.k_x * xi * xi + p_.k_y * dy * dy + p_.k_theta * dth * dth);
}

double RodOnBelt::applied_power(double t, const VecQ& q, const VecQ& qd,
                                const VecA& /*aux*/) const {
  VecQ f;
  double power = 0.0;
  forces_and_power(t, q, qd, std::sin(q(2)), std::cos(q(2)), f, power);
  return power;
}

double RodOnBelt::force_scale() const {
  // the springs at a unit deflection and the dampers at a unit speed
  return 1.0 + p_.k_x + p_.k_y + p_.k_theta + p_.c_x + p_.c_y * (1.0 + p_.y1 * p_.y1) + p_.c_theta;
}

double RodOnBelt::velocity_scale(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  return std::hypot(qd(0), qd(1)) + std::abs(qd(2)) + std::abs(p_.v_dr);
}

std::unique_ptr<System> RodOnBelt::clone() const { return std::make_unique<RodOnBelt>(*this); }

ParameterSet RodOnBelt::own_parameters() const {
  ParameterSet s;
  s.add("r", contact(0).law.params.e, "", "energetic restitution of [NDC] (the law's e*)");
  s.add("v_dr", p_.v_dr, "", "belt (spring reference) speed");
  s.add("k_x", p_.k_x, "", "horizontal spring");
  s.add("k_y", p_.k_y, "", "vertical spring");
  s.add("k_theta", p_.k_theta, "", "torsional spring");
  s.add("c_x", p_.c_x, "", "horizontal damper");
  s.add("c_y", p_.c_y, "", "van der Pol coefficient");
  s.add("c_theta", p_.c_theta, "", "torsional damper");
  s.add("y0", p_.y0, "", "vertical spring offset");
  s.add("y1", p_.y1, "", "half-width of the negative-damping band");
  s.add("theta0", p_.theta0, "rad", "rest angle");
  return s;
}

std::unique_ptr<System> RodOnBelt::with_own_parameter(std::string_view name, double value) const {
  if (name == "r") return with_parameter("e", value);
  RodOnBeltParameters p = p_;
  if (name == "v_dr")
    p.v_dr = value;
  else if (name == "k_x")
    p.k_x = value;
  else if (name == "k_y")
    p.k_y = value;
  else if (name == "k_theta")
    p.k_theta = value;
  else if (name == "c_x")
    p.c_x = value;
  else if (name == "c_y")
    p.c_y = value;
  else if (name == "c_theta")
    p.c_theta = value;
  else if (name == "y0")
    p.y0 = value;
  else if (name == "y1")
    p.y1 = value;
  else if (name == "theta0")
    p.theta0 = value;
  else
    (void)parameters().get(name);  // throws, naming the known parameters
  validate(p, "");
  auto out = std::make_unique<RodOnBelt>(*this);
  out->p_ = p;
  return out;
}

}  // namespace clatter::model
