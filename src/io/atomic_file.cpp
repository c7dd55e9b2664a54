#include "clatter/io/atomic_file.hpp"

#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include <unistd.h>

#include "clatter/io/output_target.hpp"

namespace clatter::io {

void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       const char* field) {
  namespace fs = std::filesystem;
  require_replaceable_file(path, field);
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) throw std::runtime_error("cannot create directory " + path.parent_path().string());
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  fs::remove(tmp, ec);  // ours by its name; never written through (a link planted there)
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot rename into " + path.string());
  }
}

}  // namespace clatter::io
