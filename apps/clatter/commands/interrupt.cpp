#include "commands/interrupt.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>

namespace clatter::cli {

namespace {

// slots read by the handler: state 1 = path valid; only async-signal-safe calls use them
constexpr int kSlots = 64;
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX]{};
};
std::array<Slot, kSlots> slots;
std::mutex slots_mutex;
std::atomic<pid_t> child{0};

void write_stderr(const char* s) {
  const ssize_t n = ::write(STDERR_FILENO, s, std::strlen(s));
  (void)n;
}

extern "C" void on_interrupt(int sig) {
  // the child first, so that it cannot write after its temporary is removed
  const pid_t c = child.load();
  if (c > 0) {
    ::kill(c, SIGKILL);
    ::waitpid(c, nullptr, 0);
  }
  for (Slot& s : slots)
    if (s.state.load() == 1) ::unlink(s.path);
  write_stderr(sig == SIGINT    ? "\nclatter: interrupted (SIGINT): no new output was completed\n"
               : sig == SIGTERM ? "\nclatter: terminated (SIGTERM): no new output was completed\n"
                                : "\nclatter: hung up (SIGHUP): no new output was completed\n");
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaddset(&sa.sa_mask, SIGHUP);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // e.g. started with nohup: keep ignoring
    ::sigaction(sig, &sa, nullptr);
  }
  // past a file-size limit (ulimit -f) a write then fails with EFBIG instead of killing the run
  // without a word: the outputs report it as they report a full disk, and remove their
  // temporaries
  ::signal(SIGXFSZ, SIG_IGN);
}

int register_temporary(const std::filesystem::path& path) {
  const std::string s = path.string();
  if (s.size() >= PATH_MAX) return -1;
  const std::lock_guard lock(slots_mutex);
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = slots[static_cast<std::size_t>(i)];
    if (slot.state.load() != 0) continue;
    std::memcpy(slot.path, s.c_str(), s.size() + 1);
    slot.state.store(1);
    return i;
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  const std::lock_guard lock(slots_mutex);
  slots[static_cast<std::size_t>(slot)].state.store(0);
}

void set_child_process(pid_t pid) { child.store(pid); }

BlockInterrupts::BlockInterrupts() {
  const sigset_t set = interrupt_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

BlockInterrupts::~BlockInterrupts() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

}  // namespace clatter::cli
