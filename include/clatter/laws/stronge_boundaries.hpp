#pragma once
/// @file
/// The boundaries between the regions of Stronge's closed-form law ([NDC] §4.1, spec/003_dib.md
/// §3.5, Table 2): where an impact's region changes, the map is only C⁰ or C¹, and periodic orbits
/// whose impact sits there undergo discontinuity-induced bifurcations. With the rate constants of
/// laws/rate_constants.hpp (k_T^± = B ∓ μA, k_N^± = C ∓ μB) and r = e*, unscaled:
/// @verbatim
///   type                               regions                   H (sign: > 0 on the side of the
///                                                                   lower-numbered region)   class
///   v_T = 0 at the end of the impact   1–3, 1–7 (+)              k_N⁺v_T − (1+r)k_T⁺v_N        C⁰
///                                      2–4, 2–8 (−)            −(k_N⁻v_T − (1+r)k_T⁻v_N)
///   v_T = 0 at the end of compression  3–5, 7–9 (+)              k_N⁺v_T − k_T⁺v_N             C¹
///                                      4–6, 8–10 (−)           −(k_N⁻v_T − k_T⁻v_N)
///   v_T = 0 at impact, no stick        1–10                      v_T                           C⁰
///                                      2–9                      −v_T
///   v_T = 0 at impact, stick           5–6                       v_T                           C¹
///   loss of the stick phase            3–7, 5–9                  k_T⁻                          C⁰
///                                      4–8, 6–10                −k_T⁺
/// @endverbatim
/// (v_T, v_N) = v⁻, the pre-impact relative velocity (v_N < 0). The signs are those of [NDC]
/// §5.3–5.5 where it states them (1–3, 5–9, 1–10) and follow from v_T at the end of the phase
/// elsewhere; `stronge_boundaries_test` checks every one against the region classifier.

#include <array>
#include <vector>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter {

enum class BoundaryType : std::uint8_t {
  kEndOfImpact,
  kEndOfCompression,
  kZeroSlipNoStick,
  kZeroSlipStick,
  kLossOfStick,
};

[[nodiscard]] const char* to_string(BoundaryType t);

struct RegionBoundary {
  int lower{0};  ///< the lower-numbered region (H > 0 on its side)
  int upper{0};
  BoundaryType type{BoundaryType::kEndOfImpact};
  bool c1{false};  ///< the map is C¹ across it (else only C⁰)
};

/// The 15 boundaries of Table 2.
[[nodiscard]] const std::array<RegionBoundary, 15>& stronge_boundaries();

/// The boundary between regions a and b (in either order); throws InvalidArgument("regions", …)
/// if they share none.
[[nodiscard]] const RegionBoundary& stronge_boundary(int a, int b);

/// H of the boundary between regions a and b at the impact (v⁻, W; μ, e*), in velocity units
/// times 1/kg for the rate-constant forms (see the table above).
[[nodiscard]] double boundary_function(int a, int b, const Vec2& v_pre, const ContactMatrix& W,
                                       const ImpactParams& p);

/// The boundaries of the region of an impact, with their H at it (> 0 on the side of the
/// lower-numbered region, so an impact in the upper region has H < 0), nearest first by |H|
/// scaled to velocity units (H divided by the size of its rate constants, max(1, |k|…)).
struct BoundaryDistance {
  RegionBoundary boundary;
  double H{0.0};
  double distance{0.0};  ///< |H| / scale [m/s]
};
[[nodiscard]] std::vector<BoundaryDistance> boundaries_of_impact(const Vec2& v_pre,
                                                                 const ContactMatrix& W,
                                                                 const ImpactParams& p);

}  // namespace clatter
