#pragma once
// The outputs of `clatter sweep`, written while the sweep runs: the library's files
// (app/sweep_files.hpp: bifurcation.csv, summary.csv, summary.json, --timings FILE) and, with
// --hdf5, sweep.h5 (sweep_hdf5.hpp), each the temporary of an OutputSet: they replace an earlier
// output only when the caller commits the set, after finish().

#include <cstddef>
#include <filesystem>
#include <memory>

#include "clatter/app/sweep_files.hpp"
#include "commands/output_set.hpp"

namespace clatter::cli {

class SweepHdf5;
using app::SweepTable;

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

  /// Takes a record of any slot not given before, in any order (app::SweepWriter::add).
  void add(const analysis::SweepRecord& r) { writer_->add(r); }
  [[nodiscard]] bool complete() const { return writer_->complete(); }
  [[nodiscard]] std::size_t written() const { return writer_->written(); }
  [[nodiscard]] std::size_t waiting() const { return writer_->waiting(); }
  [[nodiscard]] int failed() const { return writer_->failed(); }
  /// Ends summary.json and sweep.h5 and closes the streams (OutputSet::close). @pre complete().
  void finish();

 private:
  OutputSet& out_;
  std::unique_ptr<SweepHdf5> hdf5_;
  std::unique_ptr<app::SweepWriter> writer_;
};

}  // namespace clatter::cli
