#pragma once
/// @file
/// Impacts at a contact whose contact matrix W is singular of rank one: the contact point can
/// only move along one line of the (v_T, v_N) plane, as the tip of a one-degree-of-freedom
/// pendulum ([Bi] §4.2.1.4) or any contact whose two Jacobian rows are dependent. Then
/// W = K u uᵀ (K > 0, |u| = 1), v = (B/C) v_N along the line, and v_T and v_N reach 0 together.
///
/// Slip in compression opposes v_T⁻, whose sign is −sgn B (v_N⁻ < 0); in expansion the contact
/// would stick if |B| ≤ μA (which then keeps v_N = 0: a wedge, no rebound), else it slips with
/// sgn B. With λ_T = −sμλ_N the normal velocity grows at the rates
/// @verbatim
///   compression  k_c = C + μ|B| > 0,   p_c = −v_N⁻/k_c,   normal work −v_N⁻²/(2k_c)
///   expansion    k_e = C − μ|B|        (> 0 ⇔ |B| > μA, since AC = B²)
///   Stronge (energetic, e*):   v_N⁺ = e* |v_N⁻| √(k_e/k_c)
///   Poisson (e_P = p_e/p_c):   v_N⁺ = e_P |v_N⁻| k_e/k_c
///   Newton, Whittaker, Brach (kinematic, e_N):  v_N⁺ = e_N |v_N⁻|
///   every law: v_N⁺ = 0 when k_e ≤ 0 (wedge);  v_T⁺ = (B/C) v_N⁺;  Λ_N = p_c + v_N⁺/k_e,
///              Λ_T = sgn B · μ (p_c − v_N⁺/k_e)   (0 for B = 0: a contact with J_T = 0)
/// @endverbatim
/// For the pendulum of [Bi] (C/|B| = tan θ) the energetic ratio is √((tan θ − μ)/(tan θ + μ)),
/// compliant/pendulum_rigid.hpp. ΔE = ½Λ·(v⁻ + v⁺) ≤ 0 for Stronge and Poisson; the kinematic
/// laws with friction can gain energy and report Status::kEnergyGain, as in two dimensions.

#include "clatter/laws/impact.hpp"
#include "clatter/laws/impact_law.hpp"

namespace clatter {

/// True when W is singular to within the SPD test of ContactMatrix (|AC − B²| ≤ 1e-12 AC) with
/// A, C ≥ 0 and A + C > 0 (an indefinite W is not: the laws reject it).
[[nodiscard]] bool is_rank_one(const ContactMatrix& W);

/// The impact of `law` at a rank-one contact. Throws InvalidArgument naming the field unless
/// v_N⁻ < 0, v⁻ lies on the contact's line (|C v_T − B v_N| ≤ 1e-9 (|C v_T| + |B v_N|)),
/// μ ≥ 0 and e ∈ [0, 1].
[[nodiscard]] ImpactOutcome rank_one_impact(LawKind law, const ImpactInput& in,
                                            const ImpactParams& params);

}  // namespace clatter
