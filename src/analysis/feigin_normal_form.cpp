#include "clatter/analysis/feigin_normal_form.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

#include "clatter/analysis/poincare_map.hpp"
#include "clatter/contact/delassus.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/impact_resolution.hpp"
#include "clatter/laws/stronge_boundaries.hpp"
#include "clatter/laws/stronge_jacobian.hpp"
#include "clatter/laws/stronge_jumps.hpp"

namespace clatter::analysis {

namespace {

using Model = std::shared_ptr<const model::System>;

// the impact section's coordinates: z = (q, q̇, a) with the anchor replaced by ξ = x_a − ν t
struct Frame {
  const PeriodicProblem* problem;
  int anchor{-1};
  [[nodiscard]] double nu(const model::System& m) const {
    return problem->section.drift.empty() ? 0.0 : m.parameter(problem->section.drift);
  }
  [[nodiscard]] StateVector to_z(const model::System& m, double t, const model::VecQ& q,
                                 const model::VecQ& qd, const model::VecA& aux) const {
    StateVector z = pack_state(m, q, qd, aux);
    if (anchor >= 0) z(anchor) -= nu(m) * t;
    return z;
  }
  void from_z(const model::System& m, double t, StateVector z, model::VecQ& q, model::VecQ& qd,
              model::VecA& aux) const {
    if (anchor >= 0) z(anchor) += nu(m) * t;
    unpack_state(m, z, q, qd, aux);
  }
};

// the contact's W and kinematics at (t, q, q̇)
ContactMatrix contact_W(const model::System& m, int c, double t, const model::VecQ& q,
                        const model::VecQ& qd, model::ContactGeometry& k, model::MassFactor& mass) {
  m.factor_mass(t, q, mass);
  m.contact_geometry(c, t, q, qd, k);
  const model::VecQ MT = mass.solve(k.J.row(0).transpose());
  const model::VecQ MN = mass.solve(k.J.row(1).transpose());
  return {k.J.row(0).dot(MT), k.J.row(0).dot(MN), k.J.row(1).dot(MN)};
}

class ImpactList final : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override {
    if (e.kind == hybrid::EventKind::kImpact) list.push_back(e);
  }
  std::vector<hybrid::EventRecord> list;
};

std::vector<std::complex<double>> sorted_eigenvalues(const Eigen::MatrixXd& A) {
  const Eigen::EigenSolver<Eigen::MatrixXd> es(A, false);
  std::vector<std::complex<double>> v(es.eigenvalues().begin(), es.eigenvalues().end());
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return std::abs(a) != std::abs(b) ? std::abs(a) > std::abs(b) : a.imag() > b.imag();
  });
  return v;
}

}  // namespace

FeiginNormalForm feigin_normal_form(const PeriodicProblem& problem, const CriticalPoint& cp,
                                    const CriticalPointOptions& o) {
  validate(o);
  require(cp.converged, "cp", "must be a converged critical point");
  FeiginNormalForm nf;
  if (problem.section.kind != OrbitSectionKind::kAutonomous) {
    nf.message =
        "the normal form needs an autonomous section (the impact map of a forced model "
        "depends on the impact phase)";
    return nf;
  }
  const RegionBoundary& bd = stronge_boundary(o.region_a, o.region_b);
  nf.region_positive = bd.lower;
  nf.region_negative = bd.upper;
  nf.c1 = bd.c1;
  const Frame frame{&problem, problem.section.anchor};
  const auto model_at = [&](double p) {
    return Model(problem.model->with_parameter(o.parameter, p));
  };
  const Model m_star = model_at(cp.p);
  const hybrid::EventRecord& e = cp.impact;
  const int c = e.contact;
  if (c < 0 || m_star->contact(c).law.kind != LawKind::kStronge) {
    nf.message = "the critical impact is not at a contact with Stronge's law";
    return nf;
  }
  const double t_star = e.t;
  const int n = state_dimension(*m_star);
  nf.names = state_names(*m_star);
  if (frame.anchor >= 0) nf.names[static_cast<std::size_t>(frame.anchor)] += " - drift*t";
  nf.z_star = frame.to_z(*m_star, t_star, e.q, e.qd_pre, e.aux);
  const int nq = static_cast<int>(e.q.size());

  // the impacts of contact c in one period: Q runs to the same impact one period later
  int hits = 0;
  {
    ImpactList rec;
    const FlowRun run = run_flow(problem, *m_star, cp.u, &rec);
    if (!run.ok()) {
      nf.message = "the flow of the critical orbit failed";
      return nf;
    }
    for (const hybrid::EventRecord& r : rec.list) hits += r.contact == c ? 1 : 0;
  }
  const double period = cp.u(cp.u.size() - 1);

  // the lifted law with `region`'s formula forced, at the impact time
  const auto g = [&](const model::System& m, int region, const StateVector& z) {
    model::VecQ q, qd;
    model::VecA aux;
    frame.from_z(m, t_star, z, q, qd, aux);
    LawChoice law = m.contact(c).law;
    law.params.forced_region = region;
    (void)hybrid::apply_contact_impact(m, t_star, q, qd, c, law);
    return frame.to_z(m, t_star, q, qd, aux);
  };
  // Q: from the post-impact state z at t* to the pre-impact state `hits` impacts of c later
  bool flow_ok = true;
  const auto Q = [&](const model::System& m, const StateVector& z) {
    hybrid::InitialState s;
    s.t = t_star;
    frame.from_z(m, t_star, z, s.q, s.qd, s.aux);
    PoincareSection sec;
    sec.kind = PoincareKind::kImpact;
    sec.contact = c;
    const std::vector<SectionPoint> pts =
        poincare_sequence(m, problem.options, sec, s, hits, t_star + 3.0 * period);
    if (static_cast<int>(pts.size()) != hits || !pts.back().found) {
      flow_ok = false;
      return StateVector(StateVector::Zero(n));
    }
    const hybrid::EventRecord& hit = pts.back().passed.back();
    return frame.to_z(m, hit.t, hit.q, hit.qd_pre, hit.aux);
  };
  const auto gap = [&](const model::System& m, const StateVector& z) {
    model::VecQ q, qd;
    model::VecA aux;
    frame.from_z(m, t_star, z, q, qd, aux);
    model::ContactGeometry k;
    m.contact_geometry(c, t_star, q, qd, k);
    return k.g_N;
  };
  const auto H = [&](const model::System& m, const StateVector& z) {
    model::VecQ q, qd;
    model::VecA aux;
    frame.from_z(m, t_star, z, q, qd, aux);
    model::ContactGeometry k;
    model::MassFactor mass;
    const ContactMatrix W = contact_W(m, c, t_star, q, qd, k, mass);
    return boundary_function(o.region_a, o.region_b, k.v, W, m.contact(c).law.params);
  };
  const auto step = [](double x) { return 1e-6 * (1.0 + std::abs(x)); };
  const double hp = step(cp.p);
  const Model m_plus = model_at(cp.p + hp), m_minus = model_at(cp.p - hp);

  // ∂_z g₁: q̇ columns exact (laws/stronge_jacobian.hpp), q and a columns by differences
  const int r1 = nf.region_positive;
  nf.dg1_dz = Eigen::MatrixXd::Identity(n, n);
  for (int j = 0; j < n; ++j) {
    if (j >= nq && j < 2 * nq) continue;
    const double h = step(nf.z_star(j));
    StateVector a = nf.z_star, b = nf.z_star;
    a(j) += h;
    b(j) -= h;
    nf.dg1_dz.col(j) = (g(*m_star, r1, a) - g(*m_star, r1, b)) / (2.0 * h);
  }
  model::ContactGeometry k;
  model::MassFactor mass;
  const ContactMatrix W = contact_W(*m_star, c, t_star, e.q, e.qd_pre, k, mass);
  const ImpactParams& law = m_star->contact(c).law.params;
  const StrongeJacobian Jv = stronge_jacobian({k.v, W}, law, r1);
  // K = M⁻¹ J_cᵀ W⁻¹ maps a change of v⁺ to one of q̇⁺
  Eigen::MatrixXd MinvJT(nq, 2);
  inverse_mass_transpose(mass, k.J, MinvJT);
  const Eigen::MatrixXd K = MinvJT * W.matrix().inverse();
  const Eigen::MatrixXd Jc = k.J;
  nf.dg1_dz.block(nq, nq, nq, nq) =
      Eigen::MatrixXd::Identity(nq, nq) + K * (Jv.d_v - Mat2::Identity()) * Jc;
  nf.dg1_dp = (g(*m_plus, r1, nf.z_star) - g(*m_minus, r1, nf.z_star)) / (2.0 * hp);

  // d(g₂ − g₁)/dH lifted: (0, K J₁, 0)
  nf.jump = Eigen::VectorXd::Zero(n);
  nf.jump_closed_form = Eigen::VectorXd::Zero(n);
  if (!bd.c1) {
    nf.jump.segment(nq, nq) =
        K * stronge_jump_from_jacobians(o.region_a, o.region_b, {k.v, W}, law);
    nf.jump_closed_form.segment(nq, nq) =
        K * stronge_jump(o.region_a, o.region_b, {k.v, W}, law).coefficient;
  }

  // γ, N
  nf.gamma.resize(n);
  for (int j = 0; j < n; ++j) {
    const double h = step(nf.z_star(j));
    StateVector a = nf.z_star, b = nf.z_star;
    a(j) += h;
    b(j) -= h;
    nf.gamma(j) = (H(*m_star, a) - H(*m_star, b)) / (2.0 * h);
  }
  nf.N = (H(*m_plus, nf.z_star) - H(*m_minus, nf.z_star)) / (2.0 * hp);

  // ∂_zQ, ∂_pQ at g₁(z*)
  const StateVector post = g(*m_star, r1, nf.z_star);
  const StateVector q0 = Q(*m_star, post);
  nf.dQ_dz.resize(n, n);
  for (int j = 0; j < n; ++j) {
    const double h = step(post(j));
    StateVector a = post, b = post;
    a(j) += h;
    b(j) -= h;
    if (gap(*m_star, b) < 0.0)
      nf.dQ_dz.col(j) = (Q(*m_star, a) - q0) / h;
    else
      nf.dQ_dz.col(j) = (Q(*m_star, a) - Q(*m_star, b)) / (2.0 * h);
  }
  nf.dQ_dp = (Q(*m_plus, post) - Q(*m_minus, post)) / (2.0 * hp);
  if (!flow_ok) {
    nf.message = "a perturbed flow did not reach the next impact";
    return nf;
  }

  // the normal form
  nf.alpha = nf.dQ_dz * nf.dg1_dz;
  nf.beta = nf.dQ_dz * nf.jump;
  nf.M = nf.dQ_dz * nf.dg1_dp + nf.dQ_dp;
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(Eigen::MatrixXd::Identity(n, n) - nf.alpha);
  nf.sigma = nf.gamma.dot(lu.solve(nf.beta));
  nf.one_minus_sigma = 1.0 - nf.sigma;
  nf.D = nf.N + nf.gamma.dot(lu.solve(nf.M));
  nf.multipliers_positive = sorted_eigenvalues(nf.alpha);
  nf.multipliers_negative = sorted_eigenvalues(nf.alpha + nf.beta * nf.gamma);
  nf.verdict = nf.one_minus_sigma < 0.0 ? "nonsmooth fold" : "persistence";
  nf.ok = true;
  return nf;
}

}  // namespace clatter::analysis
