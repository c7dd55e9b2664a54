#pragma once
// The outputs of `clatter sweep`, written while the sweep runs, record by record in slot order
// (point·R + run):
//   bifurcation.csv  <parameters>,[initial,][direction,]<observable>  one row per section value
//   summary.csv      <parameters>,[initial,][direction,]distinct,samples,impacts_per_period,
//                    reason,message                                   one row per (point, run)
//   summary.json     the options and the per-(point, run) summary ("points"), then "failed"
//   sweep.h5         (--hdf5) the same as arrays over the grid (sweep_hdf5.hpp)
//   --timings FILE   the CPU time of every value (not deterministic)
// A parameter's column is its name, except surface.omega, which is "omega" (the seeds' symbol;
// the ω sweep's columns are those of the earlier `clatter sweep --omega`). Numbers with 12
// significant digits in CSV, as before; the HDF5 file holds them exactly.
//
// Records arrive in any order (threads, MPI ranks): SweepOutput writes each one as soon as every
// slot before it is written, and holds only those that arrive early. Its memory is therefore that
// of the records running ahead of the earliest unfinished one (about threads × ranks chains), not
// of the grid. The files are the temporaries of an OutputSet: they replace an earlier output only
// when the caller commits the set, after finish().

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "commands/output_set.hpp"

namespace clatter::cli {

class SweepHdf5;

/// What the outputs say about the sweep besides its records.
struct SweepTable {
  std::string scenario;
  std::string description;
  analysis::ParameterSweep sweep;
  std::vector<hybrid::InitialState> initials;
  std::vector<std::string> initial_texts;  ///< how each initial state was given ("scenario", ...)

  [[nodiscard]] analysis::SweepPlan plan() const {
    return analysis::SweepPlan(sweep.grid, sweep.carry, static_cast<int>(initials.size()));
  }
  /// Column label of axis k.
  [[nodiscard]] std::string label(int k) const;
  /// "error" for a failed run, else the stop reason.
  [[nodiscard]] static std::string reason(const analysis::SweepRecord& r);
  /// The error, or the simulator's message if the run stopped before its end, else "".
  [[nodiscard]] static std::string message(const analysis::SweepRecord& r);
};

/// The output files of one sweep (empty paths: not written).
struct SweepFiles {
  std::filesystem::path data;     ///< bifurcation.csv
  std::filesystem::path summary;  ///< summary.csv
  std::filesystem::path json;     ///< summary.json
  std::filesystem::path hdf5;     ///< sweep.h5 (--hdf5)
  std::filesystem::path timings;  ///< --timings
  std::filesystem::path plot;     ///< bifurcation.png (named in summary.json; drawn by the caller)
};

class SweepOutput {
 public:
  /// Opens the temporaries of `files` in `out` and writes their heads. Throws std::runtime_error
  /// if HDF5 is asked for and this clatter was built without it.
  SweepOutput(SweepTable table, const SweepFiles& files, OutputSet& out);
  ~SweepOutput();
  SweepOutput(const SweepOutput&) = delete;
  SweepOutput& operator=(const SweepOutput&) = delete;

  /// Takes a record of any slot not given before (in any order); writes it and every waiting
  /// record after it once all slots before it are written.
  void add(const analysis::SweepRecord& r);
  /// Whether every slot has been written.
  [[nodiscard]] bool complete() const { return next_ == plan_.records(); }
  /// Slots written so far.
  [[nodiscard]] std::size_t written() const { return next_; }
  /// Records that arrived ahead of an unfinished slot, held until it arrives.
  [[nodiscard]] std::size_t waiting() const { return waiting_.size(); }
  /// Failed records written so far.
  [[nodiscard]] int failed() const { return failed_; }
  /// Ends summary.json and sweep.h5 and closes the streams (OutputSet::close). @pre complete().
  void finish();

 private:
  void write(const analysis::SweepRecord& r);
  void flush_data();

  SweepTable t_;
  analysis::SweepPlan plan_;
  SweepFiles files_;
  OutputSet& out_;
  std::ofstream* data_{nullptr};
  std::ofstream* summary_{nullptr};
  std::ofstream* json_{nullptr};
  std::ofstream* timings_{nullptr};
  std::unique_ptr<SweepHdf5> hdf5_;
  std::string chunk_;  ///< bifurcation.csv rows not yet passed on
  std::size_t next_{0};
  int failed_{0};
  std::map<std::size_t, analysis::SweepRecord> waiting_;
};

}  // namespace clatter::cli
