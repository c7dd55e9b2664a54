#pragma once
/// @file
/// The files of a parameter sweep (analysis/parameter_sweep.hpp), for every front end (`clatter
/// sweep`, Python's sweep_parameters with out=), written while the sweep runs:
/// @verbatim
///   bifurcation.csv  <parameters>,[initial,][direction,]<observable>   one row per section value
///   summary.csv      <parameters>,[initial,][direction,]distinct,samples,impacts_per_period,
///                    reason,message                                    one row per (point, run)
///   summary.json     the options, the per-(point, run) summary ("points"), "failed" and "files"
///   timings          <parameters>,[initial,][direction,]seconds,events,cycle,closed_at,refused
///                    (optional; the CPU time of every value, not deterministic)
/// @endverbatim
/// A parameter's column is its name, except surface.omega, which is "omega" (the seeds' symbol).
/// Numbers have 12 significant digits (C's %.12g). "initial" is the index of the run's initial
/// state (when there are several), "direction" up or down (carry-over both). reason is the
/// engine's stop reason, or "error" for a failed value, whose message says why; message is empty
/// for a run that reached its end.
///
/// Records arrive in any order (threads, MPI ranks): the writer writes each one as soon as every
/// slot before it (point·R + run) is written, and holds only those that arrive early: its memory
/// is that of the records running ahead of the earliest unfinished one, not of the grid.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// What the files say about the sweep besides its records.
struct SweepTable {
  std::string scenario;  ///< the scenario's name ("" for a model without one)
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
  /// The error, or the engine's message if the run stopped before its end, else "".
  [[nodiscard]] static std::string message(const analysis::SweepRecord& r);
};

/// The files' final paths, as summary.json names them (empty: not written).
struct SweepPaths {
  std::filesystem::path data;     ///< bifurcation.csv
  std::filesystem::path summary;  ///< summary.csv
  std::filesystem::path hdf5;     ///< sweep.h5 (the CLI's --hdf5)
  std::filesystem::path plot;     ///< bifurcation.png (drawn by the front end)
};

/// Where the writer writes (timings may be null).
struct SweepStreams {
  std::ostream* data{nullptr};
  std::ostream* summary{nullptr};
  std::ostream* json{nullptr};
  std::ostream* timings{nullptr};
};

class SweepWriter {
 public:
  /// Writes the files' heads. `also` is called with every record in slot order, as it is written
  /// (the CLI's HDF5 file).
  SweepWriter(SweepTable table, const SweepPaths& paths, const SweepStreams& streams,
              std::function<void(const analysis::SweepRecord&)> also = {});

  /// Takes a record of any slot not given before (in any order); writes it and every waiting
  /// record after it once all slots before it are written. Throws std::logic_error for a slot
  /// given twice.
  void add(const analysis::SweepRecord& r);
  /// Whether every slot has been written.
  [[nodiscard]] bool complete() const { return next_ == plan_.records(); }
  /// Slots written so far.
  [[nodiscard]] std::size_t written() const { return next_; }
  /// Records that arrived ahead of an unfinished slot, held until it arrives.
  [[nodiscard]] std::size_t waiting() const { return waiting_.size(); }
  /// Failed records written so far.
  [[nodiscard]] int failed() const { return failed_; }
  [[nodiscard]] const SweepTable& table() const { return t_; }
  /// Passes on the last rows and ends summary.json. @pre complete().
  void finish();

 private:
  void write(const analysis::SweepRecord& r);
  void flush_data();

  SweepTable t_;
  analysis::SweepPlan plan_;
  SweepPaths paths_;
  SweepStreams out_;
  std::function<void(const analysis::SweepRecord&)> also_;
  std::string chunk_;  ///< bifurcation.csv rows not yet passed on
  std::size_t next_{0};
  int failed_{0};
  std::map<std::size_t, analysis::SweepRecord> waiting_;
};

/// The figure bifurcation.png: python/clatter_plots/sweep.py drawing bifurcation.csv and
/// summary.csv (or sweep.h5 when `from_hdf5`), titled `title`.
[[nodiscard]] PlotCall sweep_plot(const SweepPaths& paths, bool from_hdf5,
                                  const std::string& title);

}  // namespace clatter::app
