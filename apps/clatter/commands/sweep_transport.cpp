#include "commands/sweep_transport.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

namespace clatter::cli {

namespace {

template <class T>
void put(std::string& s, T x) {
  char b[sizeof(T)];
  std::memcpy(b, &x, sizeof(T));
  s.append(b, sizeof(T));
}

template <class T>
bool get(const char*& p, const char* end, T& x) {
  if (end - p < static_cast<std::ptrdiff_t>(sizeof(T))) return false;
  std::memcpy(&x, p, sizeof(T));
  p += sizeof(T);
  return true;
}

// a count n ≥ 0 of items of `size` bytes that follow it within [p, end), and at most `limit`
bool get_count(const char*& p, const char* end, std::int64_t size, std::int64_t limit,
               std::int64_t& n) {
  return get(p, end, n) && n >= 0 && n <= limit && n <= (end - p) / size;
}

void put_doubles(std::string& s, const double* x, std::int64_t n) {
  put(s, n);
  if (n > 0)
    s.append(reinterpret_cast<const char*>(x), static_cast<std::size_t>(n) * sizeof(double));
}

template <class Vec>
bool get_vec(const char*& p, const char* end, Vec& v) {
  std::int64_t n = 0;
  if (!get_count(p, end, 8, 64, n)) return false;
  v.resize(static_cast<Eigen::Index>(n));
  if (n > 0) std::memcpy(v.data(), p, static_cast<std::size_t>(n) * sizeof(double));
  p += n * 8;
  return true;
}

bool get_text(const char*& p, const char* end, std::string& t) {
  std::int64_t n = 0;
  if (!get_count(p, end, 1, std::numeric_limits<std::int64_t>::max(), n)) return false;
  t.assign(p, static_cast<std::size_t>(n));
  p += n;
  return true;
}

}  // namespace

void pack_record(const analysis::SweepRecord& r, std::string& out) {
  for (const std::int64_t x :
       {static_cast<std::int64_t>(r.point), static_cast<std::int64_t>(r.run),
        static_cast<std::int64_t>(r.reason), static_cast<std::int64_t>(r.distinct),
        static_cast<std::int64_t>(r.impacts), static_cast<std::int64_t>(r.events),
        static_cast<std::int64_t>(r.rk_steps), static_cast<std::int64_t>(r.cycle),
        static_cast<std::int64_t>(r.closed_at), static_cast<std::int64_t>(r.refused)})
    put(out, x);
  put(out, r.impacts_per_period);
  put(out, r.seconds);
  put(out, r.t);
  put_doubles(out, r.q.data(), r.q.size());
  put_doubles(out, r.qd.data(), r.qd.size());
  put_doubles(out, r.aux.data(), r.aux.size());
  put_doubles(out, r.values.data(), static_cast<std::int64_t>(r.values.size()));
  put(out, static_cast<std::int64_t>(r.message.size()));
  out += r.message;
  put(out, static_cast<std::int64_t>(r.error.size()));
  out += r.error;
}

bool unpack_record(const char*& p, const char* end, std::size_t points, int runs,
                   analysis::SweepRecord& r) {
  std::int64_t i[10];
  for (std::int64_t& x : i)
    if (!get(p, end, x)) return false;
  if (i[0] < 0 || static_cast<std::uint64_t>(i[0]) >= points || i[1] < 0 || i[1] >= runs ||
      i[2] < 0 || i[2] >= hybrid::kNumStopReasons)
    return false;
  r.point = static_cast<std::size_t>(i[0]);
  r.run = static_cast<int>(i[1]);
  r.reason = static_cast<hybrid::StopReason>(i[2]);
  r.distinct = static_cast<int>(i[3]);
  r.impacts = static_cast<long>(i[4]);
  r.events = static_cast<long>(i[5]);
  r.rk_steps = static_cast<long>(i[6]);
  r.cycle = static_cast<int>(i[7]);
  r.closed_at = static_cast<long>(i[8]);
  r.refused = static_cast<int>(i[9]);
  if (!get(p, end, r.impacts_per_period) || !get(p, end, r.seconds) || !get(p, end, r.t) ||
      !get_vec(p, end, r.q) || !get_vec(p, end, r.qd) || !get_vec(p, end, r.aux))
    return false;
  std::int64_t n = 0;
  if (!get_count(p, end, 8, std::numeric_limits<std::int64_t>::max(), n)) return false;
  r.values.resize(static_cast<std::size_t>(n));
  if (n > 0) std::memcpy(r.values.data(), p, static_cast<std::size_t>(n) * sizeof(double));
  p += n * 8;
  return get_text(p, end, r.message) && get_text(p, end, r.error);
}

}  // namespace clatter::cli
