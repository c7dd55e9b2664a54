#pragma once
/// @file
/// The explicit Feigin normal form of a boundary crossing of Stronge's law ([NDC] §5.1, Eq. 21;
/// spec/003_dib.md §5.1): at the critical point (z*, p*) of analysis/critical_point.hpp, with
/// z the full state at the impact section (q, q̇, a) and the impact map P = Q ∘ g,
/// @verbatim
///   P(z, p) − z* = α(z − z*) + M(p − p*)            if H > 0
///                = α(z − z*) + M(p − p*) + β H       if H < 0,    H = γ(z − z*) + N(p − p*)
///   α = ∂_zQ ∂_z g₁,   β = ∂_zQ d(g₂ − g₁)/dH,   M = ∂_zQ ∂_p g₁ + ∂_pQ      (Q at g₁(z*))
///   σ = γ(I − α)⁻¹β,   D = N + γ(I − α)⁻¹M,   multipliers eig(α) (H > 0), eig(α + βγ) (H < 0)
/// @endverbatim
/// g₁, g₂: the impact law lifted to the state, q̇⁺ = q̇ + M⁻¹J_cᵀ W⁻¹ (v⁺ − v⁻) (hybrid/
/// impact_resolution.hpp), with the formula of the lower-numbered region (H > 0) and of the
/// upper one (H < 0) forced (ImpactParams::forced_region). Q: the engine's flow from the
/// post-impact state to the same impact one period later (through the orbit's other impacts of
/// that contact), its pre-impact state.
///
/// Coordinates: for an autonomous section with a drift ν (the rod on a belt: anchor x, ν = v_dr)
/// the anchor component of z is ξ = x − ν t (the belt frame, [NDC]'s first component of z;
/// with x itself the map depends on the impact time). Forced (stroboscopic) problems are not
/// supported (the impact map then depends on the impact phase): `ok` is false.
///
/// How each piece is computed:
///   ∂_z g₁: the q̇ columns exactly, I + K (∂v⁺/∂v⁻ − I) J_c with K = M⁻¹J_cᵀW⁻¹ and ∂v⁺/∂v⁻ of
///           laws/stronge_jacobian.hpp; the q and a columns (W, J, M depend on q) by central
///           differences (step 1e-6 (1 + |z_j|)) of the lifted law with the region forced (smooth)
///   ∂_p g₁: central differences of the lifted law in the model parameter (forced region)
///   d(g₂ − g₁)/dH = (0, K J₁, 0): J₁ from the two regions' exact Jacobians
///           (stronge_jump_from_jacobians); the closed form of laws/stronge_jumps.hpp is kept
///           beside it (jump_closed_form). Zero across a C¹ boundary (β = 0, σ = 0).
///   ∂_zQ, ∂_pQ: central differences of the engine's flow (step 1e-6; forward where the backward
///           step would start the body inside the obstacle, g_N < 0)
///   γ, N:   central differences of H (smooth) in z and p (step 1e-6 (1 + |·|))
/// One row of ∂_zQ vanishes up to the event location's round-off (the section's constraint,
/// g_N = 0 for the rod's y): eig(α) has one trivial zero beside the section map's multipliers.

#include <complex>
#include <string>
#include <vector>

#include "clatter/analysis/critical_point.hpp"

namespace clatter::analysis {

struct FeiginNormalForm {
  bool ok{false};
  std::string message;               ///< why not ok
  int region_positive{0};            ///< g₁'s region (H > 0: the lower-numbered one)
  int region_negative{0};            ///< g₂'s region
  bool c1{false};                    ///< the boundary is C¹ (β = 0 to first order)
  std::vector<std::string> names;    ///< the components of z (the anchor's name is kept)
  Eigen::VectorXd z_star;            ///< the pre-impact state at the critical point
  Eigen::MatrixXd dQ_dz;             ///< ∂_zQ (n × n)
  Eigen::VectorXd dQ_dp;             ///< ∂_pQ
  Eigen::MatrixXd dg1_dz;            ///< ∂_z g₁
  Eigen::VectorXd dg1_dp;            ///< ∂_p g₁
  Eigen::VectorXd jump;              ///< d(g₂ − g₁)/dH by the law's Jacobians
  Eigen::VectorXd jump_closed_form;  ///< the same from laws/stronge_jumps.hpp (0 for C¹)
  Eigen::RowVectorXd gamma;          ///< γ = ∂H/∂z
  double N{0.0};                     ///< ∂H/∂p
  Eigen::MatrixXd alpha;
  Eigen::VectorXd beta;
  Eigen::VectorXd M;
  double sigma{0.0};
  double one_minus_sigma{1.0};
  double D{0.0};
  std::vector<std::complex<double>> multipliers_positive;  ///< eig(α), by decreasing modulus
  std::vector<std::complex<double>> multipliers_negative;  ///< eig(α + βγ)
  std::string verdict;  ///< "nonsmooth fold" (1 − σ < 0) or "persistence"
};

/// The normal form at the converged critical point `cp` of `problem` (autonomous section) for
/// `o`'s parameter, impact and regions.
[[nodiscard]] FeiginNormalForm feigin_normal_form(const PeriodicProblem& problem,
                                                  const CriticalPoint& cp,
                                                  const CriticalPointOptions& o);

}  // namespace clatter::analysis
