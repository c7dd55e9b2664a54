#pragma once
/// @file
/// One impact of a planar contact with friction, as one operation for every front end
/// (`clatter impact`, Python's impact_report), in one of two forms:
/// - the contact-space form: W = [[A, B], [B, C]] (SPD) and the pre-impact contact velocity
///   v⁻ = (v_T, v_N), v_N < 0;
/// - the rigid-body form: the body of [B] §3.2 (mass m, inertia I about G) with its contact at
///   end 1, G − L(cos θ, sin θ), or end 2, G + L(cos θ, sin θ), in the contact frame, and the
///   generalised velocities q̇⁻ = (V_T, V_N, θ̇) of G; it also reports q̇⁺ = q̇⁻ + M⁻¹JᵀΛ and the
///   kinetic energies before and after.
///
/// The report is JSON (keys of docs/notation.md): v_pre, W, mu, e, v_post, Lambda, region, case,
/// delta_energy, status, ends_in_stick, p_N_compression, segments, Stronge's boundaries and
/// scaled variables, Brach's bounds, and the rigid-body values.

#include <optional>
#include <string>
#include <vector>

#include "clatter/laws/impact_law.hpp"

namespace clatter::app {

/// The options of `clatter impact`, with their defaults. Give W and v, or the rigid-body form
/// (mass, inertia, offset, angle and qdot), not both.
struct ImpactRequest {
  std::string law{"stronge"};     ///< a name of kLawNames
  std::vector<double> W;          ///< A, B, C
  std::vector<double> v_pre;      ///< v_T, v_N [m/s], v_N < 0
  double mu{0.0};                 ///< friction coefficient ≥ 0 (Brach: the bound μ_f)
  double e{0.0};                  ///< restitution in [0, 1] (Newton e_N, Poisson e_P, Stronge e*)
  std::optional<double> mass;     ///< rigid-body form: m > 0 [kg]
  std::optional<double> inertia;  ///< I > 0 about G [kg m²]
  std::optional<double> offset;   ///< L > 0 from G to the contact [m]
  std::optional<double> angle;    ///< θ, the body's angle to the surface [rad]
  std::vector<double> qdot;       ///< V_T, V_N [m/s], θ̇ [rad/s] of G
  int end{1};                     ///< 1 or 2
};

/// The outcome and its JSON report (with a final newline).
struct ImpactReport {
  ImpactOutcome outcome;
  std::string json;
  /// false where the law could not resolve the impact (status singular or no_termination)
  [[nodiscard]] bool resolved() const {
    return outcome.status != Status::kSingular && outcome.status != Status::kNoTermination;
  }
};

/// Checks the request (InvalidArgument naming "law", "W", "v_pre", "mass", "qdot" or "end") and
/// applies the law.
[[nodiscard]] ImpactReport run_impact(const ImpactRequest& request);

}  // namespace clatter::app
