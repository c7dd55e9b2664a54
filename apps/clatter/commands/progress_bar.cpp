#include "commands/progress_bar.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace clatter::cli {

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  else if (s >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", s);
  return buf;
}

ProgressBar::ProgressBar(std::string what, std::size_t already_done, bool enabled, bool always)
    : what_(std::move(what)),
      enabled_(enabled && (always || ::isatty(STDERR_FILENO) == 1)),
      done_at_start_(already_done),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::size_t ran = done > done_at_start_ ? done - done_at_start_ : 0;
  const double left =
      ran > 0 ? elapsed / static_cast<double>(ran) * static_cast<double>(total - done) : NAN;
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r[%s] %zu/%zu %s  %s elapsed  ETA %s   ", bar.c_str(), done, total,
               what_.c_str(), format_duration(elapsed).c_str(),
               done >= total ? "0s" : format_duration(left).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace clatter::cli
