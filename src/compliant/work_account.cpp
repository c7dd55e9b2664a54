#include "clatter/compliant/work_account.hpp"

#include "clatter/compliant/slip_phase.hpp"
#include "clatter/compliant/stick_phase.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace clatter::compliant {

namespace {

// 10-point Gauss–Legendre rule on [−1, 1]
constexpr std::array<double, 5> kNodes = {0.1488743389816312, 0.4333953941292472,
                                          0.6794095682990244, 0.8650633666889845,
                                          0.9739065285171717};
constexpr std::array<double, 5> kWeights = {0.2955242247147529, 0.2692667193099963,
                                            0.2190863625159820, 0.1494513491505806,
                                            0.0666713443086881};
constexpr int kPanels = 16;

struct Works {
  double friction{0.0}, work1{0.0}, work3{0.0};
};

template <class Flow>
Works integrate(const Model& model, const Flow& flow, double t_start, double a, double b) {
  Works w;
  if (!(b > a)) return w;
  const double h = (b - a) / kPanels;
  for (int p = 0; p < kPanels; ++p) {
    const double mid = a + (p + 0.5) * h;
    for (int k = 0; k < 5; ++k) {
      for (const double sgn : {-1.0, 1.0}) {
        const State s = flow.at(mid + sgn * 0.5 * h * kNodes[k] - t_start);
        const double weight = 0.5 * h * kWeights[k];
        w.friction += weight * s.F1(model) * s.slip_velocity();
        w.work1 += weight * s.F1(model) * s.x_dot;
        w.work3 += weight * s.F3(model) * s.z_dot;
      }
    }
  }
  return w;
}

}  // namespace

double contact_kinetic_energy(const ContactMatrix& W, double x_dot, double z_dot) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es;
  es.computeDirect(W.matrix());
  const Eigen::Vector2d c = es.eigenvectors().transpose() * Eigen::Vector2d(x_dot, z_dot);
  const double lambda_max = es.eigenvalues()(1);
  double e = 0.0;
  for (int i = 0; i < 2; ++i) {
    const double l = es.eigenvalues()(i);
    if (l > 1e-12 * lambda_max) e += 0.5 * c(i) * c(i) / l;
  }
  return e;
}

WorkAccount work_account(const Model& model, const Result& result) {
  WorkAccount L;
  const State& s0 = result.initial;
  L.kinetic_energy_pre = contact_kinetic_energy(model.W, s0.x_dot, s0.z_dot);
  const double t_c = std::isnan(result.t_c) ? std::numeric_limits<double>::infinity() : result.t_c;
  State end = s0;
  for (int i = 0; i < result.n_phases; ++i) {
    const Phase& ph = result.phases[i];
    const double t1 = std::isfinite(ph.t_end) ? ph.t_end : ph.t_start;
    Works compression, restitution;
    const auto run = [&](const auto& flow) {
      compression = integrate(model, flow, ph.t_start, ph.t_start, std::min(t1, t_c));
      restitution = integrate(model, flow, ph.t_start, std::max(ph.t_start, t_c), t1);
      end = flow.at(t1 - ph.t_start);
    };
    if (ph.mode == Mode::kStick) {
      run(StickFlow(model, ph.start));
    } else {
      run(SlipFlow(model, ph.start, ph.slip_sign));
      L.friction_work_phase[i] = compression.friction + restitution.friction;
      L.friction_work += L.friction_work_phase[i];
    }
    L.work1_c += compression.work1;
    L.work1_r += restitution.work1;
    L.work3_c += compression.work3;
    L.work3_r += restitution.work3;
    L.t_end = t1;
  }
  if (result.n_phases > 0 && result.last().end == PhaseEnd::kSeparation) end.u1 = end.u3 = 0.0;
  const Eigen::Vector2d P(end.P1, end.P3);
  L.kinetic_energy_change =
      P.dot(Eigen::Vector2d(s0.x_dot, s0.z_dot)) + 0.5 * P.dot(model.W.matrix() * P);
  L.spring_energy_end = end.spring_energy(model);
  L.residual = L.kinetic_energy_change + L.spring_energy_end - L.friction_work;
  return L;
}

}  // namespace clatter::compliant
