#include "clatter/model/double_pendulum_belt.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

void DoublePendulumBelt::validate() const {
  const auto positive = [](double x, const char* field) {
    require(std::isfinite(x) && x > 0.0, field, "must be positive and finite");
  };
  positive(m1, "m1");
  positive(m2, "m2");
  positive(l1, "l1");
  positive(l2, "l2");
  positive(g, "g");
  require(std::isfinite(torque), "torque", "must be finite");
  require(std::isfinite(d), "d", "must be finite");
  require(std::isfinite(belt_velocity), "belt_velocity", "must be finite");
}

Mat2 DoublePendulumBelt::mass_matrix(const Vec2& q) const {
  const double c = m2 * l1 * l2 * std::cos(q.x() - q.y());
  return (Mat2() << (m1 + m2) * l1 * l1, c, c, m2 * l2 * l2).finished();
}

Vec2 DoublePendulumBelt::bias(const Vec2& q, const Vec2& qd) const {
  const double s = m2 * l1 * l2 * std::sin(q.x() - q.y());
  return {s * qd.y() * qd.y() + (m1 + m2) * g * l1 * std::sin(q.x()) - torque,
          -s * qd.x() * qd.x() + m2 * g * l2 * std::sin(q.y())};
}

Mat2 DoublePendulumBelt::contact_jacobian(const Vec2& q) const {
  return (Mat2() << l1 * std::sin(q.x()), l2 * std::sin(q.y()), l1 * std::cos(q.x()),
          l2 * std::cos(q.y()))
      .finished();
}

Vec2 DoublePendulumBelt::contact_position(const Vec2& q) const {
  return {-l1 * std::cos(q.x()) - l2 * std::cos(q.y()),
          l1 * std::sin(q.x()) + l2 * std::sin(q.y()) + d};
}

Vec2 DoublePendulumBelt::contact_bias(const Vec2& q, const Vec2& qd) const {
  const double a = qd.x() * qd.x(), b = qd.y() * qd.y();
  return {l1 * std::cos(q.x()) * a + l2 * std::cos(q.y()) * b,
          -l1 * std::sin(q.x()) * a - l2 * std::sin(q.y()) * b};
}

ContactMatrix DoublePendulumBelt::delassus(const Vec2& q) const {
  const Mat2 N = contact_jacobian(q);
  const Mat2 W = N * mass_matrix(q).inverse() * N.transpose();
  return {W(0, 0), 0.5 * (W(0, 1) + W(1, 0)), W(1, 1)};
}

Vec2 DoublePendulumBelt::acceleration(const Vec2& q, const Vec2& qd, const Vec2& lambda) const {
  return mass_matrix(q).inverse() * (contact_jacobian(q).transpose() * lambda - bias(q, qd));
}

DoublePendulumBelt DoublePendulumBelt::touching(const Vec2& q) const {
  DoublePendulumBelt p = *this;
  p.d = -(l1 * std::sin(q.x()) + l2 * std::sin(q.y()));
  return p;
}

DoublePendulumBelt::Equilibrium DoublePendulumBelt::printed_equilibrium(const Vec2& q,
                                                                        double mu0) const {
  const double st = std::sin(q.x()), ct = std::cos(q.x());
  const double sp = std::sin(q.y()), cp = std::cos(q.y());
  Equilibrium e;
  e.lambda_N = m2 * g * sp / (mu0 * sp + cp);                                   // (6.29)
  e.torque = (m1 + m2) * g * l1 * st - e.lambda_N * (mu0 * l1 * st + l1 * ct);  // (6.30)
  return e;
}

}  // namespace clatter::model
