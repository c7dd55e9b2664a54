#include "commands/output_set.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>

#include "clatter/core/error.hpp"
#include "clatter/io/output_target.hpp"
#include "commands/interrupt.hpp"

namespace clatter::cli {

namespace fs = std::filesystem;

void require_plain_name(const std::string& name, const char* field) {
  require(!name.empty(), field, "must not be empty (it names the output folder out/<name>)");
  require(name.size() <= 200, field,
          "must have at most 200 characters (it names the output folder), got " +
              std::to_string(name.size()));
  require(name != "." && name != "..", field,
          "must be a plain folder name, got \"" + name + "\" (it names the output folder)");
  for (const char c : name) {
    require(c != '/' && c != '\\', field,
            "must be a plain folder name without '/' or '\\', got \"" + name +
                "\" (it names the output folder out/<name>; use --out DIR for another place)");
    require(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, field,
            "must not contain control characters (it names the output folder)");
  }
}

fs::path output_folder(const std::string& out, const std::string& name, const char* name_field) {
  if (!out.empty()) return fs::path(out);
  require_plain_name(name, name_field);
  return fs::path("out") / name;
}

void lock_output_folder(const fs::path& dir, const char* field) {
  static std::mutex mutex;
  static std::set<std::string> held;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir.string() + ": " + ec.message());
  const std::string key = fs::weakly_canonical(dir, ec).string();
  const std::lock_guard lock(mutex);
  if (held.count(key) != 0) return;
  // flock on the folder itself: no lock file is left behind, and the lock ends with the process
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open the folder " + dir.string());
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw InvalidArgument(field, "another clatter run is writing into " + dir.string() +
                                     "; wait for it to end or choose another folder");
  }
  held.insert(key);  // fd stays open: the lock is held until the process ends
}

OutputSet::~OutputSet() { discard(); }

namespace {

// Removes the temporaries <stem>.tmp-<pid><ext> of `path` left by processes that no longer run
// (a killed or crashed run: a signal's handler removes its own). A pid that runs, whatever it
// is, keeps its file.
void remove_stale_temporaries(const fs::path& path) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const std::string head = path.stem().string() + ".tmp-";
  const std::string tail = path.extension().string();
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= head.size() + tail.size() || name.compare(0, head.size(), head) != 0 ||
        name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    const std::string digits = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove(it->path(), ignored);
  }
}

}  // namespace

OutputSet::Entry& OutputSet::entry(const fs::path& path, const char* field) {
  auto it = entries_.find(path);
  if (it != entries_.end()) return it->second;
  io::require_replaceable_file(path, field != nullptr ? field : field_);
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) throw std::runtime_error("cannot create directory " + path.parent_path().string());
  // the output folder is locked; a file placed elsewhere by its own option (--timings) is not a
  // claim on its folder
  if (field == nullptr)
    lock_output_folder(path.has_parent_path() ? path.parent_path() : fs::path("."), field_);
  remove_stale_temporaries(path);
  Entry e;
  e.tmp = path.parent_path() /
          (path.stem().string() + ".tmp-" + std::to_string(::getpid()) + path.extension().string());
  fs::remove(e.tmp, ec);  // ours by its name; never written through (a link planted there)
  e.slot = register_temporary(e.tmp);
  return entries_.emplace(path, std::move(e)).first->second;
}

std::ofstream& OutputSet::open(const fs::path& path, const char* field) {
  Entry& e = entry(path, field);
  if (!e.stream) {
    e.stream = std::make_unique<std::ofstream>(e.tmp, std::ios::binary | std::ios::trunc);
    if (!*e.stream) throw std::runtime_error("cannot write " + path.string());
  }
  return *e.stream;
}

void OutputSet::write(const fs::path& path, std::string_view content) {
  std::ofstream& s = open(path);
  s.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!s) throw std::runtime_error("cannot write " + path.string());
}

fs::path OutputSet::temporary(const fs::path& path) { return entry(path).tmp; }

void OutputSet::also_replaces(const fs::path& path) {
  io::require_replaceable_file(path, field_);
  replaced_.push_back(path);
}

void OutputSet::drop(const fs::path& path) {
  replaced_.push_back(path);
  const auto it = entries_.find(path);
  if (it == entries_.end()) return;
  if (it->second.stream) it->second.stream->close();
  std::error_code ec;
  fs::remove(it->second.tmp, ec);
  unregister_temporary(it->second.slot);
  entries_.erase(it);
}

void OutputSet::close() {
  for (auto& [path, e] : entries_) {
    if (!e.stream || !e.stream->is_open()) continue;
    e.stream->flush();
    const bool ok = static_cast<bool>(*e.stream);
    e.stream->close();
    if (!ok) throw std::runtime_error("cannot write " + path.string());
  }
}

void OutputSet::commit(const fs::path& last) {
  close();
  for (auto& [path, e] : entries_) {
    std::error_code ec;
    if (!fs::exists(e.tmp, ec))
      throw std::runtime_error("no output was produced for " + path.string());
  }
  const BlockInterrupts blocked;
  std::error_code ec;
  for (const fs::path& p : replaced_)
    if (!entries_.count(p)) fs::remove(p, ec);
  const auto place = [&](const fs::path& path, Entry& e) {
    fs::rename(e.tmp, path, ec);
    if (ec) throw std::runtime_error("cannot rename into " + path.string() + ": " + ec.message());
    unregister_temporary(e.slot);
    e.slot = -1;
  };
  // the file that marks completeness goes last; an earlier copy of it goes first
  if (!last.empty()) fs::remove(last, ec);
  for (auto& [path, e] : entries_)
    if (path != last) place(path, e);
  if (auto it = entries_.find(last); it != entries_.end()) place(it->first, it->second);
  entries_.clear();
}

void OutputSet::discard() {
  for (auto& [path, e] : entries_) {
    if (e.stream) e.stream->close();
    std::error_code ec;
    fs::remove(e.tmp, ec);
    unregister_temporary(e.slot);
  }
  entries_.clear();
}

}  // namespace clatter::cli
