#pragma once
/// @file
/// Several contacts of the body touching at one instant, resolved simultaneously by the
/// multi-point energetic law of [R] (Rodriguez; multipoint/collision.hpp): rigid-body constraints
/// between the contact points of the body fix the ratios of their normal impulses, one global
/// coefficient e* ends each impact event, and a collision is a sequence of events until no
/// contact approaches. Used as the engine's TwoContactRule::kMultipoint.
///
/// The obstacles are infinitely massive and move as one rigid frame with generalized velocity s
/// (model::System::multipoint_input; s = (u, ḣ, 0) for a body over a moving line): the collision
/// is solved in that frame, q̇_rel = q̇ − s, whose contact velocities are the relative ones
/// (J q̇_rel = v), and q̇⁺ = q̇_rel⁺ + s. Models without a multi-point description return ok = false.
/// Settings: the ∫ Σ v_N dp_N definition of the normal work (WorkDefinition::kIntegral: the kinetic
/// energy in the surface frame never increases) and the first-minimum compression rule, with which
/// one contact is exactly Stronge's law; e* and μ (μ_s = μ_d) of the first contact's law.
///
/// For a symmetric configuration (a flat rod landing on both ends) the result is symmetric: equal
/// impulses, no spin — unlike single-contact impacts one after the other.

#include <array>

#include "clatter/laws/impact.hpp"
#include "clatter/model/system.hpp"
#include "clatter/multipoint/collision.hpp"

namespace clatter::hybrid {

struct SimultaneousImpact {
  bool ok{false};  ///< false: the solver met a status other than ok / energy gain (see status)
  int status{0};   ///< multipoint::Status as an integer (0 = ok)
  model::VecQ qd_post{};
  std::array<Vec2, model::kMaxContacts> Lambda{};  ///< total impulse per contact (T, N)
  std::array<Vec2, model::kMaxContacts> v_pre{};   ///< relative contact velocities
  std::array<Vec2, model::kMaxContacts> v_post{};
  int events{0};  ///< impact events of the collision
  bool energy_gain{false};
  /// The solver's rows: its contact a (0 ≤ a < n_active) is the model's contact[a]; its
  /// per-event results (SimultaneousScratch::result.events) have components (2a, 2a + 1) = (T, N)
  /// and velocities in the obstacles' frame, q̇ = q̇_rel + frame_velocity.
  int n_active{0};
  std::array<int, model::kMaxContacts> contact{};
  model::VecQ frame_velocity{};
};

/// The solver's input, settings and result, reused from one collision to the next (hybrid::Data
/// holds one): once warm, a collision allocates nothing.
struct SimultaneousScratch {
  multipoint::Input input;
  multipoint::Params params;
  multipoint::CollisionResult result;
};

/// Resolves the collision of the contacts flagged in `active` (all at zero gap) at time t.
/// @pre at least one active contact approaches.
[[nodiscard]] SimultaneousImpact resolve_simultaneous(
    const model::System& model, double t, const model::VecQ& q, const model::VecQ& qd,
    const std::array<bool, model::kMaxContacts>& active, SimultaneousScratch& scratch);

}  // namespace clatter::hybrid
