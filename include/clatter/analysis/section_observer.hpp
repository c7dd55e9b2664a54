#pragma once
/// @file
/// The observable of a sweep: a quantity sampled on a Poincaré section after the transient, and
/// the number of impacts. Two sections, both from what the engine reports (nothing is
/// interpolated here):
///  - SectionKind::kApex: the apex of the centre of mass in free flight (ẏ = 0, ÿ < 0;
///    hybrid::Section::kApex, [B] Fig 5.7): a coordinate q_i or a velocity q̇_i there;
///  - SectionKind::kImpact: every impact (hybrid::EventKind::kImpact: a contact's law applied) of
///    one contact or of any: the impact phase φ = Ω t mod 2π (Ω the forcing frequency), a
///    coordinate q_i, a pre-impact velocity q̇_i⁻, or the pre-impact normal relative velocity v_N⁻.
///  - SectionKind::kCrossing: every crossing of a coordinate q_j through c in a direction (+1 up,
///    −1 down, 0 both; hybrid::Section::kCrossing, located by the engine in every phase): a
///    coordinate q_i or a velocity q̇_i there.
/// The impacts counted are the kImpact events after the transient (a plastic closure ending a
/// chatter is not one); per forcing period it is the number of impacts per period.

#include <cstdint>
#include <string>
#include <vector>

#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/model/system.hpp"

namespace clatter::analysis {

enum class SectionKind : std::uint8_t { kApex, kImpact, kCrossing };

[[nodiscard]] const char* to_string(SectionKind k);

/// What is sampled, by name: a coordinate name of the model ("y"), a velocity (its name with the
/// suffix "dot": "ydot"), and on the impact section also "phase" and "v_N".
struct Observable {
  SectionKind section{SectionKind::kApex};
  std::string quantity{"y"};
  int contact{-1};             ///< impact section: only this contact's impacts (−1: any contact)
  std::string crossing{};      ///< crossing section: the name of the coordinate q_j crossing
  double crossing_value{0.0};  ///< crossing section: c [unit of q_j]
  int crossing_direction{0};   ///< crossing section: +1 upward, −1 downward, 0 both
};

/// The quantity resolved against a model.
struct ResolvedObservable {
  SectionKind section{SectionKind::kApex};
  enum class Kind : std::uint8_t { kCoordinate, kVelocity, kPhase, kNormalVelocity } kind{};
  int index{0};  ///< coordinate index for kCoordinate / kVelocity
  int contact{-1};
  int crossing_index{-1};  ///< crossing section: the index j of the crossing coordinate
  double crossing_value{0.0};
  int crossing_direction{0};
};

/// The engine's section for an observable (Section::kNone for the impact section, which comes
/// from the events), with the crossing's coordinate, value and direction.
void set_engine_section(const ResolvedObservable& what, hybrid::SimulationOptions& options);

/// Throws InvalidArgument naming `field` (e.g. "observe") and listing the allowed names if the
/// quantity is unknown for the model and section, or the contact index out of range.
[[nodiscard]] ResolvedObservable resolve(const Observable& o, const model::System& model,
                                         const char* field);

/// The column name of an observable: "<quantity>_<section>" ("y_apex", "phase_impact",
/// "thetadot_crossing").
[[nodiscard]] std::string column_name(const Observable& o);

/// A recorder keeping the observable's values and counting impacts from t_record on. It stops
/// the run (StopReason::kCancelled) when `keep_going` (may be null) returns false.
class SectionObserver final : public hybrid::Recorder {
 public:
  SectionObserver(const ResolvedObservable& what, double t_record, double omega,
                  bool (*keep)(const void*), const void* context)
      : what_(what), t_record_(t_record), omega_(omega), keep_(keep), context_(context) {}

  void on_section(const hybrid::Sample& s) override;
  void on_event(const hybrid::EventRecord& e) override;
  bool keep_going() override { return keep_ == nullptr || keep_(context_); }

  std::vector<double> values;
  long impacts{0};

 private:
  ResolvedObservable what_;
  double t_record_;
  double omega_;
  bool (*keep_)(const void*);
  const void* context_;
};

}  // namespace clatter::analysis
