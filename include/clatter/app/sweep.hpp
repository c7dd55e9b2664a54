#pragma once
/// @file
/// A brute-force sweep over one or two named parameters (analysis/parameter_sweep.hpp), posed as
/// one operation for every front end (`clatter sweep`, Python's sweep_parameters): the request
/// with its defaults, its checks and the sweep it builds. Running it is analysis::run_sweep (the
/// CLI adds MPI ranks, a checkpoint and HDF5 around it); its files are app/sweep_files.hpp's.

#include <optional>
#include <string>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/model/system.hpp"

namespace clatter::app {

/// The crossing section: coordinate `name` crossing `value`, direction +1 (up), −1 (down) or 0.
struct CrossingRequest {
  std::string name;
  double value{0.0};
  int direction{0};
};

/// The options of `clatter sweep`, with their defaults (the CLI's --omega is the axis
/// surface.omega; its --continuation is carry_over "up").
struct SweepRequest {
  std::vector<analysis::GridAxis> axes;     ///< one or two named parameters, each on n values
  std::string carry_over{"none"};           ///< none, up, down or both (along the first axis)
  std::string section{"apex"};              ///< apex, impact, strobe or crossing
  std::optional<CrossingRequest> crossing;  ///< the crossing section's
  std::string observe;                      ///< "": phase on the impact section, else y
  int contact{-1};                          ///< impact section: this contact only (−1: any)
  /// initial states over the start (empty: the start alone), and how each was given
  std::vector<hybrid::InitialState> initials;
  std::vector<std::string> initial_texts;
  double transient_periods{1000.0};    ///< discarded, in units of the clock, ≥ 0
  double record_periods{200.0};        ///< recorded, in units of the clock, > 0
  std::string clock{"periods"};        ///< periods, time, impacts[:CONTACT] or crossings
  std::optional<double> max_time;      ///< event clocks: a value's bound [s] (default t_end − t0)
  std::optional<double> periodic_tol;  ///< the periodic shortcut, in [0, 1e-3]; none: the clock's
  bool periodic_check{true};           ///< the shortcut's stability check
  std::string period_parameter{"surface.omega"};  ///< the forcing frequency's parameter
  int threads{2};                                 ///< in [1, 256]
};

/// The sweep a request builds, with its initial states and how each was given ("scenario" for
/// the start).
struct SweepSetup {
  analysis::ParameterSweep sweep;
  std::vector<hybrid::InitialState> initials;
  std::vector<std::string> initial_texts;
};

/// Checks the request against the model, its start and its simulation options (InvalidArgument
/// naming "params", "carry_over", "section", "crossing", "observe", "transient_periods",
/// "record_periods", "clock", "max_time", "periodic_tol", "periodic_check", "initial",
/// "threads", or a simulation option) and builds the sweep. `kind` names the model in messages.
[[nodiscard]] SweepSetup make_sweep(const model::System& model, const std::string& kind,
                                    const hybrid::InitialState& start,
                                    const hybrid::SimulationOptions& options,
                                    const SweepRequest& request);

}  // namespace clatter::app
