#pragma once
/// @file
/// A file an operation of the application layer writes: its final path and its whole content.
/// The operations compose their files; the front ends write them (the CLI all together through
/// its output set, Python each atomically, io/atomic_file.hpp), so that given the same request
/// both write the same bytes.

#include <filesystem>
#include <string>

namespace clatter::app {

struct OutputFile {
  std::filesystem::path path;
  std::string content;
};

}  // namespace clatter::app
