#pragma once
/// @file
/// Impacts of the body at its contacts (frozen configuration, [NDC] §2.1, [BP] §2, [B] §3.1):
/// @verbatim
///   one contact i:   W = J_i M⁻¹ J_iᵀ,  v⁻ = J_i q̇⁻ − (u, ḣ),  (v⁺, Λ) = law(v⁻, W),
///                    q̇⁺ = q̇⁻ + M⁻¹ J_iᵀ Λ
///   a pair (i, j) with equal impulses (symmetric reduction):
///                    J = (J_i + J_j)/2, the same with W = J M⁻¹ Jᵀ and v⁻ = J q̇⁻ − (u, ḣ);
///                    each contact receives Λ/2
///   work of the surface on the body:  W_s = Λ·(u, ḣ);  ΔT = ΔE_law + W_s
/// @endverbatim
/// Nothing is allocated; the law is the contact's LawChoice (laws/impact_law.hpp), whose
/// ImpactOutcome reports region/case, ΔE and status (energy gain of non-dissipative laws).

#include "clatter/dynamics/planar_body_model.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter::hybrid {

struct ContactImpact {
  ImpactOutcome outcome{};
  Vec2 v_pre{0.0, 0.0};
  Vec3 qd_pre{Vec3::Zero()};  ///< generalized velocity before the impact
  double surface_work{0.0};   ///< Λ·(u, ḣ) [J]
};

/// Applies `law` to the contact (or mean contact) with Jacobian rows J at time t and updates q̇.
/// @pre v_N⁻ = J_N q̇ − ḣ(t) < 0.
ContactImpact apply_impact(const dynamics::PlanarBodyModel& model, double t, Vec3& qd,
                           const Eigen::Matrix<double, 2, 3>& J, const LawChoice& law);

/// The impact without collision of a jammed sliding contact with Jacobian rows J
/// (laws/impact_without_collision.hpp): Stronge's law with the law's μ, e* from v⁻ = (v_T, 0),
/// v_T = J_T q̇ − u(t); updates q̇. @pre v_T ≠ 0.
ContactImpact apply_impact_without_collision(const dynamics::PlanarBodyModel& model, double t,
                                             Vec3& qd, const Eigen::Matrix<double, 2, 3>& J,
                                             const ImpactParams& params);

/// Applies `law` at contact i and updates q̇. @pre v_N⁻ < 0 at contact i.
ContactImpact apply_contact_impact(const dynamics::PlanarBodyModel& model, double t, const Vec3& q,
                                   Vec3& qd, int i, const LawChoice& law);

/// Applies `law` with equal impulses at contacts i and j and updates q̇. @pre the mean v_N⁻ < 0.
ContactImpact apply_pair_impact(const dynamics::PlanarBodyModel& model, double t, const Vec3& q,
                                Vec3& qd, int i, int j, const LawChoice& law);

}  // namespace clatter::hybrid
