#pragma once
/// @file
/// Stronge's energetic restitution for a planar contact with Coulomb friction, in closed form
/// ([NDC] §3; spec/003_dib.md §3.3–3.6; [B] §3.2 with the Map III erratum corrected).
///
/// The impact is resolved in the normal impulse p. Each mode is a straight line in (v_T, v_N)
/// (rate constants in rate_constants.hpp). The impact ends when the restitution work equals
/// e*² times the compression work ([NDC] Eq. 18, with the −r² on the compression side, as the prose
/// and Eq. 18 say; Eq. 16 as printed has it on the wrong side):
/// @verbatim
///   ∫_{v_N>0} v_N dp = −e*² ∫_{v_N<0} v_N dp,     e* ∈ [0, 1]
/// @endverbatim
/// With a := (k_N/k_T) v_T⁻ − v_N⁻ (= −v_N where the first slip stops) and ρ := k′_N/k_N:
/// @verbatim
///   Map I   (one mode):               v⁺ = (v_T⁻ − (1+e*)(k_T/k_N) v_N⁻,  −e* v_N⁻)
///   Map II  (slip stops in restitution): S² = (1−ρ)a² + e*²ρ v_N⁻²,  v⁺ = ((k′_T/k′_N)(a+S), S)
///   Map III (slip stops in compression): S² = v_N⁻² + 2(k′_N−k_N) v_T⁻v_N⁻/k_T +
///   k_N(k_N−k′_N)(v_T⁻/k_T)²
///                                        v⁺ = ((k′_T/k′_N)(a + e*S), e*S)
/// @endverbatim
/// Map III is written in the division-free polynomial form of S² (spec/003_dib.md §3.4), valid
/// through k_N = 0 (the Painlevé curve). Square-root arguments are clamped at 0.
///
/// Regions (Table 1 of [NDC]): (k, k′) = 1: (+,·) I; 2: (−,·) I; 3: (+,stick) II; 4: (−,stick) II;
/// 5: (+,stick) III; 6: (−,stick) III; 7: (+,−) II; 8: (−,+) II; 9: (+,−) III; 10: (−,+) III;
/// region 0 = v_T⁻ = 0 exactly with stick possible (immediate stick, Map I with (0, k_N⁰)).

#include <cstdint>

#include "clatter/laws/impact.hpp"
#include "clatter/laws/rate_constants.hpp"

namespace clatter::stronge {

enum class MapKind : std::uint8_t { kI, kII, kIII };

/// Result of the region classifier (reconstruction of [NDC] Fig. 5, spec/003_dib.md §3.6).
struct Classification {
  int region{0};
  MapKind map{MapKind::kI};
  SlipMode mode{SlipMode::kStick};        ///< mode of the first segment
  SlipMode mode_after{SlipMode::kStick};  ///< mode after the slip stops (Maps II/III)
  double k_T{0.0}, k_N{0.0};              ///< rate constants of the first segment
  double kp_T{0.0}, kp_N{0.0};            ///< rate constants after the slip stops
};

/// @pre v_N⁻ < 0, e_star ∈ [0, 1].
[[nodiscard]] Classification classify(const Vec2& v_pre, const ContactMatrix& W,
                                      const RateConstants& k, double e_star);

/// The classification of region `region` (0–10) by Table 1 of spec/003_dib.md §3.4: its modes,
/// map and rate constants, whatever v⁻ (the forced region formula).
[[nodiscard]] Classification classification_of_region(int region, const ContactMatrix& W,
                                                      const RateConstants& k);

[[nodiscard]] Vec2 map_I(const Vec2& v_pre, double k_T, double k_N, double e_star);
/// @pre k_N > 0, k_T ≠ 0, k′_N > 0.
[[nodiscard]] Vec2 map_II(const Vec2& v_pre, double k_T, double k_N, double kp_T, double kp_N,
                          double e_star);
/// @pre k_T ≠ 0, k′_N > 0 (k_N may be ≤ 0: jam).
[[nodiscard]] Vec2 map_III(const Vec2& v_pre, double k_T, double k_N, double kp_T, double kp_N,
                           double e_star);

}  // namespace clatter::stronge

namespace clatter {

/// Stronge's energetic law in closed form: classification + Map I/II/III, impulses from the
/// segment impulses, itinerary of segments. Reads params.mu and params.e (= e*).
/// @pre validate(in, params) passes. Allocation-free.
[[nodiscard]] ImpactOutcome stronge_closed_form(const ImpactInput& in, const ImpactParams& params);

}  // namespace clatter
