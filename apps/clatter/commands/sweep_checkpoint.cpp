#include "commands/sweep_checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "clatter/core/error.hpp"
#include "clatter/io/output_target.hpp"

namespace clatter::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "clatter-sweep-checkpoint-2";  // 2: with `refused`
constexpr const char* kPrefix = "sweep-checkpoint.r";
constexpr const char* kSuffix = ".partial";

// a double as a hexadecimal float ("0x1.8p+1", "-0x0p+0"; C's %a for normal numbers), "inf" or
// "nan": exact, read back by strtod (which also reads the %a of earlier journals)
void put_double(std::string& s, double x) {
  char buf[48];
  char* p = buf;
  *p++ = ' ';
  if (std::isfinite(x)) {
    if (std::signbit(x)) *p++ = '-';
    *p++ = '0';
    *p++ = 'x';
    p = std::to_chars(p, buf + sizeof buf, std::abs(x), std::chars_format::hex).ptr;
  } else {
    p = std::to_chars(p, buf + sizeof buf, x).ptr;
  }
  s.append(buf, p);
}

void put_int(std::string& s, long long x) {
  char buf[24];
  buf[0] = ' ';
  s.append(buf, std::to_chars(buf + 1, buf + sizeof buf, x).ptr);
}

// percent-encoding of everything but printable ASCII other than '%' and ' '
void put_text(std::string& s, const std::string& t) {
  s += " ";
  if (t.empty()) s += "%";
  for (const char c : t) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || c == '%') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      s += buf;
    } else {
      s += c;
    }
  }
}

// the words of a record line, separated by single or repeated spaces
class Words {
 public:
  Words(const char* begin, const char* end) : p_(begin), end_(end) {}
  bool next(std::string_view& w) {
    while (p_ < end_ && *p_ == ' ') ++p_;
    const char* b = p_;
    while (p_ < end_ && *p_ != ' ') ++p_;
    w = std::string_view(b, static_cast<std::size_t>(p_ - b));
    return !w.empty();
  }

 private:
  const char* p_;
  const char* end_;
};

bool get_text(Words& in, std::string& out) {
  std::string_view w;
  if (!in.next(w)) return false;
  out.clear();
  if (w == "%") return true;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] != '%') {
      out += w[i];
      continue;
    }
    if (i + 2 >= w.size()) return false;
    unsigned v = 0;
    const auto r = std::from_chars(w.data() + i + 1, w.data() + i + 3, v, 16);
    if (r.ptr != w.data() + i + 3) return false;
    out += static_cast<char>(v);
    i += 2;
  }
  return true;
}

// strtod reads hex floats, inf and nan; the word ends at a space or at the line's end, where
// strtod stops
bool get_double(Words& in, double& x) {
  std::string_view w;
  if (!in.next(w)) return false;
  char* end = nullptr;
  x = std::strtod(w.data(), &end);
  return end == w.data() + w.size();
}

template <class Int>
bool get_int(Words& in, Int& x) {
  std::string_view w;
  if (!in.next(w)) return false;
  long long v = 0;
  const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  if (r.ec != std::errc() || r.ptr != w.data() + w.size()) return false;
  x = static_cast<Int>(v);
  return true;
}

template <class Vec>
bool get_vec(Words& in, Vec& v) {
  long long n = 0;
  if (!get_int(in, n) || n < 0 || n > 64) return false;
  v.resize(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!get_double(in, v(i))) return false;
  return true;
}

template <class Vec>
void put_vec(std::string& s, const Vec& v) {
  put_int(s, v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) put_double(s, v(i));
}

std::string hex64(std::uint64_t h) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

std::uint64_t fnv1a(std::string_view s, std::uint64_t h) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string encode_record(const analysis::SweepRecord& r) {
  std::string s = "R";
  put_int(s, static_cast<long long>(r.point));
  put_int(s, r.run);
  put_int(s, static_cast<int>(r.reason));
  put_int(s, r.distinct);
  put_int(s, r.impacts);
  put_double(s, r.impacts_per_period);
  put_int(s, r.events);
  put_int(s, r.rk_steps);
  put_int(s, r.cycle);
  put_int(s, r.closed_at);
  put_int(s, r.refused);
  put_double(s, r.seconds);
  put_double(s, r.t);
  put_vec(s, r.q);
  put_vec(s, r.qd);
  put_vec(s, r.aux);
  put_text(s, r.message);
  put_text(s, r.error);
  put_int(s, static_cast<long long>(r.values.size()));
  for (const double v : r.values) put_double(s, v);
  const std::string hash = hex64(fnv1a(s));
  s += " #";
  s += hash;
  return s;
}

bool decode_record(const std::string& line, std::size_t points, int runs,
                   analysis::SweepRecord& r) {
  const std::size_t hash = line.rfind(" #");
  if (hash == std::string::npos || line.size() != hash + 18) return false;
  if (hex64(fnv1a(std::string_view(line).substr(0, hash))) != line.substr(hash + 2)) return false;
  // the line up to its hash (the character before " #" ends the last word)
  Words in(line.data(), line.data() + hash);
  std::string_view tag;
  long long point = 0, n = 0;
  int reason = 0;
  if (!in.next(tag) || tag != "R" || !get_int(in, point) || !get_int(in, r.run) ||
      !get_int(in, reason) || !get_int(in, r.distinct) || !get_int(in, r.impacts) ||
      !get_double(in, r.impacts_per_period) || !get_int(in, r.events) || !get_int(in, r.rk_steps) ||
      !get_int(in, r.cycle) || !get_int(in, r.closed_at) || !get_int(in, r.refused) ||
      !get_double(in, r.seconds) || !get_double(in, r.t) || !get_vec(in, r.q) ||
      !get_vec(in, r.qd) || !get_vec(in, r.aux) || !get_text(in, r.message) ||
      !get_text(in, r.error) || !get_int(in, n))
    return false;
  if (point < 0 || static_cast<std::size_t>(point) >= points || r.run < 0 || r.run >= runs ||
      reason < 0 || reason >= hybrid::kNumStopReasons || n < 0)
    return false;
  r.point = static_cast<std::size_t>(point);
  r.reason = static_cast<hybrid::StopReason>(reason);
  r.values.resize(static_cast<std::size_t>(n));
  for (double& v : r.values)
    if (!get_double(in, v)) return false;
  std::string_view rest;
  return !in.next(rest);
}

SweepCheckpoint::SweepCheckpoint(fs::path dir, std::string fingerprint)
    : dir_(std::move(dir)), header_(std::string(kMagic) + " " + fingerprint) {}

std::vector<fs::path> SweepCheckpoint::existing() const {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kPrefix, 0) == 0 && name.size() > std::strlen(kSuffix) &&
        name.compare(name.size() - std::strlen(kSuffix), std::string::npos, kSuffix) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void SweepCheckpoint::freeze() {
  frozen_sizes_.clear();
  for (const fs::path& p : existing()) {
    std::error_code ec;
    const std::uintmax_t n = fs::file_size(p, ec);
    if (!ec) frozen_sizes_.emplace_back(p, n);
  }
  frozen_ = true;
}

void SweepCheckpoint::scan(std::size_t points, int runs,
                           const std::function<void(const analysis::SweepRecord&)>& each) const {
  std::vector<char> seen(points * static_cast<std::size_t>(runs), 0);
  std::vector<std::pair<fs::path, std::uintmax_t>> journals = frozen_sizes_;
  if (!frozen_)
    for (const fs::path& p : existing()) journals.emplace_back(p, UINTMAX_MAX);
  for (const auto& [p, size] : journals) {
    std::ifstream in(p, std::ios::binary);
    std::string line;
    std::uintmax_t read = 0;  // bytes up to the end of the line read last
    // a line that ends beyond `size` was appended after freeze(): not read
    const auto next_line = [&] {
      if (!std::getline(in, line)) return false;
      read += line.size() + 1;
      return read <= size;
    };
    if (!next_line()) continue;  // empty: a journal created just before a crash
    if (line != header_)
      throw InvalidArgument("--resume", "the checkpoint " + p.string() +
                                            " belongs to another sweep (the scenario or the "
                                            "options that change results differ); remove it or "
                                            "give the same options");
    while (next_line()) {
      analysis::SweepRecord r;
      if (!decode_record(line, points, runs, r)) continue;
      const std::size_t s =
          r.point * static_cast<std::size_t>(runs) + static_cast<std::size_t>(r.run);
      if (seen[s]) continue;
      seen[s] = 1;
      each(r);
    }
  }
}

SweepCheckpoint::~SweepCheckpoint() {
  if (fd_ >= 0) {
    (void)::fdatasync(fd_);  // an incomplete sweep's journal is what --resume starts from
    ::close(fd_);
  }
}

void SweepCheckpoint::open(int rank) {
  std::error_code ec;
  // a folder of the run's own: a link there would lead the journal out of the output folder
  require(!fs::is_symlink(fs::symlink_status(dir_, ec)), "--out",
          "the checkpoint folder '" + dir_.string() + "' is a symbolic link; remove it");
  io::require_output_folder(dir_, "--out");
  fs::create_directories(dir_, ec);
  path_ = dir_ / (std::string(kPrefix) + std::to_string(rank) + kSuffix);
  io::require_replaceable_file(path_, "--out");
  const bool fresh = !fs::exists(path_, ec) || fs::file_size(path_, ec) == 0;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot write the checkpoint " + path_.string());
  if (fresh) {
    const std::string h = header_ + "\n";
    if (::write(fd_, h.data(), h.size()) != static_cast<ssize_t>(h.size()))
      throw std::runtime_error("cannot write the checkpoint " + path_.string());
  } else {
    // a line cut by an interrupt would glue onto the next record: start on a fresh line
    const ssize_t n = ::write(fd_, "\n", 1);
    (void)n;
  }
}

void SweepCheckpoint::append(const analysis::SweepRecord& r) {
  if (fd_ < 0) return;
  const std::string line = encode_record(r) + "\n";
  std::size_t off = 0;
  while (off < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + off, line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write the checkpoint " + path_.string());
    off += static_cast<std::size_t>(n);
  }
  // a written line survives the process (a crash, a signal, a killed rank) at once; to survive the
  // machine (power, kernel) it must reach the disk: at most once a second, so that a sweep of
  // fast values is not bound by the disk, and losing the last second of values is the worst case
  const auto now = std::chrono::steady_clock::now();
  if (now - last_sync_ >= std::chrono::seconds(1)) {
    (void)::fdatasync(fd_);
    last_sync_ = now;
  }
}

void SweepCheckpoint::remove_all() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  for (const fs::path& p : existing()) fs::remove(p, ec);
}

}  // namespace clatter::cli
