#pragma once
/// @file
/// One run per output folder: a run that writes into a folder holds an exclusive lock on it
/// (flock on the folder itself, so no lock file is left behind), and a second run that would
/// write there meanwhile is refused, naming the field of its output. The CLI holds its folder's
/// lock until it exits; Python holds it for one call (FolderLock's lifetime).
///
/// A run that was killed (SIGKILL, a crash) leaves its temporaries `<name>.tmp-<pid>`; the next
/// run that writes `<name>` removes those whose process no longer runs.

#include <filesystem>

namespace clatter::io {

class FolderLock {
 public:
  /// Creates `folder` if missing and locks it. Throws InvalidArgument naming `field` if another
  /// process (or another FolderLock) holds it, std::runtime_error if it cannot be created.
  FolderLock(const std::filesystem::path& folder, const char* field);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_{-1};
};

/// Removes the temporaries `<path>.tmp-<pid>` (write_file_atomic's, Python's streamed files) whose
/// process no longer runs. A pid that runs, whatever it is, keeps its file.
void remove_stale_temporaries(const std::filesystem::path& path);

}  // namespace clatter::io
