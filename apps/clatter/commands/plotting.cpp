#include "commands/plotting.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "commands/data_dir.hpp"
#include "commands/interrupt.hpp"

namespace clatter::cli {

std::string parameter_unit(const model::System& m, const std::string& name) {
  const model::ParameterSet ps = m.parameters();
  for (const model::Parameter& p : ps.list())
    if (p.name == name) return p.unit;
  return "";
}

namespace {

// runs the child so that it cannot outlive this process: it is killed when the parent dies
// (PR_SET_PDEATHSIG) and by the interrupt handler (interrupt.hpp), which also waits for it
int run_process(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
    // the parent's handlers do not apply here: default dispositions, nothing blocked
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  set_child_process(pid);
  // the scripts write <out>.tmp-<pid>[.png] and rename it: removed too if interrupted
  std::vector<int> slots;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--out") continue;
    const std::string tmp = args[i + 1] + ".tmp-" + std::to_string(pid);
    slots.push_back(register_temporary(tmp));
    slots.push_back(register_temporary(tmp + ".png"));
  }
  int status = 0;
  pid_t w = 0;
  do {
    w = ::waitpid(pid, &status, 0);
  } while (w < 0 && errno == EINTR);
  set_child_process(0);
  for (const int slot : slots) unregister_temporary(slot);
  if (w < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

void run_plot_script(const std::string& script, const std::vector<std::string>& args,
                     const std::string& what_is_complete) {
  const char* dir = std::getenv("CLATTER_PLOT_DIR");
  const std::string path =
      (dir != nullptr ? std::string(dir) : data_dir("plots", CLATTER_PLOT_DIR)) + "/" + script;
  std::vector<std::string> command{CLATTER_PYTHON, path};
  command.insert(command.end(), args.begin(), args.end());
  const int rc = run_process(command);
  if (rc != 0) {
    throw std::runtime_error("plotting failed (" + std::string(CLATTER_PYTHON) + " " + path +
                             " exited with " + std::to_string(rc) + "); " + what_is_complete);
  }
}

void draw_plot(OutputSet& set, const app::PlotCall& plot,
               const std::vector<std::filesystem::path>& files, const std::filesystem::path& last,
               const std::string& what_is_complete) {
  std::vector<std::string> args = plot.args;
  for (std::string& a : args) {
    if (a == plot.out.string()) {
      a = set.temporary(plot.out).string();
      continue;
    }
    for (const std::filesystem::path& f : files)
      if (a == f.string()) a = set.temporary(f).string();
  }
  set.draw(plot.out, last, [&] { run_plot_script(plot.script, args, what_is_complete); });
}

void commit_outputs(OutputSet& set, const std::vector<app::OutputFile>& files,
                    const std::optional<app::PlotCall>& plot, const std::filesystem::path& last,
                    const std::string& what_is_complete) {
  std::vector<std::filesystem::path> paths;
  for (const app::OutputFile& f : files) {
    set.write(f.path, f.content);
    paths.push_back(f.path);
  }
  if (plot) draw_plot(set, *plot, paths, last, what_is_complete);
  set.commit(last);
}

}  // namespace clatter::cli
