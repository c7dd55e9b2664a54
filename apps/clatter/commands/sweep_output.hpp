#pragma once
// The outputs of `clatter sweep`, made from the records of every (grid point, run) in slot order:
//   bifurcation.csv  <parameters>,[initial,][direction,]<observable>  one row per section value
//   summary.csv      <parameters>,[initial,][direction,]distinct,samples,impacts_per_period,
//                    reason,message                                   one row per (point, run)
//   summary.json     the options and the per-(point, run) summary
//   sweep.h5         (--hdf5) the same as arrays over the grid (sweep_hdf5.hpp)
// A parameter's column is its name, except surface.omega, which is "omega" (the seeds' symbol;
// the ω sweep's columns are those of the earlier `clatter sweep --omega`). Numbers with 12
// significant digits in CSV, as before; the HDF5 file holds them exactly.

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::cli {

struct SweepTable {
  std::string scenario;
  std::string description;
  analysis::ParameterSweep sweep;
  std::vector<hybrid::InitialState> initials;
  std::vector<std::string> initial_texts;  ///< how each initial state was given ("scenario", ...)
  std::vector<analysis::SweepRecord> records;  ///< all, in slot order (point·R + run)

  [[nodiscard]] analysis::SweepPlan plan() const {
    return analysis::SweepPlan(sweep.grid, sweep.carry, static_cast<int>(initials.size()));
  }
  /// Column label of axis k.
  [[nodiscard]] std::string label(int k) const;
  /// "error" for a failed run, else the stop reason.
  [[nodiscard]] static std::string reason(const analysis::SweepRecord& r);
  /// The error, or the simulator's message if the run stopped before its end, else "".
  [[nodiscard]] static std::string message(const analysis::SweepRecord& r);
  /// Number of failed records.
  [[nodiscard]] int failed() const;
};

/// Appends x as C's printf("%.12g") writes it (std::to_chars), the precision of the CSV files.
void append_g12(std::string& s, double x);
/// bifurcation.csv: `<parameters>,[initial,][direction,]<observable>`, a row per recorded value,
/// written to `out` in chunks; bifurcation_csv returns the same text.
void write_bifurcation_csv(const SweepTable& t, std::ostream& out);
[[nodiscard]] std::string bifurcation_csv(const SweepTable& t);
[[nodiscard]] std::string summary_csv(const SweepTable& t);
/// `--timings`: `<parameters>,[initial,][direction,]seconds,events,cycle,closed_at,refused`, the
/// CPU time of every value's run (0 for values finished before a resume). Not deterministic.
[[nodiscard]] std::string timings_csv(const SweepTable& t);
/// The options, the files and the per-record summary.
[[nodiscard]] nlohmann::json summary_json(const SweepTable& t, const nlohmann::json& files);

}  // namespace clatter::cli
