#pragma once
/// @file
/// Conformance of any model::System to the interface's equations (system.hpp), checked at one
/// state (t, q, q̇, a) by finite differences and a short free run. Every registered model passes it
/// (tests/unit/model/conformance_test.cpp); a user's model should too.
///
/// Checks (h: the difference step; every error is relative to the scale named):
/// @verbatim
///   mass_symmetric   max|M − Mᵀ| ≤ tol_round · max|M|
///   mass_spd         Cholesky of M succeeds and λ_min(M) > tol_round · λ_max(M)
///   kinetic_energy   |T − ½ q̇ᵀ M q̇| ≤ tol_round · (|T| + ½ |q̇|² max|M|)   (T overridden or not)
///   contact_geometries  every contact at once (System::contact_geometries) against each alone:
///                  |Δg_N| + |Δv| + |Δw| + |Δγ| + |Δscale| + max|ΔJ| ≤ tol_round · (their scale)
///   evaluate         the one-call System::evaluate against the functions it stands for: f,
///                    M⁻¹ f, P_a, ψ and every contact (g_N, v, w, γ, J), each ≤ tol_round ·
///                    (its scale)
///   contact c:
///     velocity       |v − (J q̇ − w)| ≤ tol_round · (|J q̇| + |w| + 1)
///     gap_gradient   |∂g_N/∂q_i − J_N,i| by central differences in q_i, and
///                    |∂g_N/∂t + w_N| in t: ≤ tol_fd · (|J_N| + |w_N| + 1)   (the normal row)
///     gamma          dv/dt along the free motion (t + s, q + s q̇, q̇ + s q̈), q̈ = M⁻¹ f, by
///                    central differences of J q̇ − w, minus J q̈, against γ:
///                    ≤ tol_fd · (|dv/dt| + |J q̈| + |γ| + 1)   (checks J_T through γ and w)
///     delassus       W = J M⁻¹ Jᵀ positive definite, or of rank one (AC − B² ≥ −1e-12 AC,
///                    C > 0: a one-coordinate contact, laws/rank_one_impact.hpp)
///   energy           a free run of `free_run_time` (no contact forces; RK4 in `free_run_steps`
///                    fixed steps) keeps E − ∫P_a dt constant:
///                    |ΔE − ∫P_a| ≤ tol_energy · (|T| + |V| + ∫|P_a| + tiny)
///   open_horizons    (models that offer System::open_horizons, from a state with every gap
///                    open) every τ_c ≥ 0, and no contact closes on the free run at a step
///                    t + s ≤ t + τ_c (the run ends at the first closure: an event):
///                    −g_N / scale ≤ tol_round at the first closure, if it lies within τ_c
/// @endverbatim
/// The finite-difference tolerance 1e-6 covers the truncation error h² |g‴| ~ 1e-10 and the
/// round-off ε |g| / h ~ 1e-11 of steps h = 1e-5 by four orders of magnitude, and a wrong sign or
/// entry of a Jacobian gives an O(1) error. The energy tolerance 1e-8 covers the RK4 error
/// (h ω)⁴ of 2000 steps over a fraction of the motion's time scale.

#include <string>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::model {

struct ConformanceOptions {
  double fd_step{1e-5};       ///< relative finite-difference step (times max(1, |q_i|), 1 in t)
  double tol_round{1e-10};    ///< identities that hold to round-off
  double tol_fd{1e-6};        ///< finite-difference comparisons
  double tol_energy{1e-8};    ///< free-run energy balance
  double free_run_time{0.1};  ///< duration of the free run [s] (0: skip the energy check)
  int free_run_steps{2000};   ///< RK4 steps of the free run
  bool check_delassus{true};  ///< include the delassus check
};

struct ConformanceCheck {
  std::string name;   ///< "mass_spd", "contact.P1.gamma", …
  double error{0.0};  ///< the relative error measured
  double tolerance{0.0};
  bool pass{true};
};

struct ConformanceReport {
  std::vector<ConformanceCheck> checks;
  [[nodiscard]] bool pass() const;
  /// The failed checks in one line each ("" if all pass).
  [[nodiscard]] std::string message() const;
  /// The check of that name, or nullptr.
  [[nodiscard]] const ConformanceCheck* find(const std::string& name) const;
};

/// Runs every check at (t, q, q̇, a). @pre sizes match the model (aux may be empty); throws
/// InvalidArgument naming "q", "qdot" or "aux" otherwise.
[[nodiscard]] ConformanceReport check_conformance(const System& model, double t, const VecQ& q,
                                                  const VecQ& qd, const VecA& aux = VecA(),
                                                  const ConformanceOptions& options = {});

}  // namespace clatter::model
