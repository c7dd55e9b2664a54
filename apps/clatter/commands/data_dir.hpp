#pragma once
// Where the tool's data lives: the plot scripts and the examples. An installed `clatter`
// (cmake --install) finds them in <prefix>/share/clatter/<name> next to its bin/; a build tree's
// uses the source tree it was configured from.

#include <string>

namespace clatter::cli {

/// <bin>/../share/clatter/<name> if that folder exists, else `build_tree`.
[[nodiscard]] std::string data_dir(const std::string& name, const std::string& build_tree);

}  // namespace clatter::cli
