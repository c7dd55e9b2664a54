#pragma once
/// @file
/// [B]'s Painlevé experiment (§6.3, Figs 6.7–6.10; spec/000_thesis.md §7) on the general engine:
/// the double pendulum (model/double_pendulum_belt_model.hpp) rests with its end on the belt,
/// which slides past it at V; at t_jump the friction coefficient jumps from μ₀ to μ_p — a
/// scheduled parameter change of the contact (hybrid/schedule.hpp: "contact.end.mu" and the
/// sustained μ). If the sliding contact is then jammed (k_N = C − μ_p sgn(v_T) B < 0) the engine
/// resolves it by an impact without collision (PainlevePolicy::kImpactWithoutCollision) and the
/// pendulum leaves the belt; otherwise it slides on with μ_p until it lifts off or sticks.
///
/// Before t_jump the pendulum is held at rest (q̇ = 0), as in [B]: the torque T that [B] sets
/// from its static equilibrium (6.29)–(6.30) balances friction of the opposite sign to the slip
/// (spec/000 §7 "sign caveat"), so the rest is [B]'s assumption, not a motion of the model; the
/// samples before t_jump repeat the rest state and the engine starts at t_jump.

#include <vector>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/double_pendulum_belt.hpp"

namespace clatter::analysis {

struct FrictionJump {
  model::DoublePendulumBelt model{};  ///< d is set so that the end touches the belt at q0
  Vec2 q0{0.0, 0.0};                  ///< (θ, φ) at rest on the belt [rad]
  double mu0{0.7};                    ///< friction before the jump
  double mu_p{1.3};                   ///< friction after the jump
  double e{0.7};                      ///< Stronge's e* of the contact
  double t_jump{1.25};                ///< [s]
  double t_end{1.6};                  ///< [s]
  double sample_dt{1e-3};             ///< output spacing [s]
  int max_events{100};
  double abs_tol{1e-10}, rel_tol{1e-10};
  double baumgarte_omega{1.0};  ///< ω_b [1/s] (ζ = 1)
};

/// Throws InvalidArgument naming the field: the model's, mu0/mu_p ≥ 0, e ∈ [0, 1],
/// 0 ≤ t_jump < t_end, sample_dt > 0, max_events ≥ 1, tolerances > 0, q0 finite.
void validate(const FrictionJump& x);

enum class BeltPhase : std::uint8_t { kSliding, kSticking, kFlight };
[[nodiscard]] const char* to_string(BeltPhase p);

struct BeltSample {
  double t{0.0};
  Vec2 q{Vec2::Zero()}, qd{Vec2::Zero()};
  double gap{0.0}, gap_rate{0.0};  ///< c₂, ċ₂
  double slip{0.0};                ///< ċ₁ − V
  double lambda_N{0.0};            ///< λ₂ in contact, 0 in flight
  BeltPhase phase{BeltPhase::kSliding};
};

struct BeltRunResult {
  std::vector<BeltSample> samples;
  std::vector<hybrid::EventRecord> events;  ///< the parameter change at t_jump first
  hybrid::SimulationResult result;          ///< the engine's result (reason, ledger, counts)
  ContactMatrix W_jump{};                   ///< W at q0
  double mu_critical{0.0};  ///< C / (s B) at q0 (+∞ if no jam is possible in the slip direction)
};

[[nodiscard]] BeltRunResult run_friction_jump(const FrictionJump& x);

}  // namespace clatter::analysis
