#pragma once
/// @file
/// Poincaré sections and maps of any model, computed by the engine itself: x ↦ the state at the
/// next crossing of the section, with every event passed on the way.
/// @verbatim
///   impact      the next impact (EventKind::kImpact) of a named contact (or of any): x⁺ after it
///   event       the next event of a given kind (stick, slip onset, lift-off, …) of a contact
///   phase       the next time with ω t ≡ φ_s (mod 2π): the stroboscopic map
///   crossing    the next time the component x_i − c changes sign in the given direction
///               (+1 rising, −1 falling, 0 both). A coordinate (i < nq) by the engine's own
///               crossing section (hybrid::Section::kCrossing: every crossing, also a pair
///               between two samples, located in every phase); a velocity or an auxiliary
///               state by a sign change between samples (sample_dt) and bisection on re-runs
///               of the engine from the last sample before it (to 1e-12 s)
/// @endverbatim
/// Every map is bounded by t_max (no crossing before it: `found` is false, the reason given), and
/// by the engine's own guards.

#include <string>
#include <vector>

#include "clatter/analysis/state_space.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::analysis {

enum class PoincareKind : std::uint8_t { kImpact, kEvent, kPhase, kCrossing };

struct PoincareSection {
  PoincareKind kind{PoincareKind::kImpact};
  int contact{-1};                                      ///< impact, event: the contact (−1: any)
  hybrid::EventKind event{hybrid::EventKind::kImpact};  ///< event: its kind
  std::string frequency{"surface.omega"};               ///< phase: the parameter holding ω [rad/s]
  double phase{0.0};                                    ///< phase: φ_s [rad]
  int component{-1};       ///< crossing: the index i into x = (q, q̇, a)
  double value{0.0};       ///< crossing: c
  int direction{0};        ///< crossing: +1, −1 or 0
  double sample_dt{1e-3};  ///< crossing of a velocity or aux: the sample step that brackets it [s]
};

/// Throws InvalidArgument naming the field: contact or component out of range, direction not in
/// {−1, 0, 1}, a non-positive sample step or forcing frequency.
void validate(const PoincareSection& s, const model::System& m);

/// A point of the section.
struct SectionPoint {
  bool found{false};
  std::string message;  ///< why not found
  double t{0.0};
  StateVector x;  ///< (q, q̇, a) at the crossing (after the event for impact/event)
  std::array<bool, model::kMaxContacts> closed{};  ///< contacts closed there
  std::vector<hybrid::EventRecord> passed;         ///< events from the start to the crossing
};

/// The next crossing after `from` (strictly later than from.t), before t_max.
[[nodiscard]] SectionPoint next_crossing(const model::System& m,
                                         const hybrid::SimulationOptions& options,
                                         const PoincareSection& section,
                                         const hybrid::InitialState& from, double t_max);

/// The next `count` crossings from `from` (each map started at the previous crossing); stops at
/// the first one not found (the last element then says why).
[[nodiscard]] std::vector<SectionPoint> poincare_sequence(const model::System& m,
                                                          const hybrid::SimulationOptions& options,
                                                          const PoincareSection& section,
                                                          const hybrid::InitialState& from,
                                                          int count, double t_max);

}  // namespace clatter::analysis
