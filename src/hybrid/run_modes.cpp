// Contact modes: which closed contacts stick or slide, lift-off and slip onset from the forces,
// Painlevé, and the projection of closed contacts onto their constraints.

#include <Eigen/Dense>

#include "clatter/contact/delassus.hpp"
#include "run.hpp"

namespace clatter::hybrid {

void Run::open_contact(int c, bool released) {
  modes_[idx(c)] = ContactMode::kOpen;
  released_[idx(c)] = released;
  chatter_end_[idx(c)] = kNaN;
}

ContactMode Run::closed_mode(int c, const VecQ& qd, const Modes& modes) const {
  const model::ContactGeometry k = contact_at(c, t_, q_, qd);
  if (std::abs(k.v.x()) > velocity_tol()) return sliding_mode(k.v.x());
  Modes trial = modes;
  trial[idx(c)] = ContactMode::kStick;
  constrained_dynamics(m_, t_, q_, qd, aux_, trial, o_.stabilization, cd_);
  const Vec2 lam = cd_.lambda[idx(c)];
  if (std::abs(lam.x()) <= mu_s(c) * std::max(lam.y(), 0.0) + lambda_tol_)
    return ContactMode::kStick;
  return sliding_mode(-lam.x());
}

void Run::set_group_mode(const Group& g, const VecQ& qd, Modes& modes) const {
  modes[idx(g.c)] = closed_mode(g.c, qd, modes);
  if (g.j >= 0) modes[idx(g.j)] = closed_mode(g.j, qd, modes);
}

void Run::decide_modes() {
  if (all_open()) return;  // nothing to decide
  for (int iter = 0; iter < 4 * kMaxContacts; ++iter) {
    constrained_dynamics(m_, t_, q_, qd_, aux_, modes_, o_.stabilization, cd_);
    if (cd_.painleve_contact >= 0) {
      // a sliding contact with k_N ≤ 0: its λ_N has the wrong sign or is not unique, so neither
      // lift-off nor sliding can be decided (Painlevé); reported, and resolved by an impact
      // without collision if the policy says so and it is the only closed contact
      const int c = cd_.painleve_contact;
      const double k_N = cd_.painleve_k_N;
      record(EventKind::kPainleve, c);
      if (o_.painleve == PainlevePolicy::kImpactWithoutCollision && resolve_painleve(c, k_N))
        continue;
      stop(StopReason::kPainleve, "contact " + name(c) + " slides with k_N = " +
                                      format_number(k_N) + " <= 0 at t = " + format_number(t_) +
                                      " (Painleve: no unique consistent contact force)");
      return;
    }
    bool changed = false;
    for (int c = 0; c < nc_ && !changed; ++c) {
      const ContactMode mode = modes_[idx(c)];
      if (!is_closed(mode)) continue;
      const Vec2 lam = cd_.lambda[idx(c)];
      if (lam.y() < -lambda_tol_) {
        project_closed();
        open_contact(c, true);
        record(EventKind::kLiftOff, c);
        changed = true;
      } else if (mode == ContactMode::kStick &&
                 std::abs(lam.x()) > mu_s(c) * lam.y() + lambda_tol_) {
        modes_[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipOnset, c);
        changed = true;
      }
    }
    if (!changed) return;
  }
}

bool Run::resolve_painleve(int c, double k_N) {
  for (int j = 0; j < nc_; ++j)
    if (j != c && is_closed(modes_[idx(j)])) return false;
  if (!(k_N < 0.0)) return false;
  project_closed();
  cache_geometry();
  const model::ContactGeometry& g = geometry_[idx(c)];
  if (g.J.row(0).dot(qd_) - g.w.x() == 0.0) return false;
  VecQ qd = qd_;
  const ContactImpact r =
      apply_impact_without_collision(mass_, g.w, qd, g.J, m_.contact(c).law.params);
  qd_ = qd;
  open_contact(c, true);
  record_impact(Group{c, -1}, r, EventKind::kImpactWithoutCollision, kNaN);
  return true;
}

// Closed contacts start exactly on their constraint: the gaps are projected to 0, and the
// velocity (in the metric of M) onto v_N = 0 for every closed contact and v_T = 0 for every
// sticking one (and for `at_rest`, a contact whose slip has just stopped or started), all at once.
// The velocity projection never adds kinetic energy; what it removes (residuals of an event
// sequence, normally below 1e-6 m/s) is booked as impact loss.
void Run::project_closed(int at_rest) {
  constexpr int kMaxRows = 2 * kMaxContacts;
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, model::kMaxDof>;
  using Cols = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, model::kMaxDof, kMaxRows>;
  using Square = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows>;
  using Vec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1>;
  int n_closed = 0;
  for (int c = 0; c < nc_; ++c) n_closed += is_closed(modes_[idx(c)]) ? 1 : 0;
  if (n_closed == 0) return;
  model::MassFactor mass;
  m_.factor_mass(t_, q_, mass);
  std::array<model::ContactGeometry, kMaxContacts> kin;
  for (int c = 0; c < nc_; ++c)
    if (is_closed(modes_[idx(c)])) m_.contact_geometry(c, t_, q_, qd_, kin[idx(c)]);

  // positions first: closed contacts that touched within the touching tolerance (≲ 1e-9 m) are
  // moved onto their obstacle (one linearized step along M⁻¹J_Nᵀ; the potential-energy change is
  // booked as a reset)
  {
    Rows GN(n_closed, nq_);
    Vec gap(n_closed);
    int kn = 0;
    for (int c = 0; c < nc_; ++c) {
      if (!is_closed(modes_[idx(c)])) continue;
      GN.row(kn) = kin[idx(c)].J.row(1);
      gap(kn) = kin[idx(c)].g_N;
      ++kn;
    }
    if (gap.cwiseAbs().maxCoeff() > 0.0) {
      Cols MinvGNt(nq_, kn);
      Square AN;
      delassus(mass, GN, MinvGNt, AN);
      const double V_before = m_.potential_energy(t_, q_);
      q_ += MinvGNt * AN.completeOrthogonalDecomposition().solve(-gap);
      L_.reset += m_.potential_energy(t_, q_) - V_before;
      // the Jacobian rows of the velocity projection at the corrected pose
      m_.factor_mass(t_, q_, mass);
      for (int c = 0; c < nc_; ++c)
        if (is_closed(modes_[idx(c)])) m_.contact_geometry(c, t_, q_, qd_, kin[idx(c)]);
    }
  }
  Rows G(2 * n_closed, nq_);
  Vec v(2 * n_closed), w(2 * n_closed);
  int k = 0;
  for (int c = 0; c < nc_; ++c) {
    const ContactMode mode = modes_[idx(c)];
    if (!is_closed(mode)) continue;
    for (int row = mode == ContactMode::kStick || c == at_rest ? 0 : 1; row < 2; ++row) {
      G.row(k) = kin[idx(c)].J.row(row);
      v(k) = kin[idx(c)].v(row);
      w(k) = kin[idx(c)].w(row);
      ++k;
    }
  }
  G.conservativeResize(k, nq_);
  v.conservativeResize(k);
  w.conservativeResize(k);
  if (v.cwiseAbs().maxCoeff() == 0.0) return;
  Cols MinvGt(nq_, k);
  Square A;
  delassus(mass, G, MinvGt, A);
  const Vec lambda = A.completeOrthogonalDecomposition().solve(-v);
  const double T_before = m_.kinetic_energy(t_, q_, qd_);
  qd_ += MinvGt * lambda;
  const double surface_work = lambda.dot(w);
  L_.surface_work += surface_work;
  L_.impact_loss += surface_work - (m_.kinetic_energy(t_, q_, qd_) - T_before);
}

}  // namespace clatter::hybrid
