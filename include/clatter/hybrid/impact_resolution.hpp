#pragma once
/// @file
/// Impacts of a mechanical system at its contacts (frozen configuration, [NDC] §2.1, [BP] §2,
/// [B] §3.1):
/// @verbatim
///   one contact i:   W = J_i M⁻¹ J_iᵀ,  v⁻ = J_i q̇⁻ − w_i,  (v⁺, Λ) = law(v⁻, W),
///                    q̇⁺ = q̇⁻ + M⁻¹ J_iᵀ Λ
///   a pair (i, j) with equal impulses (symmetric reduction):
///                    J = (J_i + J_j)/2, the same with W = J M⁻¹ Jᵀ and v⁻ = J q̇⁻ − w;
///                    each contact receives Λ/2
///   work of the obstacle on the system:  W_s = Λ·w;  ΔT = ΔE_law + W_s
/// @endverbatim
/// w is the obstacle's velocity at the contact (model/system.hpp; (u, ḣ) for a moving line).
/// Nothing is allocated; the law is the contact's LawChoice (laws/impact_law.hpp), whose
/// ImpactOutcome reports region/case, ΔE and status (energy gain of non-dissipative laws).

#include "clatter/laws/impact.hpp"
#include "clatter/laws/impact_law.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {

struct ContactImpact {
  ImpactOutcome outcome{};
  Vec2 v_pre{0.0, 0.0};
  model::VecQ qd_pre{};      ///< generalized velocity before the impact
  double surface_work{0.0};  ///< Λ·w [J]
};

/// Applies `law` to the contact (or mean contact) with Jacobian rows J and obstacle velocity w,
/// with M⁻¹ from `mass`, and updates q̇. @pre v_N⁻ = J_N q̇ − w_N < 0.
ContactImpact apply_impact(const model::MassFactor& mass, const Vec2& w, model::VecQ& qd,
                           const model::Rows2& J, const LawChoice& law);

/// The impact without collision of a jammed sliding contact with Jacobian rows J
/// (laws/impact_without_collision.hpp): Stronge's law with the law's μ, e* from v⁻ = (v_T, 0),
/// v_T = J_T q̇ − w_T; updates q̇. @pre v_T ≠ 0.
ContactImpact apply_impact_without_collision(const model::MassFactor& mass, const Vec2& w,
                                             model::VecQ& qd, const model::Rows2& J,
                                             const ImpactParams& params);

/// Applies `law` at contact i of `system` at (t, q) and updates q̇. @pre v_N⁻ < 0 at contact i.
ContactImpact apply_contact_impact(const model::System& system, double t, const model::VecQ& q,
                                   model::VecQ& qd, int i, const LawChoice& law);

/// Applies `law` with equal impulses at contacts i and j and updates q̇. @pre the mean v_N⁻ < 0.
ContactImpact apply_pair_impact(const model::System& system, double t, const model::VecQ& q,
                                model::VecQ& qd, int i, int j, const LawChoice& law);

}  // namespace clatter::hybrid
