#pragma once
/// @file
/// The jump of Stronge's closed-form law across each of its 15 boundaries, in closed form
/// ([NDC] §4.2, spec/003_dib.md §4 items 1–5, with the digest's corrected item 2). With H the
/// boundary function of laws/stronge_boundaries.hpp (> 0 on the side of the lower-numbered
/// region) and g_lower, g_upper the two regions' formulas (laws/stronge_maps.hpp) extended
/// smoothly across the boundary, at a pre-impact velocity v⁻ = (v_T, v_N) near it:
/// @verbatim
///   g_upper − g_lower = J₁ H + O(H²)      C⁰ boundaries (order 1)
///   g_upper − g_lower = J₂ H² + O(H³)     C¹ boundaries (order 2)
/// with (k, k′) the first and second segments' rate constants (Table 1), r = e*:
///   1. end of impact (1–3, 1–7: H = φ; 2–4, 2–8: H = −φ), φ = k_N v_T − (1+r) k_T v_N:
///        g_II − g_I = ((k′_T − k_T)/(k_T k_N), (k′_N − k_N)/(k_T k_N)) φ
///   2. end of compression (3–5, 7–9: H = φ; 4–6, 8–10: H = −φ), φ = k_N v_T − k_T v_N
///      (the digest's correction of the paper's coefficient, verified by differences):
///        g_III − g_II = (k_N − k′_N)(1 − r²)/(2 r k_T² v_N √(k_N k′_N)) (k′_T/k′_N, 1) φ²
///   3. v_T = 0 at impact, no stick (1–10: H = v_T; 2–9: H = −v_T); k the initial slip of the
///      Map-III side, k′ the other slip:
///        g_I(k′) − g_III(k, k′) = (1 − k′_T k_N/(k_T k′_N) − k′_T (k_N − k′_N) r/(k′_N k_T),
///                                  (k′_N − k_N) r/k_T) v_T
///   4. v_T = 0 at impact, stick (5–6, H = v_T):
///        g_III(k⁺, stick) − g_III(k⁻, stick) = (0, −(k_T⁺ + k_T⁻) k_N⁰ r μ/(2 v_N k_T⁺ k_T⁻)) v_T²
///   5. loss of stick (3–7, 5–9: H = k_T⁻; 4–8, 6–10: H = −k_T⁺); k′_T the second segment's
///      would-be slip rate, k′_N = k_N⁰ + (B/A) k′_T, a = (k_N/k_T) v_T − v_N, S with k′ = (0,
///      k_N⁰):
///        g_II(k, k′) − g_II(k, 0, k_N⁰)   = ((a + S_II)/k_N⁰,   (B/A)(r² v_N² − a²)/(2 k_N S_II))
///        k′_T g_III(k, k′) − g_III(k, 0, k_N⁰) = ((a + r S_III)/k_N⁰, (B/A) r (v_N² − a²)/(2 k_N
///        S_III)) k′_T
/// @endverbatim
/// Units: J₁ in (m/s) per unit of H (H is a velocity for 1–10, 2–9, 5–6, a velocity times 1/kg
/// for the rate-constant forms, 1/kg for loss of stick); J₂ per unit of H².
/// @pre v_N⁻ < 0, 0 < r (items 2 and 4 divide by r), and the rate constants that divide are
/// non-zero (k_T, k_N of the first slip; k′_N); item 2 needs k_N k′_N > 0 (not in jam).
///
/// stronge_jump_from_jacobians gives J₁ a second way, from the two regions' exact Jacobians
/// (laws/stronge_jacobian.hpp): ∂(g_upper − g_lower) = J₁ ∂H at a point of the boundary, taken
/// along v⁻ (or along μ for loss of stick, where H does not depend on v⁻); zero across a C¹
/// boundary, where the first derivatives agree.

#include "clatter/laws/impact.hpp"
#include "clatter/laws/stronge_boundaries.hpp"

namespace clatter {

struct StrongeJump {
  RegionBoundary boundary;
  int order{1};                ///< 1 (C⁰) or 2 (C¹): the power of H
  Vec2 coefficient{0.0, 0.0};  ///< J₁ or J₂ (v_T⁺, v_N⁺ components)
};

/// The closed-form jump across the boundary between regions a and b at (v⁻, W; μ, e*). Throws
/// InvalidArgument("regions", …) if they share no boundary.
[[nodiscard]] StrongeJump stronge_jump(int a, int b, const ImpactInput& in, const ImpactParams& p);

/// J₁ from the two regions' exact Jacobians at (v⁻, W; μ, e*), a point on (or near) the
/// boundary; (0, 0) for a C¹ boundary.
[[nodiscard]] Vec2 stronge_jump_from_jacobians(int a, int b, const ImpactInput& in,
                                               const ImpactParams& p);

}  // namespace clatter
