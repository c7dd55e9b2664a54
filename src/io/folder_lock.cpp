#include "clatter/io/folder_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include "clatter/core/error.hpp"

namespace clatter::io {

namespace fs = std::filesystem;

FolderLock::FolderLock(const fs::path& folder, const char* field) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw std::runtime_error("cannot create directory " + folder.string() + ": " + ec.message());
  fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("cannot open the folder " + folder.string());
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw InvalidArgument(field, "another clatter run is writing into " + folder.string() +
                                     "; wait for it to end or choose another folder");
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

void remove_stale_temporaries(const fs::path& path) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const std::string head = path.filename().string() + ".tmp-";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= head.size() || name.compare(0, head.size(), head) != 0) continue;
    const std::string digits = name.substr(head.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (pid <= 0 || pid == ::getpid()) continue;
    // kill(pid, 0): ESRCH when no such process runs (EPERM: it runs, as another user)
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code rm;
      if (it->is_regular_file(rm)) fs::remove(it->path(), rm);
    }
  }
}

}  // namespace clatter::io
