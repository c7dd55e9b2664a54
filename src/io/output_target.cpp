#include "clatter/io/output_target.hpp"

#include <string>
#include <system_error>

#include "clatter/core/error.hpp"

namespace clatter::io {

namespace fs = std::filesystem;

namespace {

const char* kind_of(fs::file_type t) {
  switch (t) {
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::symlink:
      return "a symbolic link";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

void require_output_folder(const fs::path& dir, const char* field) {
  if (dir.empty()) return;
  for (const fs::path& part : dir)  // the file names clatter adds are shorter than 40 bytes
    require(part.native().size() <= 200, field,
            "a folder name of at most 200 characters is needed, got one of " +
                std::to_string(part.native().size()));
  std::error_code ec;
  const fs::file_status s = fs::status(dir, ec);  // follows a link: the user's choice of place
  if (!fs::exists(s) || fs::is_directory(s)) return;
  throw InvalidArgument(field, "the output folder '" + dir.string() + "' exists and is " +
                                   kind_of(s.type()) + ", not a directory");
}

void require_replaceable_file(const fs::path& path, const char* field) {
  if (path.has_parent_path()) require_output_folder(path.parent_path(), field);
  require(path.filename().native().size() <= 200, field,
          "a file name of at most 200 characters is needed, got " +
              std::to_string(path.filename().native().size()));
  std::error_code ec;
  const fs::file_status s = fs::symlink_status(path, ec);
  if (!fs::exists(s) || fs::is_regular_file(s)) return;
  throw InvalidArgument(field, "'" + path.string() + "' is " + kind_of(s.type()) +
                                   "; clatter writes only regular files it can replace (remove "
                                   "it or choose another path)");
}

}  // namespace clatter::io
