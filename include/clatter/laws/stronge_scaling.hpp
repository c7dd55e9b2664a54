#pragma once
/// @file
/// The scaled variables of Stronge's law ([NDC] §3.2, spec/003_dib.md §3.2, Table 5): with
/// W = [[A, B], [B, C]] and the pre-impact velocity v⁻ = (v_T, v_N), v_N < 0,
/// @verbatim
///   B_s = B/√(AC),   μ_s = μ √(A/C),   v_T,s = v_T √(C/A)/(−v_N),   v_N,s = −1
///   (then A = C = −v_N = 1, |B_s| < 1, impulsive stick persists iff |B_s| ≤ μ_s)
/// @endverbatim
/// Scaling keeps the sign of every rate constant, so the region of an impact is the same in the
/// scaled and the unscaled variables. Dimensionless.

#include <cmath>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/error.hpp"

namespace clatter {

struct StrongeScaled {
  double B{0.0};    ///< B_s ∈ (−1, 1)
  double mu{0.0};   ///< μ_s ≥ 0
  double v_T{0.0};  ///< v_T,s (v_N,s = −1)
};

/// @pre W SPD, v_N < 0 (throws InvalidArgument naming "v_pre" otherwise).
[[nodiscard]] inline StrongeScaled stronge_scaled(const Vec2& v_pre, const ContactMatrix& W,
                                                  double mu) {
  require(v_pre.y() < 0.0, "v_pre", "v_N must be < 0 (approach) to scale", v_pre.y());
  return {W.B / std::sqrt(W.A * W.C), mu * std::sqrt(W.A / W.C),
          v_pre.x() * std::sqrt(W.C / W.A) / (-v_pre.y())};
}

}  // namespace clatter
