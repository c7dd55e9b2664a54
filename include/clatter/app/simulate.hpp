#pragma once
/// @file
/// A simulation as one operation for every front end (`clatter simulate SCENARIO`, Python's
/// simulate): the request with its defaults, the options the run uses, and the files it writes:
/// @verbatim
///   timeseries.csv  samples every output_dt (precision significant digits): t, q, q̇ ("<name>dot"),
///                   aux, energy, for planar bodies the surface height and belt velocity
///                   (surface_h, surface_u), and per contact (planar: its point <c>_x, <c>_y) its
///                   gap <c>_gap and mode <c>_mode
///   events.csv      every event (17 digits): t, kind, contact, other, mode_after, region,
///                   brach_case (empty when not applicable), status, v_T/v_N before and after, Λ,
///                   ΔE of the law, energy after, t_accumulation (closures), q, q̇⁻, q̇⁺
///   summary.json    why the run stopped, the state then, integrators, counts, the energy ledger
///                   and its balance, constraint drift, wall time, the largest energy change of a
///                   collision, the first symmetric event, files
/// @endverbatim
/// Samples and events are written as the run goes (SimulationWriter), so memory does not grow
/// with t_end.

#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::app {

/// The options of `clatter simulate` over the scenario's, with their defaults.
struct SimulateRequest {
  std::optional<double> t_end;       ///< [s]; the scenario's if empty
  std::optional<double> output_dt;   ///< [s]; 0: (t_end − t₀)/2000; the scenario's if empty
  std::optional<double> wall_limit;  ///< [s] of wall-clock time: simulation.max_wall_time
  int precision{10};                 ///< significant digits of timeseries.csv, in [1, 17]
};

/// The options of the run: `base` (the scenario's) with the request's t_end, output_dt and wall
/// limit, output_dt = 0 → (t_end − t₀)/2000 samples, and the chatter horizon the sample step
/// unless the scenario gave it (the bounces of a chatter longer than a sample step are
/// simulated, so that the files and the plot show the motion before its accumulation point).
/// Throws InvalidArgument naming "t_end", "output_dt", "wall_limit", "precision" or the engine's
/// option (hybrid::validate).
[[nodiscard]] hybrid::SimulationOptions simulation_options(const hybrid::SimulationOptions& base,
                                                           double t0, bool chatter_horizon_given,
                                                           const SimulateRequest& request);

/// Thrown by SimulationWriter when a sample is not finite (never written as a result).
struct NonFiniteSample {
  double t;
};

/// Writes samples and events as the run goes (the headers at construction) and keeps the counts
/// the summary needs.
class SimulationWriter final : public hybrid::Recorder {
 public:
  SimulationWriter(const model::System& model, std::ostream& timeseries, std::ostream& events,
                   int precision);
  void on_sample(const hybrid::Sample& s) override;
  void on_event(const hybrid::EventRecord& e) override;

  [[nodiscard]] double last_t() const { return last_t_; }
  [[nodiscard]] long samples() const { return samples_; }
  [[nodiscard]] long events() const { return events_; }
  [[nodiscard]] const std::map<std::string, long>& by_kind() const { return by_kind_; }
  /// the largest energy change of one collision (the impacts of one instant summed) [J]
  [[nodiscard]] double max_gain() const { return max_gain_; }
  [[nodiscard]] double first_symmetric() const { return first_symmetric_; }

 private:
  const model::System& m_;
  std::ostream& ts_;
  std::ostream& ev_;
  const model::PlanarBodyModel* planar_;  ///< the planar body's extra columns, or null
  double last_t_{0.0};
  long samples_{0}, events_{0};
  std::map<std::string, long> by_kind_;
  double max_gain_{-std::numeric_limits<double>::infinity()};
  double instant_gain_{0.0};
  double instant_t_{std::numeric_limits<double>::quiet_NaN()};
  double first_symmetric_{std::numeric_limits<double>::quiet_NaN()};
};

/// What summary.json names the run by (a scenario's name, description and model kind).
struct RunLabel {
  std::string name;
  std::string description;
  std::string kind;
};

/// summary.json's text: the result, or for a run stopped by a non-finite sample at
/// `non_finite_t` the reason non_finite and no final state; "files" lists timeseries.csv,
/// events.csv, summary.json in `folder` and plot.png if `plot` (else null).
[[nodiscard]] std::string simulation_summary(const model::System& model, const RunLabel& label,
                                             const hybrid::SimulationOptions& options,
                                             const hybrid::SimulationResult& result,
                                             const SimulationWriter& writer, double wall_time,
                                             std::optional<double> non_finite_t,
                                             const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
