#include "clatter/compliant/stick_phase.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "clatter/compliant/stumpff.hpp"

namespace clatter::compliant {

StickFlow::StickFlow(const Model& model, const State& start) : model_(&model), start_(start) {
  const Eigen::Vector2d sqrt_k(std::sqrt(model.k1()), std::sqrt(model.k3));
  const Eigen::Matrix2d S = sqrt_k.asDiagonal() * model.W.matrix() * sqrt_k.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es;
  es.computeDirect(S);
  sigma_ = es.eigenvalues();
  // a singular W gives one eigenvalue at round-off level: make it an exact zero-frequency mode
  const double sigma_max = std::max(sigma_(1), 0.0);
  for (int i = 0; i < 2; ++i) {
    if (sigma_(i) <= 1e-12 * sigma_max) sigma_(i) = 0.0;
  }
  const Eigen::Matrix2d Q = es.eigenvectors();
  map_ = sqrt_k.cwiseInverse().asDiagonal() * Q;
  const Eigen::Matrix2d to_modal = Q.transpose() * sqrt_k.asDiagonal();
  q0_ = to_modal * Eigen::Vector2d(start.u1, start.u3);
  qdot0_ = to_modal * Eigen::Vector2d(start.x_dot, start.z_dot);
  // periodic: the zero mode does not drift (relative to the velocity scale of the motion,
  // which counts the whole deformation: a wedged pendulum holds its load in the zero mode with
  // q0_(1) and both velocities at round-off level, and must still be recognised as at rest)
  if (sigma_(0) == 0.0 && sigma_(1) > 0.0) {
    const double scale =
        std::abs(qdot0_(1)) + std::sqrt(sigma_(1)) * (std::abs(q0_(0)) + std::abs(q0_(1)));
    periodic_ = std::abs(qdot0_(0)) <= 1e-12 * scale;
    if (periodic_) qdot0_(0) = 0.0;
  }
}

double StickFlow::time_scale() const { return sigma_(1) > 0.0 ? 1.0 / std::sqrt(sigma_(1)) : 1.0; }

State StickFlow::at(double tau) const {
  Eigen::Vector2d q, qdot, q_int;
  for (int i = 0; i < 2; ++i) {
    const Stumpff st = stumpff(sigma_(i), tau);
    q(i) = q0_(i) * st.c0 + qdot0_(i) * st.c1;
    qdot(i) = -sigma_(i) * q0_(i) * st.c1 + qdot0_(i) * st.c0;
    q_int(i) = q0_(i) * st.c1 + qdot0_(i) * st.c2;
  }
  const Eigen::Vector2d u = map_ * q;
  const Eigen::Vector2d v = map_ * qdot;
  // ΔP = −K ∫u = −K map_ ∫q
  const Eigen::Vector2d k(model_->k1(), model_->k3);
  const Eigen::Vector2d dP = -(k.asDiagonal() * (map_ * q_int));
  State s;
  s.t = start_.t + tau;
  s.u1 = u(0);
  s.u3 = u(1);
  s.x_dot = v(0);
  s.z_dot = v(1);
  s.u1_dot = v(0);
  s.P1 = start_.P1 + dP(0);
  s.P3 = start_.P3 + dP(1);
  return s;
}

ModalSum StickFlow::deformation(double c1, double c3) const {
  ModalSum f;
  f.n = 2;
  const Eigen::RowVector2d w = Eigen::RowVector2d(c1, c3) * map_;
  for (int i = 0; i < 2; ++i) {
    f.sigma[i] = sigma_(i);
    f.alpha[i] = w(i) * q0_(i);
    f.beta[i] = w(i) * qdot0_(i);
  }
  return f;
}

}  // namespace clatter::compliant
