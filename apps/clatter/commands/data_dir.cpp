#include "commands/data_dir.hpp"

#include <filesystem>
#include <system_error>

namespace clatter::cli {

std::string data_dir(const std::string& name, const std::string& build_tree) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return build_tree;
  const std::filesystem::path installed =
      exe.parent_path().parent_path() / "share" / "clatter" / name;
  return std::filesystem::is_directory(installed, ec) ? installed.string() : build_tree;
}

}  // namespace clatter::cli
