#pragma once
/// @file
/// A file of a command written by Python, streamed to a temporary beside its final name as the
/// run goes (the memory does not grow with the run), renamed into place by commit(); removed if
/// never committed (the run raised: nothing half-written is left).

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "clatter/core/error.hpp"
#include "clatter/io/folder_lock.hpp"
#include "clatter/io/output_target.hpp"

namespace clatter::python {

class StreamedFile {
 public:
  explicit StreamedFile(std::filesystem::path path)
      : path_(std::move(path)), tmp_(path_.string() + ".tmp-" + std::to_string(::getpid())) {
    io::require_replaceable_file(path_, "out");
    std::filesystem::create_directories(path_.parent_path());
    io::remove_stale_temporaries(path_);
    stream.open(tmp_, std::ios::binary | std::ios::trunc);
    require(stream.is_open(), "out", "cannot write " + tmp_.string());
  }
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  ~StreamedFile() {
    if (committed_) return;
    stream.close();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
  void commit() {
    stream.close();
    require(!stream.fail(), "out", "cannot write " + path_.string());
    std::filesystem::rename(tmp_, path_);
    committed_ = true;
  }
  std::ofstream stream;

 private:
  std::filesystem::path path_, tmp_;
  bool committed_{false};
};

}  // namespace clatter::python
