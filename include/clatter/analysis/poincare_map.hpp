#pragma once
/// @file
/// Poincaré sections and maps of any model, computed by the engine itself: x ↦ the state at the
/// next crossing of the section, with every event passed on the way.
/// @verbatim
///   impact      the next impact (EventKind::kImpact) of a named contact (or of any): x⁺ after it
///   event       the next event of a given kind (stick, slip onset, lift-off, …) of a contact
///   phase       the next time with ω t ≡ φ_s (mod 2π): the stroboscopic map
///   crossing    the next time the component x_i − c changes sign in the given direction
///               (+1 rising, −1 falling, 0 both), found on each step's segment
///               (hybrid/segment_sections.hpp). A coordinate (i < nq): every crossing, also a
///               pair between two samples, by the guaranteed search in closed-form segments and
///               on the Runge–Kutta interpolant with its slope q̇_i; a velocity or an auxiliary
///               state: the segment sampled every sample_dt (and at the event search's samples)
///               and each sign change refined on the interpolant by TOMS 748 (to a few ulps)
/// @endverbatim
/// The map steps one hybrid::Data (step.hpp): a crossing is located once on the step that
/// contains it, never by running the engine again, and a sequence of crossings is one run — no
/// leg restarts from a section point (whose recorded contact modes may be those before the
/// event). Every map is bounded by t_max (no crossing before it: `found` is false, the reason
/// given), and by the engine's own guards.

#include <string>
#include <vector>

#include "clatter/analysis/state_space.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/step.hpp"

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

/// Crossings of a section one after another along one run from `from` (the stepping API).
class PoincareWalker {
 public:
  /// @pre validate(section, m); t_max > from.t. `options.t_end` is replaced by t_max.
  PoincareWalker(const model::System& m, const hybrid::SimulationOptions& options,
                 const PoincareSection& section, const hybrid::InitialState& from, double t_max);
  /// The next crossing strictly after `after` (the start, or the last crossing); its `passed`
  /// holds the events since the last crossing returned. Not found: the run ended (why in
  /// `message`); every later call says the same.
  [[nodiscard]] SectionPoint next(double after);
  /// The run's Data (the state where the last step left it).
  [[nodiscard]] const hybrid::Data& data() const { return data_; }

 private:
  void take_step();
  void queue(SectionPoint p);

  const model::System& m_;
  hybrid::SimulationOptions options_;
  PoincareSection section_;
  double t_max_;
  hybrid::Data data_;
  std::vector<SectionPoint> ready_;  ///< crossings found on the last step, in time order
  std::size_t next_ready_{0};
  std::vector<hybrid::EventRecord> pending_;  ///< events since the last crossing queued
  double phase_time_{0.0};                    ///< phase: the next section time
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
