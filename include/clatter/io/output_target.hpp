#pragma once
/// @file
/// What clatter may write over. Every output is written to a temporary beside its final name and
/// renamed into place (atomic_file.hpp, the CLI's output set), and a rename replaces whatever the
/// name points at: a device, a FIFO, a socket or a symbolic link would be replaced by a regular
/// file (a run as root once turned /dev-style nodes into files). So an output's final name must be
/// missing or a regular file, and its folder a directory; anything else is refused before a byte
/// is written. A symbolic link is refused as an output file (never followed, never replaced); the
/// output folder itself may be a link to a directory, the user's own choice of place.

#include <filesystem>

namespace clatter::io {

/// Throws InvalidArgument naming `field` unless `path` is missing or a regular file (not a link,
/// a directory, a device, a FIFO or a socket), and its folder, if it exists, is a directory.
void require_replaceable_file(const std::filesystem::path& path, const char* field);

/// Throws InvalidArgument naming `field` if `dir` exists and is not a directory (links to a
/// directory are accepted).
void require_output_folder(const std::filesystem::path& dir, const char* field);

}  // namespace clatter::io
