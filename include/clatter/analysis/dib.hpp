#pragma once
/// @file
/// Discontinuity-induced bifurcations at a boundary of the impact law ([NDC] §5.1,
/// spec/003_dib.md §5.1): what happens to a periodic orbit whose impact crosses a boundary of
/// Stronge's law as the parameter p passes the critical value p* (analysis/critical_point.hpp).
/// Near (z*, p*) the orbit's map is piecewise linear,
/// @verbatim
///   P(z, p) − z* = α(z − z*) + M(p − p*)            if H > 0
///                = α(z − z*) + M(p − p*) + β H       if H < 0,     H = γ(z − z*) + N(p − p*)
///   σ = γ(I − α)⁻¹β,  D = N + γ(I − α)⁻¹M
///   the H > 0 branch has H = D(p − p*): it exists for sign(p − p*) = sign D; the H < 0 branch
///   has H = D(p − p*)/(1 − σ): it exists for sign(p − p*) = −sign(D/(1 − σ));
///   1 − σ < 0: nonsmooth fold (both on one side);  1 − σ > 0: persistence
///   1 − σ = det(I − α − βγ)/det(I − α) = det(I − D P₋)/det(I − D P₊)
/// @endverbatim
/// computed here without the law's one-sided Jacobians: the orbit of each side (H > 0 and H < 0)
/// is found by Newton at p* ± offset from a start moved off the boundary along ∇_u H (Newton with
/// difference steps far smaller than the distance to the boundary solves that side's linear
/// piece), D P± are their section Jacobians (any section: det(I − D P) does not depend on it),
/// and D = H₊/(p₊ − p*). Each is a smooth function of the offset h with an O(h) error, so the
/// sides are found at h and at 2h and the values extrapolated (Richardson): v = 2 v(h) − v(2h),
/// error O(h²); |v(h) − v(2h)| is reported beside it (the one-offset estimate's first-order
/// error). For 1 − σ it bounded the extrapolated value's error on the five [NDC] cases; for D it
/// need not (D divides H's round-off by h). Where the 2h sides are not found the one-offset
/// values stand, with NaN errors.

#include <string>

#include "clatter/analysis/critical_point.hpp"
#include "clatter/analysis/shooting.hpp"

namespace clatter::analysis {

struct BoundaryCrossingOptions {
  double offset{1e-5};  ///< |p − p*| of the two sides' orbits
  ShootingOptions shooting{};
};

struct SideOrbit {
  bool found{false};
  double p{0.0};  ///< where it was found (p* ± offset)
  double H{0.0};  ///< its boundary function
  int region{0};  ///< its impact's region
  Orbit orbit;
};

struct BoundaryCrossing {
  SideOrbit positive;  ///< the H > 0 orbit (the lower-numbered region)
  SideOrbit negative;  ///< the H < 0 orbit
  double one_minus_sigma{0.0};
  double D{0.0};
  double one_minus_sigma_error{0.0};  ///< |1 − σ at offset − at 2·offset| (NaN: not estimated)
  double D_error{0.0};                ///< the same for D
  int side_positive{0};               ///< sign(p − p*) where the H > 0 branch exists
  int side_negative{0};               ///< and the H < 0 branch
  bool c1{false};                     ///< the boundary is C¹ (the multipliers are continuous)
  std::string verdict;                ///< "nonsmooth fold" or "persistence"
  std::string message;                ///< empty if both sides were found
};

/// The model with contact c's impact law forced to the formula of `region` (Stronge's closed
/// form, ImpactParams::forced_region): the "forced region" continuation of [NDC] §5 follows an
/// orbit through the boundary, admissible where its impact's H has the region's sign.
[[nodiscard]] std::shared_ptr<const model::System> with_forced_region(const model::System& m,
                                                                      int contact, int region);

/// Classifies the crossing at the critical point `cp` (converged) of `problem` with `o`'s
/// parameter, impact and regions.
[[nodiscard]] BoundaryCrossing classify_boundary_crossing(const PeriodicProblem& problem,
                                                          const CriticalPoint& cp,
                                                          const CriticalPointOptions& o,
                                                          const BoundaryCrossingOptions& bo = {});

/// The multipliers' moduli at p* from each side and their one-sided slopes ([NDC] §5.1: across a
/// C¹ boundary the multipliers are continuous with a kink; across a C⁰ one they jump):
/// @verbatim
///   each side's branch (bc.positive, bc.negative) at p_k = p* + s k h, k = 1, 2 (s: the side
///   of p* where it was found), with its own orbit at |p − p*| = offset as the third point;
///   |λ_i| sorted by decreasing modulus; d|λ_i|/dp at p* from the quadratic through the three
///   points (error O(h²)); jump_i = |λ_i|₋ − |λ_i|₊ at the two side orbits (O(offset) across a
///   C¹ boundary), slope_jump_i = slope₋ − slope₊
/// @endverbatim
struct MultiplierKink {
  bool found{false};
  std::string message;  ///< why not found (a side's branch changes region within 2h)
  double h{0.0};
  std::vector<double> abs_positive, abs_negative;      ///< |λ_i| of the two side orbits
  std::vector<double> slope_positive, slope_negative;  ///< d|λ_i|/dp at p*
  std::vector<double> jump, slope_jump;
  double max_jump{0.0};        ///< max_i |jump_i|
  double max_slope_jump{0.0};  ///< max_i |slope_jump_i|
};

/// The kink of the multipliers at the crossing `bc` (both sides found) of `cp`.
[[nodiscard]] MultiplierKink multiplier_kink(const PeriodicProblem& problem,
                                             const CriticalPoint& cp, const CriticalPointOptions& o,
                                             const BoundaryCrossing& bc, double h = 1e-3,
                                             const ShootingOptions& shooting = {});

}  // namespace clatter::analysis
