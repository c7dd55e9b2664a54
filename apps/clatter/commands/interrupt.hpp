#pragma once
// Interrupted runs (SIGINT, SIGTERM, SIGHUP): the handler stops the plotting child, removes every
// temporary output file still registered, says so on stderr and ends the process by the signal.
// The previous complete output stays; nothing half-written is left. Output sets commit their
// files with these signals blocked (BlockInterrupts), so a commit is never cut in half.

#include <signal.h>
#include <sys/types.h>

#include <filesystem>

namespace clatter::cli {

/// Installs the handlers (once, from main).
void install_interrupt_handlers();

/// Registers a temporary file for removal if the process is interrupted; returns its slot (or −1
/// when all slots are taken: the file is then not removed on interrupt).
int register_temporary(const std::filesystem::path& path);
/// Forgets a slot (after the file was renamed into place or removed).
void unregister_temporary(int slot);

/// The plotting child to stop on interrupt (0: none).
void set_child_process(pid_t pid);

/// Blocks SIGINT, SIGTERM and SIGHUP for its lifetime (pending signals arrive at the end).
class BlockInterrupts {
 public:
  BlockInterrupts();
  ~BlockInterrupts();
  BlockInterrupts(const BlockInterrupts&) = delete;
  BlockInterrupts& operator=(const BlockInterrupts&) = delete;

 private:
  sigset_t saved_{};
};

}  // namespace clatter::cli
