#include "clatter/model/spring_block_belt.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

void validate(const SpringBlockBeltParameters& p, const std::string& prefix) {
  const auto key = [&](const char* k) { return prefix + k; };
  for (const auto& [v, k] : {std::pair{p.mass, "mass"},
                             {p.stiffness, "stiffness"},
                             {p.damping, "damping"},
                             {p.gravity, "gravity"},
                             {p.belt_velocity, "belt_velocity"}})
    require_finite(v, key(k).c_str());
  require(p.mass > 0.0, key("mass").c_str(), "must be > 0 [kg]", p.mass);
  require(p.stiffness > 0.0, key("stiffness").c_str(), "must be > 0 [N/m]", p.stiffness);
  require(p.damping >= 0.0, key("damping").c_str(), "must be >= 0 [N s/m]", p.damping);
  require(p.gravity > 0.0, key("gravity").c_str(), "must be > 0 [m/s^2]", p.gravity);
}

SpringBlockBelt::SpringBlockBelt(const SpringBlockBeltParameters& p, const Contact& contact)
    : p_(p) {
  validate(p_, "model.");
  Contact c = contact;
  c.name = "bottom";
  set_contacts({c});
}

std::vector<std::string> SpringBlockBelt::coordinate_names() const { return {"x", "y"}; }

MatQ SpringBlockBelt::mass_matrix(double /*t*/, const VecQ& /*q*/) const {
  return MatQ::Identity(2, 2) * p_.mass;
}

VecQ SpringBlockBelt::applied_forces(double /*t*/, const VecQ& q, const VecQ& qd,
                                     const VecA& /*aux*/) const {
  VecQ f(2);
  f << -p_.stiffness * q(0) - p_.damping * qd(0), -p_.mass * p_.gravity;
  return f;
}

void SpringBlockBelt::contact_geometry(int /*c*/, double /*t*/, const VecQ& q, const VecQ& qd,
                                       ContactGeometry& out) const {
  out.g_N = q(1);
  out.J = Rows2::Identity(2, 2);
  out.w = Vec2(p_.belt_velocity, 0.0);
  out.v = Vec2(qd(0) - p_.belt_velocity, qd(1));
  out.gamma = Vec2::Zero();
  out.scale = 1.0 + std::abs(q(1));
}

double SpringBlockBelt::potential_energy(double /*t*/, const VecQ& q) const {
  return 0.5 * p_.stiffness * q(0) * q(0) + p_.mass * p_.gravity * q(1);
}

double SpringBlockBelt::applied_power(double /*t*/, const VecQ& /*q*/, const VecQ& qd,
                                      const VecA& /*aux*/) const {
  return -p_.damping * qd(0) * qd(0);
}

double SpringBlockBelt::force_scale() const { return p_.mass * p_.gravity; }

std::unique_ptr<System> SpringBlockBelt::clone() const {
  return std::make_unique<SpringBlockBelt>(*this);
}

ParameterSet SpringBlockBelt::own_parameters() const {
  ParameterSet s;
  s.add("mass", p_.mass, "kg", "mass of the block");
  s.add("stiffness", p_.stiffness, "N/m", "spring to the wall");
  s.add("damping", p_.damping, "N s/m", "damper to the wall");
  s.add("gravity", p_.gravity, "m/s^2", "gravitational acceleration (along -y)");
  s.add("belt_velocity", p_.belt_velocity, "m/s", "speed of the belt along +x");
  return s;
}

std::unique_ptr<System> SpringBlockBelt::with_own_parameter(std::string_view name,
                                                            double value) const {
  SpringBlockBeltParameters p = p_;
  if (name == "mass")
    p.mass = value;
  else if (name == "stiffness")
    p.stiffness = value;
  else if (name == "damping")
    p.damping = value;
  else if (name == "gravity")
    p.gravity = value;
  else if (name == "belt_velocity")
    p.belt_velocity = value;
  else
    (void)parameters().get(name);  // throws, naming the known parameters
  validate(p, "");
  auto out = std::make_unique<SpringBlockBelt>(*this);
  out->p_ = p;
  return out;
}

}  // namespace clatter::model
