#pragma once
// A progress bar with an estimate of the time left, drawn on stderr only when it is a terminal
// (at most 5 times a second; a final newline when done), or on any stderr when asked. Fed by the
// sweep's record callback.

#include <chrono>
#include <cstddef>
#include <string>

namespace clatter::cli {

class ProgressBar {
 public:
  /// `what`: the unit counted ("values"); `already_done`: finished before this run (resumed, not
  /// in the estimate); `enabled` false draws nothing, nor does a stderr that is not a terminal
  /// unless `always` (e.g. under mpirun, whose ranks write to a pipe).
  ProgressBar(std::string what, std::size_t already_done, bool enabled, bool always = false);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// `done` of `total` (already_done included).
  void update(std::size_t done, std::size_t total);
  /// Ends the line.
  void finish();

 private:
  std::string what_;
  bool enabled_;
  bool drawn_{false};
  std::size_t done_at_start_{0};
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

/// "1h02m", "3m05s", "12s".
[[nodiscard]] std::string format_duration(double seconds);

}  // namespace clatter::cli
