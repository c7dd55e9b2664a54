#pragma once
/// @file
/// The energy ledger, the one account of energy in clatter: of a run (hybrid::Data::ledger,
/// summary.json's "energy"), and of one compliant impact (compliant/work_account.hpp, whose
/// springs are the potential and friction the only loss). With E = T + V (model::System
/// energies),
/// @verbatim
///   E(t) − E(t₀) = W_applied + W_surface − L_impact − L_friction + ΔE_reset
///   W_applied  = ∫ P_a dt                       applied non-conservative forces and explicit
///                                               time dependence (model::System::applied_power)
///   W_surface  = ∫ λ·w dt + Σ Λ·w              work of the moving obstacles (forces and impulses;
///                                               w = obstacle velocity, (u, ḣ) for a moving line)
///   L_impact   = −Σ ΔE_law ≥ 0 for dissipative laws, ΔE_law = ½Λ·(v⁻ + v⁺) in relative velocities
///   L_friction = −∫ λ·v dt                      sliding friction (plus the vanishing work of the
///                                               constraint stabilization)
///   ΔE_reset   = energy change of state resets that are not impacts (the symmetric levelling)
/// @endverbatim
/// balance() is the residual; it is at the level of the integration tolerance.

namespace clatter {

struct EnergyLedger {
  double initial{0.0};
  double kinetic{0.0};
  double potential{0.0};
  double applied_work{0.0};
  double surface_work{0.0};
  double impact_loss{0.0};
  double friction_loss{0.0};
  double reset{0.0};

  [[nodiscard]] double total() const { return kinetic + potential; }
  [[nodiscard]] double balance() const {
    return total() - (initial + applied_work + surface_work - impact_loss - friction_loss + reset);
  }
};

}  // namespace clatter
