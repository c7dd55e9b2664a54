#pragma once
// The HDF5 output of `clatter sweep --hdf5` (built when CMake finds HDF5: CLATTER_HAVE_HDF5).
// Laid out for h5py and xarray (engine "h5netcdf"): one dataset per quantity over the grid, the
// grid coordinates as HDF5 dimension scales attached to every dataset:
//   /<param>            (n_k)                     axis k's values (e.g. "surface.omega")
//   /run                (R)                        run index; /run_initial, /run_direction (R)
//   /sample             (S)                        index of a section value (S: the most values)
//   /<observable>       (n_0[, n_1], R, S) float64 the section values, NaN-padded ("y_apex")
//   /samples, /distinct (n_0[, n_1], R)    int32   values recorded, distinct values (−1: > 64)
//   /impacts_per_period (n_0[, n_1], R)    float64
//   /reason             (n_0[, n_1], R)    int8    stop reason (flag_values / flag_meanings; −1:
//                                                  the run failed, see /error)
//   /events, /rk_steps  (n_0[, n_1], R)    int64
//   /error              (n_0[, n_1], R)    string  why a run failed ("" if it did not)
// Attributes of the file: scenario, observable, carry_over, transient_periods, record_periods.
// Object times are not stored, so the file's bytes depend only on its content.
//
// Written while the sweep runs, in slot order, a block of whole rows of axis 0 at a time (about
// 1 024 records or 4 MB of values): the values' sample dimension is chunked and grows as records
// with more values arrive, so that nothing of the grid's size is held.

#include <filesystem>
#include <memory>

#include "commands/sweep_output.hpp"

namespace clatter::cli {

/// True when built with HDF5.
[[nodiscard]] bool hdf5_available();

class SweepHdf5 {
 public:
  /// Creates the file at `path` (a temporary of an OutputSet) with its coordinates. Throws
  /// std::runtime_error on failure or when built without HDF5.
  SweepHdf5(const std::filesystem::path& path, const SweepTable& t);
  ~SweepHdf5();
  SweepHdf5(const SweepHdf5&) = delete;
  SweepHdf5& operator=(const SweepHdf5&) = delete;

  /// The record of the next slot.
  void add(const analysis::SweepRecord& r);
  /// Writes what is left and the attributes, and closes the file. @pre every slot was added.
  void finish();

 private:
  struct File;
  std::unique_ptr<File> f_;
};

}  // namespace clatter::cli
