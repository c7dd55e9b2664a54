#pragma once
// The files one command writes, made complete together: each is written to a temporary beside its
// final name (<stem>.tmp-<pid><ext>, registered for removal on interrupt) and all are renamed into
// place by commit() with interrupts blocked. Files of an earlier run that this run does not write
// (declared with also_replaces, e.g. a plot when --no-plot is given) are removed by the same
// commit, so old and new outputs never stand side by side. A set destroyed without commit()
// removes its temporaries: the previous complete output stays untouched. A temporary left by a
// process that was killed (SIGKILL, a crash: no handler ran) is removed by the next set that
// writes the same file, once that process no longer runs.

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace clatter::cli {

/// Throws InvalidArgument(field, ...) when `name` cannot be one folder name inside out/: empty,
/// absolute, ".", "..", or containing a path separator or a control character.
void require_plain_name(const std::string& name, const char* field);

/// The output folder: `out` if given, else out/<name> (name checked by require_plain_name).
[[nodiscard]] std::filesystem::path output_folder(const std::string& out, const std::string& name,
                                                  const char* name_field);

/// Locks the folder `dir` (created if missing) for this process until it ends, so that two runs
/// never write into one folder: a second run is refused with InvalidArgument naming `field`.
/// Locking a folder this process holds already does nothing.
void lock_output_folder(const std::filesystem::path& dir, const char* field);

class OutputSet {
 public:
  /// `field` names the option of the output's place in errors ("--out"): a final name that is
  /// not a regular file, or a folder that is not a directory, is refused (io/output_target.hpp).
  explicit OutputSet(const char* field = "--out") : field_(field) {}
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Opens a stream to the temporary of `path` (creating its folder). Throws on failure, and
  /// InvalidArgument naming `field` (default: the set's) if `path` may not be replaced. Without
  /// `field` the file is one of the output folder's, and that folder is locked
  /// (lock_output_folder); with it, the file's place is its own option's (--timings).
  std::ofstream& open(const std::filesystem::path& path, const char* field = nullptr);
  /// Writes `content` to the temporary of `path`.
  void write(const std::filesystem::path& path, std::string_view content);
  /// The temporary of `path`, for a child process to write (e.g. the plot); registered.
  [[nodiscard]] std::filesystem::path temporary(const std::filesystem::path& path);
  /// An earlier run's file at `path` that this run does not write: removed by commit(). Throws
  /// InvalidArgument if `path` is not a regular file (never removed: a device, a link).
  void also_replaces(const std::filesystem::path& path);

  /// Flushes and closes every stream (throws naming the file if a write failed), so that a child
  /// process can read the temporaries.
  void close();

  /// Forgets `path`: its temporary is removed and commit() removes an earlier run's file there.
  void drop(const std::filesystem::path& path);

  /// Runs `draw`, which writes the temporary of `plot` (a child process drawing it). If it throws,
  /// the plot is dropped, the other files are committed (`last` last) and the exception goes on.
  template <class Draw>
  void draw(const std::filesystem::path& plot, const std::filesystem::path& last, Draw&& draw) {
    try {
      close();
      draw();
    } catch (...) {
      drop(plot);
      commit(last);
      throw;
    }
  }

  /// Closes every stream (throws naming the file if a write failed) and renames every temporary
  /// into place, interrupts blocked; `last` (if non-empty) is renamed last.
  void commit(const std::filesystem::path& last = {});

 private:
  struct Entry {
    std::filesystem::path tmp;
    int slot{-1};
    std::unique_ptr<std::ofstream> stream;
  };
  Entry& entry(const std::filesystem::path& path, const char* field = nullptr);
  void discard();

  const char* field_;
  std::map<std::filesystem::path, Entry> entries_;
  std::vector<std::filesystem::path> replaced_;
};

}  // namespace clatter::cli
