// Contact modes: which closed contacts stick or slide, lift-off and slip onset from the forces,
// Painlevé, and the projection of closed contacts onto their constraints.

#include <Eigen/Dense>

#include "clatter/contact/delassus.hpp"
#include "run.hpp"

namespace clatter::hybrid {

void Run::open_contact(int c, bool released) {
  d_.modes[idx(c)] = ContactMode::kOpen;
  d_.released[idx(c)] = released;
  d_.chatter_end[idx(c)] = kNaN;
}

ContactMode Run::closed_mode(int c, const VecQ& qd, const Modes& modes) const {
  const model::ContactGeometry k = contact_at(c, d_.t, d_.q, qd);
  if (std::abs(k.v.x()) > velocity_tol()) return sliding_mode(k.v.x());
  Modes trial = modes;
  trial[idx(c)] = ContactMode::kStick;
  constrained_dynamics(m_, d_.t, d_.q, qd, d_.aux, trial, o_.stabilization, d_.cd);
  const Vec2 lam = d_.cd.lambda[idx(c)];
  if (std::abs(lam.x()) <= mu_s(c) * std::max(lam.y(), 0.0) + d_.lambda_tol)
    return ContactMode::kStick;
  return sliding_mode(-lam.x());
}

void Run::set_group_mode(const Group& g, const VecQ& qd, Modes& modes) const {
  Touching closing{};
  closing[idx(g.c)] = true;
  if (g.j >= 0) closing[idx(g.j)] = true;
  close_together(closing, qd, modes);
}

// Decided one by one, the first contact of a block landing on two corners was tried sticking
// with the other still open: it needed more friction than the pair does, was set sliding at zero
// speed, and stayed so (a block at rest on a floor labelled slide− for the whole run).
void Run::close_together(const Touching& closing, const VecQ& qd, Modes& modes) const {
  int at_rest = 0;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    if (!closing[idx(c)]) continue;
    const model::ContactGeometry k = contact_at(c, d_.t, d_.q, qd);
    if (std::abs(k.v.x()) > velocity_tol()) {
      modes[idx(c)] = sliding_mode(k.v.x());
    } else {
      modes[idx(c)] = ContactMode::kStick;
      ++at_rest;
    }
  }
  for (int pass = 0; pass < at_rest; ++pass) {
    constrained_dynamics(m_, d_.t, d_.q, qd, d_.aux, modes, o_.stabilization, d_.cd);
    int worst = -1;
    double worst_excess = 0.0;
    for (int c = 0; c < d_.shape.num_contacts; ++c) {
      if (!closing[idx(c)] || modes[idx(c)] != ContactMode::kStick) continue;
      const Vec2 lam = d_.cd.lambda[idx(c)];
      const double excess = std::abs(lam.x()) - (mu_s(c) * std::max(lam.y(), 0.0) + d_.lambda_tol);
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = c;
      }
    }
    if (worst < 0) return;
    modes[idx(worst)] = sliding_mode(-d_.cd.lambda[idx(worst)].x());
  }
}

void Run::decide_modes() {
  if (all_open()) return;  // nothing to decide
  for (int iter = 0; iter < 4 * kMaxContacts; ++iter) {
    constrained_dynamics(m_, d_.t, d_.q, d_.qd, d_.aux, d_.modes, o_.stabilization, d_.cd);
    if (d_.cd.painleve_contact >= 0) {
      // a sliding contact with k_N ≤ 0: its λ_N has the wrong sign or is not unique, so neither
      // lift-off nor sliding can be decided (Painlevé); reported, and resolved by an impact
      // without collision if the policy says so and it is the only closed contact
      const int c = d_.cd.painleve_contact;
      const double k_N = d_.cd.painleve_k_N;
      record(EventKind::kPainleve, c);
      if (o_.painleve == PainlevePolicy::kImpactWithoutCollision && resolve_painleve(c, k_N))
        continue;
      stop(StopReason::kPainleve, "contact " + name(c) + " slides with k_N = " +
                                      format_number(k_N) + " <= 0 at t = " + format_number(d_.t) +
                                      " (Painleve: no unique consistent contact force)");
      return;
    }
    bool changed = false;
    for (int c = 0; c < d_.shape.num_contacts && !changed; ++c) {
      const ContactMode mode = d_.modes[idx(c)];
      if (!is_closed(mode)) continue;
      const Vec2 lam = d_.cd.lambda[idx(c)];
      if (lam.y() < -d_.lambda_tol) {
        project_closed();
        open_contact(c, true);
        record(EventKind::kLiftOff, c);
        changed = true;
      } else if (mode == ContactMode::kStick &&
                 std::abs(lam.x()) > mu_s(c) * lam.y() + d_.lambda_tol) {
        d_.modes[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipOnset, c);
        changed = true;
      }
    }
    if (!changed) return;
  }
}

bool Run::resolve_painleve(int c, double k_N) {
  for (int j = 0; j < d_.shape.num_contacts; ++j)
    if (j != c && is_closed(d_.modes[idx(j)])) return false;
  if (!(k_N < 0.0)) return false;
  project_closed();
  cache_geometry();
  const model::ContactGeometry& g = d_.geometry[idx(c)];
  if (g.J.row(0).dot(d_.qd) - g.w.x() == 0.0) return false;
  VecQ qd = d_.qd;
  const ContactImpact r =
      apply_impact_without_collision(d_.mass, g.w, qd, g.J, m_.contact(c).law.params);
  d_.qd = qd;
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
  for (int c = 0; c < d_.shape.num_contacts; ++c) n_closed += is_closed(d_.modes[idx(c)]) ? 1 : 0;
  if (n_closed == 0) return;
  model::MassFactor mass;
  m_.factor_mass(d_.t, d_.q, mass);
  std::array<model::ContactGeometry, kMaxContacts> kin;
  for (int c = 0; c < d_.shape.num_contacts; ++c)
    if (is_closed(d_.modes[idx(c)])) m_.contact_geometry(c, d_.t, d_.q, d_.qd, kin[idx(c)]);

  // positions first: closed contacts that touched within the touching tolerance (≲ 1e-9 m) are
  // moved onto their obstacle (one linearized step along M⁻¹J_Nᵀ; the potential-energy change is
  // booked as a reset)
  {
    Rows GN(n_closed, d_.shape.nq);
    Vec gap(n_closed);
    int kn = 0;
    for (int c = 0; c < d_.shape.num_contacts; ++c) {
      if (!is_closed(d_.modes[idx(c)])) continue;
      GN.row(kn) = kin[idx(c)].J.row(1);
      gap(kn) = kin[idx(c)].g_N;
      ++kn;
    }
    if (gap.cwiseAbs().maxCoeff() > 0.0) {
      Cols MinvGNt(d_.shape.nq, kn);
      Square AN;
      delassus(mass, GN, MinvGNt, AN);
      const double V_before = m_.potential_energy(d_.t, d_.q);
      d_.q += MinvGNt * AN.completeOrthogonalDecomposition().solve(-gap);
      d_.energy.reset += m_.potential_energy(d_.t, d_.q) - V_before;
      // the Jacobian rows of the velocity projection at the corrected pose
      m_.factor_mass(d_.t, d_.q, mass);
      for (int c = 0; c < d_.shape.num_contacts; ++c)
        if (is_closed(d_.modes[idx(c)])) m_.contact_geometry(c, d_.t, d_.q, d_.qd, kin[idx(c)]);
    }
  }
  Rows G(2 * n_closed, d_.shape.nq);
  Vec v(2 * n_closed), w(2 * n_closed);
  int k = 0;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    const ContactMode mode = d_.modes[idx(c)];
    if (!is_closed(mode)) continue;
    for (int row = mode == ContactMode::kStick || c == at_rest ? 0 : 1; row < 2; ++row) {
      G.row(k) = kin[idx(c)].J.row(row);
      v(k) = kin[idx(c)].v(row);
      w(k) = kin[idx(c)].w(row);
      ++k;
    }
  }
  G.conservativeResize(k, d_.shape.nq);
  v.conservativeResize(k);
  w.conservativeResize(k);
  if (v.cwiseAbs().maxCoeff() == 0.0) return;
  Cols MinvGt(d_.shape.nq, k);
  Square A;
  delassus(mass, G, MinvGt, A);
  const Vec lambda = A.completeOrthogonalDecomposition().solve(-v);
  const double T_before = m_.kinetic_energy(d_.t, d_.q, d_.qd);
  d_.qd += MinvGt * lambda;
  const double surface_work = lambda.dot(w);
  d_.energy.surface_work += surface_work;
  d_.energy.impact_loss += surface_work - (m_.kinetic_energy(d_.t, d_.q, d_.qd) - T_before);
}

}  // namespace clatter::hybrid
