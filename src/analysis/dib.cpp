#include "clatter/analysis/dib.hpp"

#include <Eigen/LU>

#include <cmath>

#include "clatter/core/error.hpp"
#include "clatter/laws/stronge_boundaries.hpp"

namespace clatter::analysis {

std::shared_ptr<const model::System> with_forced_region(const model::System& m, int contact,
                                                        int region) {
  require(contact >= 0 && contact < m.num_contacts(), "contact", "must be a contact of the model");
  require(region >= 0 && region <= 10, "region", "must lie in [0, 10]");
  std::vector<model::Contact> contacts;
  for (int c = 0; c < m.num_contacts(); ++c) contacts.push_back(m.contact(c));
  model::Contact& k = contacts[static_cast<std::size_t>(contact)];
  require(k.law.kind == LawKind::kStronge, "contact", "a forced region needs Stronge's law");
  k.law.params.forced_region = region;
  return std::shared_ptr<const model::System>(m.with_contacts(std::move(contacts)));
}

BoundaryCrossing classify_boundary_crossing(const PeriodicProblem& problem, const CriticalPoint& cp,
                                            const CriticalPointOptions& o,
                                            const BoundaryCrossingOptions& bo) {
  validate(o);
  require(cp.converged, "cp", "must be a converged critical point");
  require(bo.offset > 0.0 && std::isfinite(bo.offset), "offset", "must be > 0", bo.offset);
  BoundaryCrossing out;
  out.c1 = stronge_boundary(o.region_a, o.region_b).c1;
  const int lower = std::min(o.region_a, o.region_b), upper = std::max(o.region_a, o.region_b);
  const Eigen::Index d = problem.dimension();
  const auto model_at = [&](double p) {
    return std::shared_ptr<const model::System>(problem.model->with_parameter(o.parameter, p));
  };
  // ∇_u H and ∂H/∂p at the critical point
  const auto Hat = [&](const model::System& m, const Eigen::VectorXd& u, double& H) {
    return impact_boundary_value(problem, m, u, o, H);
  };
  Eigen::VectorXd grad(d);
  const auto m_star = model_at(cp.p);
  for (Eigen::Index j = 0; j < d; ++j) {
    const double h = 1e-7 * (1.0 + std::abs(cp.u(j)));
    Eigen::VectorXd up = cp.u, um = cp.u;
    up(j) += h;
    um(j) -= h;
    double hp = 0.0, hm = 0.0;
    if (!Hat(*m_star, up, hp) || !Hat(*m_star, um, hm)) {
      out.message = "the flow failed near the critical orbit";
      return out;
    }
    grad(j) = (hp - hm) / (2.0 * h);
  }
  double dHdp = 0.0;
  {
    const double h = 1e-7 * (1.0 + std::abs(cp.p));
    double hp = 0.0, hm = 0.0;
    if (Hat(*model_at(cp.p + h), cp.u, hp) && Hat(*model_at(cp.p - h), cp.u, hm))
      dHdp = (hp - hm) / (2.0 * h);
  }
  const double H_target = 10.0 * bo.offset * (1.0 + std::abs(dHdp));
  for (const int s : {1, -1}) {
    SideOrbit& side = s > 0 ? out.positive : out.negative;
    for (const int q : {1, -1}) {
      const double p = cp.p + q * bo.offset;
      PeriodicProblem pq = problem;
      pq.model = model_at(p);
      const Eigen::VectorXd guess = cp.u + (s * H_target / grad.squaredNorm()) * grad;
      Orbit orbit = find_orbit(pq, *pq.model, guess, bo.shooting);
      if (!orbit.converged) continue;
      double H = 0.0;
      hybrid::EventRecord impact;
      if (!impact_boundary_value(pq, *pq.model, orbit.u, o, H, &impact)) continue;
      const int want = s > 0 ? lower : upper;
      if ((H > 0.0) != (s > 0) || impact.region != want) continue;
      side = {true, p, H, impact.region, std::move(orbit)};
      break;
    }
  }
  if (!out.positive.found || !out.negative.found) {
    out.message = std::string("no orbit found on the ") +
                  (!out.positive.found ? "H > 0" : "H < 0") + " side within offset of p*";
    return out;
  }
  const auto det_I_minus = [](const Eigen::MatrixXd& DP) {
    return (Eigen::MatrixXd::Identity(DP.rows(), DP.cols()) - DP).determinant();
  };
  out.one_minus_sigma = det_I_minus(out.negative.orbit.DP) / det_I_minus(out.positive.orbit.DP);
  out.D = out.positive.H / (out.positive.p - cp.p);
  out.side_positive = out.D > 0.0 ? 1 : -1;
  out.side_negative =
      out.D / out.one_minus_sigma > 0.0 ? -1 : 1;  // where H = D(p − p*)/(1 − σ) < 0
  out.verdict = out.one_minus_sigma < 0.0 ? "nonsmooth fold" : "persistence";
  return out;
}

}  // namespace clatter::analysis
