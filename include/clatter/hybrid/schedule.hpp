#pragma once
/// @file
/// A run with parameters that change at given times (a friction coefficient that jumps, a belt
/// that starts): the run is split at the change times; each segment is an ordinary run of the
/// model with its parameters at that time (model::System::with_parameter), started from the end
/// state of the previous one. At a change the contact modes are decided anew from the state
/// (closed contacts at zero gap and zero normal velocity stay closed and stick or slide by the
/// new friction; a sliding contact that is jammed under the new parameters is a Painlevé
/// situation, handled by SimulationOptions::painleve). A predicted chatter does not carry over.
///
/// The recorder receives every segment's samples and events, and an event of kind
/// kParameterChange at each change. The result merges the segments: counts add up; the ledger
/// starts from the first segment's energy, adds every segment's work and losses, and books the
/// energy change of the state caused by a parameter change itself (a stiffer spring) as a reset.

#include <string>
#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {

struct ParameterChange {
  double t{0.0};     ///< time of the change [s]
  std::string name;  ///< a parameter of the model (model::System::parameters)
  double value{0.0};
};

/// Throws InvalidArgument for an unknown parameter, a bad value, or change times outside
/// [init.t, options.t_end] or not in increasing order.
[[nodiscard]] SimulationResult simulate_scheduled(const model::System& model,
                                                  const InitialState& init,
                                                  const SimulationOptions& options,
                                                  const std::vector<ParameterChange>& schedule,
                                                  Recorder* recorder = nullptr);

}  // namespace clatter::hybrid
