#pragma once
// The checkpoint of a long `clatter sweep`: every finished record is appended, as one line, to a
// journal beside the output, <out>/sweep-checkpoint.r<rank>.partial (one per MPI rank). A line
// holds the record exactly (numbers as hexadecimal floats, so a resumed sweep gives the same bytes)
// and ends with a 64-bit FNV-1a hash of itself: a line cut by a crash or a signal fails the check
// and is ignored, so appending is atomic per record. The first line names the sweep (a hash of the
// scenario and of every option that changes the results); `--resume` refuses a journal of another
// sweep. The journals are removed once the final outputs are in place. Records travel between MPI
// ranks in a binary form (sweep_transport.hpp).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"

namespace clatter::cli {

/// 64-bit FNV-1a hash of `s`.
[[nodiscard]] std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ULL);

/// One record as one line (with its hash, without the newline).
[[nodiscard]] std::string encode_record(const analysis::SweepRecord& r);
/// Decodes a line of encode_record; false if it is cut, corrupt, or out of the sweep's range
/// (point ≥ points or run ≥ runs).
bool decode_record(const std::string& line, std::size_t points, int runs,
                   analysis::SweepRecord& out);

class SweepCheckpoint {
 public:
  /// The journals of the sweep with this fingerprint in `dir`.
  SweepCheckpoint(std::filesystem::path dir, std::string fingerprint);
  ~SweepCheckpoint();
  SweepCheckpoint(const SweepCheckpoint&) = delete;
  SweepCheckpoint& operator=(const SweepCheckpoint&) = delete;

  /// The journal files present (any rank).
  [[nodiscard]] std::vector<std::filesystem::path> existing() const;
  /// From here on, scan reads the journals as they are now: not a record appended later (by
  /// this run's ranks, which take chains from any journal's prefix). Call it before any rank
  /// opens its journal.
  void freeze();
  /// Reads every journal (as of freeze(), if called) and passes each record of this sweep to
  /// `each`, the first copy of each (point, run) only, one at a time (none is kept: a resume reads
  /// the journals again rather than hold them). Throws InvalidArgument("--resume", ...) naming a
  /// journal of another sweep.
  void scan(std::size_t points, int runs,
            const std::function<void(const analysis::SweepRecord&)>& each) const;
  /// Opens this rank's journal for appending (writing the header if it is new).
  void open(int rank);
  /// Appends one record to the file (one write(2): in the kernel's hands at once, so it survives
  /// the process) and, at most once a second, to the disk (fdatasync: it survives the machine).
  /// Throws if the write fails.
  void append(const analysis::SweepRecord& r);
  /// Removes every journal (after the final outputs are committed).
  void remove_all();

 private:
  std::filesystem::path dir_;
  std::string header_;
  std::filesystem::path path_;
  int fd_{-1};
  bool frozen_{false};
  std::vector<std::pair<std::filesystem::path, std::uintmax_t>> frozen_sizes_;  // bytes to read
  std::chrono::steady_clock::time_point last_sync_{std::chrono::steady_clock::now()};
};

}  // namespace clatter::cli
