#pragma once
/// @file
/// Exact one-sided Jacobians of Stronge's closed-form law ([NDC] §4, spec/003_dib.md §4): the
/// derivatives of v⁺ with respect to the pre-impact velocity v⁻ = (v_T, v_N) and to (μ, e*), with
/// the formula of a given region (laws/stronge_maps.hpp; its rate constants from
/// laws/rate_constants.hpp, μ entering through k_T^± = B ∓ μA, k_N^± = C ∓ μB). Computed by
/// forward-mode differentiation of the maps (dual numbers: exact to round-off, no step), so
/// that at a boundary each side's derivative is available ("forced region formula").
/// A region ending in stick (0, 3–6) has ∂v_T⁺ = 0 exactly: the law is co-rank 1 there.

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter {

struct StrongeJacobian {
  int region{0};
  Vec2 v_post{0.0, 0.0};      ///< v⁺ by the region's formula
  Mat2 d_v{Mat2::Zero()};     ///< ∂v⁺/∂(v_T⁻, v_N⁻): rows v⁺ components
  Mat2 d_mu_e{Mat2::Zero()};  ///< ∂v⁺/∂(μ, e*)
};

/// The Jacobian of the region `region` (0–10) at (v⁻, W; μ, e*), or of the classified region if
/// region < 0. Throws InvalidArgument("region", …) outside [−1, 10]. @pre v_N⁻ < 0, the region's
/// rate constants non-zero where they divide (k_T of a two-segment region, k_N of Map I).
[[nodiscard]] StrongeJacobian stronge_jacobian(const ImpactInput& in, const ImpactParams& p,
                                               int region = -1);

}  // namespace clatter
