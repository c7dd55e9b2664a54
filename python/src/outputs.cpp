// Python's out=: an operation's files written into a folder (bindings.hpp, write_outputs).

#include <filesystem>
#include <vector>

#include "bindings.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/folder_lock.hpp"
#include "clatter/io/output_target.hpp"

namespace clatter::python {

void write_outputs(const std::vector<app::OutputFile>& files, const std::filesystem::path& folder) {
  io::require_output_folder(folder, "out");
  const io::FolderLock lock(folder, "out");
  for (const app::OutputFile& f : files) {
    io::remove_stale_temporaries(f.path);
    io::write_file_atomic(f.path, f.content, "out");
  }
}

}  // namespace clatter::python
