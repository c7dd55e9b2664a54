#include "clatter/hybrid/constrained_dynamics.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "clatter/contact/delassus.hpp"
#include "clatter/core/scratch.hpp"

namespace clatter::hybrid {

namespace {

constexpr int kMaxRows = 2 * kMaxContacts;
using MatK = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows>;
using VecK = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1>;
using RowsK = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, model::kMaxDof>;

}  // namespace

ConstrainedDynamics constrained_dynamics(const model::System& model, double t, const VecQ& q,
                                         const VecQ& qd, const Modes& modes,
                                         const Stabilization& stab) {
  ConstrainedDynamics out;
  constrained_dynamics(model, t, q, qd, VecA(), modes, stab, out);
  return out;
}

void constrained_dynamics(const model::System& model, double t, const VecQ& q, const VecQ& qd,
                          const VecA& aux, const Modes& modes, const Stabilization& stab,
                          ConstrainedDynamics& out, ContactScope scope) {
  const int n_c = model.num_contacts();
  const int n = model.nq();
  Scratch<int, kMaxContacts> closed;
  int n_closed = 0;
  if (scope == ContactScope::kClosed) {
    for (int c = 0; c < n_c; ++c)
      if (is_closed(modes[static_cast<std::size_t>(c)]))
        closed[static_cast<std::size_t>(n_closed++)] = c;
    out.eval.num_requested = n_closed;
    out.eval.requested = closed.data();
  } else {
    out.eval.num_requested = -1;
  }
  model.evaluate(t, q, qd, aux, out.eval);
  out.eval.num_requested = -1;
  out.eval.requested = nullptr;
  out.painleve_contact = -1;
  out.painleve_k_N = 0.0;
  const model::MassFactor& Mf = out.eval.mass;
  const VecQ Minv_f = Mf.solve(out.eval.f);

  // rows of the closed contacts: (contact, tangential?) pairs
  Scratch<int, kMaxRows> row_contact;
  Scratch<bool, kMaxRows> row_tangential;
  int k = 0;
  for (int c = 0; c < n_c; ++c) {
    const auto ci = static_cast<std::size_t>(c);
    out.lambda[ci] = Vec2::Zero();
    out.k_N[ci] = 0.0;
    if (!is_closed(modes[ci])) continue;
    if (modes[ci] == ContactMode::kStick) {
      row_contact[static_cast<std::size_t>(k)] = c;
      row_tangential[static_cast<std::size_t>(k++)] = true;
    }
    row_contact[static_cast<std::size_t>(k)] = c;
    row_tangential[static_cast<std::size_t>(k++)] = false;
  }

  VecQ qdd = Minv_f;
  if (k > 0) {
    RowsK G(k, n), D(k, n);
    VecK rhs(k);
    const double w = stab.omega;
    for (int r = 0; r < k; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      const auto ci = static_cast<std::size_t>(row_contact[ri]);
      const model::ContactGeometry& kin = out.eval.contacts[ci];
      const double mu = model.contact(row_contact[ri]).mu_d;
      if (row_tangential[ri]) {
        G.row(r) = kin.J.row(0);
        D.row(r) = kin.J.row(0);
        rhs(r) = -w * kin.v.x() - kin.gamma.x();
      } else {
        G.row(r) = kin.J.row(1);
        D.row(r) = kin.J.row(1) - slip_sign(modes[ci]) * mu * kin.J.row(0);
        rhs(r) = -2.0 * stab.zeta * w * kin.v.y() - w * w * kin.g_N - kin.gamma.y();
      }
      rhs(r) -= G.row(r).dot(Minv_f);
    }
    RowsK MinvDt(k, n);  // rows: (M⁻¹ D_rᵀ)ᵀ
    inverse_mass_transpose(Mf, D, MinvDt.transpose());
    const MatK K = G.lazyProduct(MinvDt.transpose());
    VecK lambda(k);
    // small systems in closed form; singular or larger ones by the minimum-norm solution
    const double det2 = k == 2 ? K(0, 0) * K(1, 1) - K(0, 1) * K(1, 0) : 0.0;
    if (k == 1) {
      lambda(0) = rhs(0) / K(0, 0);
    } else if (k == 2 &&
               std::abs(det2) > 1e-12 * K.cwiseAbs().maxCoeff() * K.cwiseAbs().maxCoeff()) {
      lambda(0) = (K(1, 1) * rhs(0) - K(0, 1) * rhs(1)) / det2;
      lambda(1) = (K(0, 0) * rhs(1) - K(1, 0) * rhs(0)) / det2;
    } else {
      lambda = K.completeOrthogonalDecomposition().solve(rhs);
    }
    qdd += MinvDt.transpose().lazyProduct(lambda);
    for (int r = 0; r < k; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      const int c = row_contact[ri];
      const auto ci = static_cast<std::size_t>(c);
      if (row_tangential[ri]) {
        out.lambda[ci].x() = lambda(r);
      } else {
        out.lambda[ci].y() = lambda(r);
        if (is_sliding(modes[ci])) {
          const double mu = model.contact(c).mu_d;
          out.lambda[ci].x() = -slip_sign(modes[ci]) * mu * lambda(r);
          // the slip mode's k_N: Painlevé when ≤ 0
          const double k_N = G.row(r).dot(MinvDt.row(r));
          out.k_N[ci] = k_N;
          if (k_N <= 0.0 && out.painleve_contact < 0) {
            out.painleve_contact = c;
            out.painleve_k_N = k_N;
          }
        }
      }
    }
  }
  // sticking contacts with the same tangential row (a flat body on two corners) share their
  // tangential force in any proportion without changing the motion: it is shared in proportion
  // to their normal forces, so that each contact is within its cone exactly when the group is
  std::array<bool, kMaxContacts> grouped{};
  for (int c = 0; c < n_c; ++c) {
    const auto ci = static_cast<std::size_t>(c);
    if (modes[ci] != ContactMode::kStick || grouped[ci]) continue;
    Scratch<int, kMaxContacts> group;
    int size = 0;
    double total_T = 0.0, total_N = 0.0;
    const double scale = out.eval.contacts[ci].J.row(0).norm();
    for (int j = c; j < n_c; ++j) {
      const auto cj = static_cast<std::size_t>(j);
      if (modes[cj] != ContactMode::kStick || grouped[cj]) continue;
      if ((out.eval.contacts[cj].J.row(0) - out.eval.contacts[ci].J.row(0)).norm() > 1e-12 * scale)
        continue;
      grouped[cj] = true;
      group[static_cast<std::size_t>(size++)] = j;
      total_T += out.lambda[cj].x();
      total_N += out.lambda[cj].y();
    }
    if (size < 2 || !(total_N > 0.0)) continue;
    for (int g = 0; g < size; ++g) {
      const auto cj = static_cast<std::size_t>(group[static_cast<std::size_t>(g)]);
      out.lambda[cj].x() = total_T * out.lambda[cj].y() / total_N;
    }
  }
  out.qdd = qdd;
  const auto accel = [&](int c) {
    const auto ci = static_cast<std::size_t>(c);
    out.accel[ci] = out.eval.contacts[ci].J.lazyProduct(qdd) + out.eval.contacts[ci].gamma;
  };
  if (scope == ContactScope::kClosed) {
    for (int i = 0; i < n_closed; ++i) accel(closed[static_cast<std::size_t>(i)]);
  } else {
    for (int c = 0; c < n_c; ++c) accel(c);
  }
}

}  // namespace clatter::hybrid
