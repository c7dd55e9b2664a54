#pragma once
/// @file
/// Expected outcomes of the multi-point impact solver ([R] = Rodriguez, PhD thesis 2014,
/// spec/004_multibody.md). Misuse (bad input) throws InvalidArgument instead; these values report
/// what the algorithm met. An event or a collision keeps the first non-ok status it meets.

#include <cstdint>

#include "clatter/core/enum_names.hpp"

namespace clatter::multipoint {

enum class Status : std::uint8_t {
  kOk,  ///< every check passed
  /// the kinetic energy after an event exceeds the energy before it by more than round-off
  /// (the thesis's (4.7) work is not the kinetic-energy change, so this can happen; it is reported,
  /// never hidden)
  kEnergyGain,
  /// a normal-impulse increment would have to be negative (a pulling contact) to satisfy the
  /// rigid-body constraints in the current slip states; the result is what the constraints
  /// prescribe
  kPullingContact,
  /// no slip-state assignment gives a solvable system of impulse rates (e.g. every point of the
  /// planar ball sticking under the thesis constraint, or a flat block with both corners stuck)
  kSingularRates,
  /// the end of the event (W_N = W_Nf on the latest parabola) is not reachable: concave or
  /// degenerate normal-work curve, or the integration step budget ran out
  kNoTermination,
  /// the active contacts are not linked by rigid-body constraints, so the ratios between their
  /// normal impulses are undefined
  kDisconnected,
  /// the collision reached the event cap while a contact was still approaching
  kMaxEvents,
};

[[nodiscard]] const char* to_string(Status s);

}  // namespace clatter::multipoint

namespace clatter {
template <>
struct EnumNames<multipoint::Status> {
  static constexpr std::array<const char*, 7> names{
      "ok",           "energy_gain", "pulling_contact", "singular_rates", "no_termination",
      "disconnected", "max_events"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() == static_cast<std::size_t>(multipoint::Status::kMaxEvents) + 1);
};
}  // namespace clatter
