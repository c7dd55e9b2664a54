#pragma once
/// @file
/// Atomic output: a file is written to a temporary sibling and renamed into place, so an
/// interrupted run never leaves a half-written result that looks complete.

#include <filesystem>
#include <string_view>

namespace clatter::io {

/// Writes `content` to `path` atomically (temporary file in the same directory + rename). Creates
/// the parent directory. Throws InvalidArgument naming `field` if `path` is not a file clatter may
/// replace (output_target.hpp: a link, a device, a FIFO, …), std::runtime_error naming the path
/// if the write fails.
void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       const char* field = "path");

}  // namespace clatter::io
