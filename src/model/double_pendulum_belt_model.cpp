#include "clatter/model/double_pendulum_belt_model.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

namespace {
Vec2 head2(const VecQ& v) { return {v(0), v(1)}; }
}  // namespace

DoublePendulumBeltModel::DoublePendulumBeltModel(const DoublePendulumBelt& pendulum,
                                                 const LawChoice& law)
    : p_(pendulum) {
  p_.validate();
  set_contacts({Contact::with_law("end", law)});
}

MatQ DoublePendulumBeltModel::mass_matrix(double /*t*/, const VecQ& q) const {
  return p_.mass_matrix(head2(q));
}

VecQ DoublePendulumBeltModel::applied_forces(double /*t*/, const VecQ& q, const VecQ& qd,
                                             const VecA& /*aux*/) const {
  return -p_.bias(head2(q), head2(qd));
}

void DoublePendulumBeltModel::contact_geometry(int /*c*/, double /*t*/, const VecQ& q,
                                               const VecQ& qd, ContactGeometry& out) const {
  const Vec2 q2 = head2(q), qd2 = head2(qd);
  const Mat2 N = p_.contact_jacobian(q2);
  out.g_N = p_.contact_position(q2).y();
  out.J = N;
  out.w = {p_.belt_velocity, 0.0};
  out.v = N * qd2 - out.w;
  out.gamma = p_.contact_bias(q2, qd2);
  out.scale = p_.l1 + p_.l2 + std::abs(p_.d);
}

double DoublePendulumBeltModel::potential_energy(double /*t*/, const VecQ& q) const {
  return -(p_.m1 + p_.m2) * p_.g * p_.l1 * std::cos(q(0)) - p_.m2 * p_.g * p_.l2 * std::cos(q(1)) -
         p_.torque * q(0);
}

double DoublePendulumBeltModel::force_scale() const {
  return (p_.m1 + p_.m2) * p_.g + std::abs(p_.torque) / (p_.l1 + p_.l2);
}

std::unique_ptr<System> DoublePendulumBeltModel::clone() const {
  return std::make_unique<DoublePendulumBeltModel>(*this);
}

ParameterSet DoublePendulumBeltModel::own_parameters() const {
  ParameterSet s;
  s.add("m1", p_.m1, "kg", "upper point mass");
  s.add("m2", p_.m2, "kg", "lower point mass");
  s.add("l1", p_.l1, "m", "upper link");
  s.add("l2", p_.l2, "m", "lower link");
  s.add("gravity", p_.g, "m/s^2", "gravity");
  s.add("torque", p_.torque, "N m", "constant torque at the top joint");
  s.add("d", p_.d, "m", "normal distance of the top joint from the belt");
  s.add("belt_velocity", p_.belt_velocity, "m/s", "belt velocity V along n1");
  return s;
}

std::unique_ptr<System> DoublePendulumBeltModel::with_own_parameter(std::string_view name,
                                                                    double value) const {
  DoublePendulumBelt p = p_;
  if (name == "m1")
    p.m1 = value;
  else if (name == "m2")
    p.m2 = value;
  else if (name == "l1")
    p.l1 = value;
  else if (name == "l2")
    p.l2 = value;
  else if (name == "gravity")
    p.g = value;
  else if (name == "torque")
    p.torque = value;
  else if (name == "d")
    p.d = value;
  else if (name == "belt_velocity")
    p.belt_velocity = value;
  else
    (void)parameters().get(name);  // throws, listing the known names
  auto m = std::make_unique<DoublePendulumBeltModel>(p, contact(0).law);
  m->set_contacts({contact(0)});
  return m;
}

}  // namespace clatter::model
