#include "clatter/analysis/dib.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

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
  // the two sides' orbits at p* ± offset, each started off the boundary along ∇_u H
  const auto find_sides = [&](double offset, SideOrbit& positive, SideOrbit& negative) {
    const double H_target = 10.0 * offset * (1.0 + std::abs(dHdp));
    for (const int s : {1, -1}) {
      SideOrbit& side = s > 0 ? positive : negative;
      for (const int q : {1, -1}) {
        const double p = cp.p + q * offset;
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
    return positive.found && negative.found;
  };
  if (!find_sides(bo.offset, out.positive, out.negative)) {
    out.message = std::string("no orbit found on the ") +
                  (!out.positive.found ? "H > 0" : "H < 0") + " side within offset of p*";
    return out;
  }
  const auto det_I_minus = [](const Eigen::MatrixXd& DP) {
    return (Eigen::MatrixXd::Identity(DP.rows(), DP.cols()) - DP).determinant();
  };
  const auto one_minus_sigma = [&](const SideOrbit& positive, const SideOrbit& negative) {
    return det_I_minus(negative.orbit.DP) / det_I_minus(positive.orbit.DP);
  };
  const auto D = [&](const SideOrbit& positive) { return positive.H / (positive.p - cp.p); };
  out.one_minus_sigma = one_minus_sigma(out.positive, out.negative);
  out.D = D(out.positive);
  out.one_minus_sigma_error = out.D_error = std::numeric_limits<double>::quiet_NaN();
  // Richardson on the offset: v(h) = v + c h + O(h²)
  SideOrbit positive2, negative2;
  if (find_sides(2.0 * bo.offset, positive2, negative2)) {
    const double s2 = one_minus_sigma(positive2, negative2), d2 = D(positive2);
    out.one_minus_sigma_error = std::abs(out.one_minus_sigma - s2);
    out.D_error = std::abs(out.D - d2);
    out.one_minus_sigma = 2.0 * out.one_minus_sigma - s2;
    out.D = 2.0 * out.D - d2;
  }
  out.side_positive = out.D > 0.0 ? 1 : -1;
  out.side_negative =
      out.D / out.one_minus_sigma > 0.0 ? -1 : 1;  // where H = D(p − p*)/(1 − σ) < 0
  out.verdict = out.one_minus_sigma < 0.0 ? "nonsmooth fold" : "persistence";
  return out;
}

MultiplierKink multiplier_kink(const PeriodicProblem& problem, const CriticalPoint& cp,
                               const CriticalPointOptions& o, const BoundaryCrossing& bc, double h,
                               const ShootingOptions& shooting) {
  require(h > 0.0 && std::isfinite(h), "h", "must be > 0", h);
  MultiplierKink out;
  out.h = h;
  if (!bc.positive.found || !bc.negative.found) {
    out.message = "both sides' orbits are needed";
    return out;
  }
  const auto moduli = [](const Orbit& orbit) {
    std::vector<double> m;
    for (const auto& l : orbit.multipliers) m.push_back(std::abs(l));
    std::sort(m.begin(), m.end(), std::greater<>());
    return m;
  };
  // d|λ_i|/dp at p* from the side orbit and its branch at p* + s h, p* + 2 s h
  const auto slopes = [&](const SideOrbit& side, std::vector<double>& abs0,
                          std::vector<double>& slope) {
    const double s = side.p > cp.p ? 1.0 : -1.0;
    const std::array<double, 3> x{side.p - cp.p, s * h, 2.0 * s * h};
    std::array<std::vector<double>, 3> f;
    f[0] = moduli(side.orbit);
    Eigen::VectorXd guess = side.orbit.u;
    for (std::size_t k = 1; k < 3; ++k) {
      // the side's region formula forced (so that Newton stays on its branch where the other
      // side's orbit is near, as in a fold), admissible where H has the side's sign
      PeriodicProblem pq = problem;
      pq.model = with_forced_region(*problem.model->with_parameter(o.parameter, cp.p + x[k]),
                                    cp.impact.contact, side.region);
      const Orbit orbit = find_orbit(pq, *pq.model, guess, shooting);
      double H = 0.0;
      if (!orbit.converged || !impact_boundary_value(pq, *pq.model, orbit.u, o, H) ||
          (H > 0.0) != (&side == &bc.positive)) {
        out.message = "the region-" + std::to_string(side.region) + " branch does not reach " +
                      format_number(cp.p + x[k]);
        return false;
      }
      f[k] = moduli(orbit);
      if (f[k].size() != f[0].size()) {
        out.message = "the number of multipliers changes along a branch";
        return false;
      }
      guess = orbit.u;
    }
    abs0 = f[0];
    slope.assign(f[0].size(), 0.0);
    for (std::size_t i = 0; i < f[0].size(); ++i)
      for (std::size_t a = 0; a < 3; ++a) {
        // the derivative at 0 of the Lagrange basis polynomial of node a
        double num = 0.0, den = 1.0;
        for (std::size_t b = 0; b < 3; ++b) {
          if (b == a) continue;
          num -= x[b];
          den *= x[a] - x[b];
        }
        slope[i] += f[a][i] * num / den;
      }
    return true;
  };
  if (!slopes(bc.positive, out.abs_positive, out.slope_positive) ||
      !slopes(bc.negative, out.abs_negative, out.slope_negative))
    return out;
  if (out.abs_positive.size() != out.abs_negative.size()) {
    out.message = "the two sides have different numbers of multipliers";
    return out;
  }
  for (std::size_t i = 0; i < out.abs_positive.size(); ++i) {
    out.jump.push_back(out.abs_negative[i] - out.abs_positive[i]);
    out.slope_jump.push_back(out.slope_negative[i] - out.slope_positive[i]);
    out.max_jump = std::max(out.max_jump, std::abs(out.jump.back()));
    out.max_slope_jump = std::max(out.max_slope_jump, std::abs(out.slope_jump.back()));
  }
  out.found = true;
  return out;
}

}  // namespace clatter::analysis
