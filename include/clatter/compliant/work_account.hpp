#pragma once
/// @file
/// The work account of a compliant impact ([Bi] §4.2.1.3, Eqs 4.61–4.68 with the
/// corrections of spec 002_pendulum.md §3.8): friction is the only dissipation, so
/// @verbatim
///   ΔKE(t) + ½k1u1² + ½k3u3² = ∫₀ᵗ F1 s dt   (≤ 0),        s = ẋ − u̇1
///   ΔKE(t) = P·v0 + ½ PᵀWP                   (exact for any W, also singular)
///   W_ic = ∫₀^{t_c} F_i v_i dt,  W_ir = ∫_{t_c}^{t_end} F_i v_i dt   (i = 1, 3; v = (ẋ, ż))
///   W1c + W1r + W3c + W3r = ΔKE,   W3c + W3r = −½k3 u3(t_end)²   (= 0 after separation)
/// @endverbatim
/// The work integrals are computed by Gauss–Legendre quadrature (10 points × 16 panels per phase
/// interval) along the closed-form motion, independently of the energy identities, so `residual`
/// checks the solver: it is round-off (≲ 1e-12 KE0) when the phases are right. [Bi]'s (4.68) omits
/// the minus signs and its slip-1 integral limit t_tl should read t_lt (spec §6 item 6).
/// Units: J. The ledger ends at t_end = t_f, or at the start of the permanent stick of a wedge.

#include <array>

#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/core/energy_ledger.hpp"

namespace clatter::compliant {

struct WorkAccount {
  double t_end{0.0};                  ///< end of the accounted motion [s]
  double kinetic_energy_pre{0.0};     ///< ½ v0ᵀ W⁺ v0 (contact-space kinetic energy) [J]
  double kinetic_energy_change{0.0};  ///< ΔKE = P·v0 + ½ PᵀWP at t_end [J]
  double spring_energy_end{0.0};      ///< ½k1u1² + ½k3u3² at t_end [J]
  double friction_work{0.0};          ///< Σ ∫F1 s dt over the slip phases (≤ 0) [J]
  std::array<double, kMaxPhases> friction_work_phase{};  ///< per phase (0 in stick) [J]
  double work1_c{0.0}, work1_r{0.0};  ///< ∫F1 ẋ dt in compression / restitution [J]
  double work3_c{0.0}, work3_r{0.0};  ///< ∫F3 ż dt in compression / restitution [J]
  double residual{0.0};  ///< ΔKE + spring energy − friction work (0 up to round-off) [J]

  /// The impact in the one energy ledger (core/energy_ledger.hpp): initial = KE0, kinetic =
  /// KE0 + ΔKE, potential = the springs' energy, friction_loss = −friction work, no other term;
  /// its balance() is `residual`.
  [[nodiscard]] EnergyLedger ledger() const {
    EnergyLedger l;
    l.initial = kinetic_energy_pre;
    l.kinetic = kinetic_energy_pre + kinetic_energy_change;
    l.potential = spring_energy_end;
    l.friction_loss = -friction_work;
    return l;
  }
};

/// The ledger of a solved impact. @pre result from solve(model, …) with status kOk.
[[nodiscard]] WorkAccount work_account(const Model& model, const Result& result);

/// ½ vᵀ W⁺ v with the pseudo-inverse W⁺ (components of v outside range W are ignored) [J].
[[nodiscard]] double contact_kinetic_energy(const ContactMatrix& W, double x_dot, double z_dot);

}  // namespace clatter::compliant
