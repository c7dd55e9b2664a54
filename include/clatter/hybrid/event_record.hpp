#pragma once
/// @file
/// What a simulation records: samples at a fixed output step and every event.

#include <cstdint>

#include "clatter/core/types.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter::hybrid {

enum class EventKind : std::uint8_t {
  kImpact,        ///< a contact's impact law applied (v⁻ → v⁺)
  kClosure,       ///< contact closed at zero normal velocity (plastic impact: V_tol cut-off, a
                  ///< graze, or the first impact of a predicted chatter)
  kChatterEnd,    ///< the predicted accumulation point of a complete chatter was reached
  kLiftOff,       ///< λ_N fell to 0: the contact opens
  kStick,         ///< a sliding contact came to rest and sticks (|λ_T| ≤ μ λ_N)
  kSlipReversal,  ///< a sliding contact came to rest and slides the other way
  kSlipOnset,     ///< a sticking contact starts to slide (|λ_T| reached μ λ_N)
  kSymmetric,     ///< two-contact symmetric reduction: body levelled, spin stopped
  kPainleve,      ///< a sliding contact with k_N ≤ 0 (Painlevé): the run stops, or (policy
                  ///< kImpactWithoutCollision) the next event resolves it
  kImpactWithoutCollision,  ///< Painlevé resolved: Stronge's law from v⁻ = (v_T, 0)
  kParameterChange,         ///< a scheduled parameter change (hybrid/schedule.hpp)
};

[[nodiscard]] const char* to_string(EventKind k);

struct EventRecord {
  double t{0.0};
  EventKind kind{EventKind::kImpact};
  int contact{-1};
  int other{-1};  ///< second contact of a symmetric (pair) impact, or −1
  ContactMode mode_after{ContactMode::kOpen};
  int region{-1};      ///< Stronge region of an impact (−1 if not Stronge)
  int brach_case{-1};  ///< Brach case of an impact
  Status status{Status::kOk};
  VecQ q{};                    ///< configuration at the event
  VecQ qd_pre{};               ///< generalized velocity before
  VecQ qd_post{};              ///< and after
  VecA aux{};                  ///< auxiliary states at the event
  Modes modes{};               ///< every contact's mode once the event is processed
  Vec2 v_pre{0.0, 0.0};        ///< relative contact velocity before [m/s]
  Vec2 v_post{0.0, 0.0};       ///< and after
  Vec2 Lambda{0.0, 0.0};       ///< impulse (T, N) [N·s]
  double delta_energy{0.0};    ///< kinetic-energy change of the law ΔE = ½Λ·(v⁻ + v⁺) [J]
  double energy{0.0};          ///< total mechanical energy T + V after the event [J]
  double t_accumulation{0.0};  ///< kClosure after a chatter prediction: predicted end [s]
};

struct Sample {
  double t{0.0};
  VecQ q{};
  VecQ qd{};
  VecA aux{};  ///< auxiliary states (empty for most models)
  Modes modes{};
  double energy{0.0};  ///< T + V [J]
};

/// Receives samples and events during a run (the library never prints or writes files itself).
class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual void on_sample(const Sample& /*sample*/) {}
  virtual void on_event(const EventRecord& /*event*/) {}
  /// A crossing of the Poincaré section chosen in SimulationOptions::section.
  virtual void on_section(const Sample& /*sample*/) {}
  /// Polled between phases of the run: false stops it (StopReason::kCancelled), e.g. on SIGINT.
  virtual bool keep_going() { return true; }
};

}  // namespace clatter::hybrid
