#pragma once
// The scenario files of examples/ (CLATTER_EXAMPLES_DIR, set by tests/CMakeLists.txt), sorted.

#include <algorithm>
#include <filesystem>
#include <vector>

namespace clatter::test {

inline std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(CLATTER_EXAMPLES_DIR))
    if (entry.path().extension() == ".toml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace clatter::test
