// `clatter sweep SCENARIO`: brute-force bifurcation diagrams over one or two named parameters of
// the scenario's model (analysis/parameter_sweep.hpp): for each grid value and each start, an
// observable on a section after a transient, its distinct values and the impacts per period.
//   --omega FROM TO N             the surface frequency (the seeds' sweep; = --param surface.omega)
//   --param NAME FROM TO N        any parameter of `clatter models` (at most two axes in all)
//   --carry-over up|down|both|none, --continuation (= up), --initial NAME=V,..., --section,
//   --observe, --threads, MPI (mpirun -np N clatter sweep ...), --resume, --max-wall-time, --hdf5
//   --clock periods|time|impacts[:CONTACT]|crossings, --max-time: what --transient/--record count
//   (forcing periods by default; a model without a forcing needs one of the others)
//   --frequency NAME              the parameter holding the forcing frequency (surface.omega)
// Writes into the output directory (see sweep_output.hpp) bifurcation.csv, summary.csv,
// summary.json (also on stdout), sweep.h5 with --hdf5, and bifurcation.png: record by record while
// the sweep runs (rank 0, with the records the other ranks send it), into temporaries that replace
// an earlier output together, only once every value is done. While it runs, finished values are
// journalled in sweep-checkpoint.r<rank>.partial beside them (sweep_checkpoint.hpp), removed at the
// end. Exit status: 0; 2 bad input (nothing written); 3 some values failed (reason "error" with the
// message; the others went on); 4 stopped by --max-wall-time (resume with --resume).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/app/sweep.hpp"
#include "clatter/io/output_target.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/contact_index.hpp"
#include "commands/commands.hpp"
#include "commands/mpi_world.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/progress_bar.hpp"
#include "commands/scenario_input.hpp"
#include "commands/sweep_checkpoint.hpp"
#include "commands/sweep_hdf5.hpp"
#include "commands/sweep_output.hpp"
#include "commands/sweep_transport.hpp"

namespace clatter::cli {

namespace {

struct SweepCliOptions {
  std::string scenario;
  std::string out;
  std::vector<double> omega;
  std::vector<std::string> param;
  std::string frequency;  ///< --frequency: the parameter holding the forcing frequency
  double transient_periods{1000.0};
  double record_periods{200.0};
  std::string clock{"periods"};  ///< periods, time, impacts[:CONTACT], crossings
  double max_time{NAN};          ///< event clocks: bound per value [s] (default: scenario)
  bool continuation{false};
  std::string carry{"none"};
  bool carry_given{false};
  std::string section{"apex"};
  std::string observe;
  std::string contact;                // a contact's name or index; empty: any
  std::vector<std::string> crossing;  ///< --crossing NAME VALUE [DIR]
  std::vector<std::string> initial;
  int threads{2};
  bool resume{false};
  double max_wall_time{0.0};
  std::optional<double> periodic_tol;  ///< none: analysis::default_periodic_tol of the clock
  bool no_periodic_shortcut{false};
  bool periodic_check{true};
  std::string timings;
  bool hdf5{false};
  bool plot{true};
  bool progress{true};
  bool progress_always{false};
};

double parse_number(const std::string& s, const char* option, const std::string& what) {
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  require(end != s.c_str() && *end == '\0', option, what + " must be a number, got \"" + s + "\"");
  return x;
}

analysis::GridAxis make_axis(const std::string& name, double from, double to, double n,
                             const char* option) {
  require(std::isfinite(from) && std::isfinite(to), option,
          "FROM and TO of " + name + " must be finite numbers");
  require(n >= 1.0 && n <= 1e6 && n == std::floor(n), option,
          "N of " + name + " must be an integer in [1, 1000000], got " + format_number(n));
  return {name, from, to, static_cast<int>(n)};
}

// "y=3.2,theta=0.1,ydot=0,t=0.5" over the scenario's initial state
hybrid::InitialState parse_initial(const std::string& text, const io::Scenario& sc) {
  hybrid::InitialState init = sc.initial;
  const std::vector<std::string> names = sc.model->coordinate_names();
  std::string allowed = "t";
  for (const std::string& n : names) allowed += ", " + n + ", " + n + "dot";
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::size_t eq = item.find('=');
    require(
        eq != std::string::npos && eq > 0, "--initial",
        "give NAME=VALUE pairs separated by commas (names: " + allowed + "), got \"" + item + "\"");
    const std::string name = item.substr(0, eq);
    const double v = parse_number(item.substr(eq + 1), "--initial", name);
    require(std::isfinite(v), "--initial", name + " must be finite");
    bool found = name == "t";
    if (found) init.t = v;
    for (std::size_t i = 0; i < names.size() && !found; ++i) {
      if (name == names[i]) {
        init.q(static_cast<Eigen::Index>(i)) = v;
        found = true;
      } else if (name == names[i] + "dot") {
        init.qd(static_cast<Eigen::Index>(i)) = v;
        found = true;
      }
    }
    require(found, "--initial", "unknown name \"" + name + "\" (allowed: " + allowed + ")");
  }
  return init;
}

std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

// what changes the results: the scenario's text and the options (not threads, ranks, outputs)
std::string fingerprint(const std::string& scenario_path, const analysis::ParameterSweep& sw,
                        const std::vector<hybrid::InitialState>& initials) {
  std::ifstream in(scenario_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::ostringstream s;
  s << text.str();
  for (const analysis::GridAxis& a : sw.grid.axes())
    s << "|axis " << a.name << ' ' << hex(a.from) << ' ' << hex(a.to) << ' ' << a.n;
  s << "|carry " << analysis::to_string(sw.carry) << "|observe "
    << analysis::to_string(sw.observe.section) << ' ' << sw.observe.quantity << ' '
    << sw.observe.contact << "|periods " << hex(sw.transient_periods) << ' '
    << hex(sw.record_periods) << "|period " << sw.period_parameter << ' ' << hex(sw.omega);
  if (sw.clock != analysis::SweepClock::kPeriods)  // (a periods sweep keeps its old fingerprint)
    s << "|clock " << analysis::to_string(sw.clock) << ' ' << sw.clock_contact << ' '
      << hex(sw.max_time);
  if (sw.periodic.tol > 0.0)
    s << "|periodic " << hex(sw.periodic.tol) << ' ' << sw.periodic.max_cycle
      << (sw.periodic.check_stability ? " checked" : "");
  if (sw.observe.section == analysis::SectionKind::kCrossing)
    s << "|crossing " << sw.observe.crossing << ' ' << hex(sw.observe.crossing_value) << ' '
      << sw.observe.crossing_direction;
  for (const hybrid::InitialState& i : initials) {
    s << "|initial " << hex(i.t);
    for (Eigen::Index k = 0; k < i.q.size(); ++k) s << ' ' << hex(i.q(k));
    for (Eigen::Index k = 0; k < i.qd.size(); ++k) s << ' ' << hex(i.qd(k));
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(s.str())));
  return buf;
}

// The option of the CLI for a field of app::SweepRequest (its checks name the fields as Python
// spells them); "" for a field of the scenario.
std::string option_of(const std::string& field, bool omega_given, bool frequency_given) {
  static const std::map<std::string, std::string> options = {
      {"carry_over", "--carry-over"},
      {"section", "--section"},
      {"crossing", "--crossing"},
      {"observe", "--observe"},
      {"transient_periods", "--transient-periods"},
      {"record_periods", "--record-periods"},
      {"clock", "--clock"},
      {"max_time", "--max-time"},
      {"periodic_tol", "--periodic-tol"},
      {"periodic_check", "--no-periodic-check"},
      {"initial", "--initial"},
      {"threads", "--threads"}};
  if (field == "period_parameter" && frequency_given) return "--frequency";
  if (field == "params" || field == "param" || field == "period_parameter")
    return omega_given ? "--omega" : "--param";
  if (field == "clock_contact") return "--clock";
  const auto it = options.find(field);
  return it == options.end() ? std::string() : it->second;
}

// Checks every option with the name the user typed, before any work; builds the sweep
// (app::make_sweep, the checks Python shares) after the CLI's own (the texts of --omega, --param,
// --crossing and --initial, --continuation, --no-periodic-shortcut, --timings, --max-wall-time,
// --hdf5).
analysis::ParameterSweep build_sweep(const SweepCliOptions& o, const io::Scenario& sc,
                                     std::vector<hybrid::InitialState>& initials,
                                     std::vector<std::string>& initial_texts) {
  app::SweepRequest r;
  if (!o.omega.empty()) {
    require(o.omega.size() == 3, "--omega", "give --omega FROM TO N");
    for (int i = 0; i < 2; ++i)
      require(std::isfinite(o.omega[static_cast<std::size_t>(i)]) &&
                  o.omega[static_cast<std::size_t>(i)] > 0.0,
              "--omega", "FROM and TO must be finite and > 0 [rad/s]",
              o.omega[static_cast<std::size_t>(i)]);
    require(o.omega[2] >= 1.0 && o.omega[2] <= 1e6 && o.omega[2] == std::floor(o.omega[2]),
            "--omega", "N must be an integer in [1, 1000000]", o.omega[2]);
    r.axes.push_back({"surface.omega", o.omega[0], o.omega[1], static_cast<int>(o.omega[2])});
  }
  require(o.param.size() % 4 == 0, "--param", "give --param NAME FROM TO N");
  for (std::size_t i = 0; i < o.param.size(); i += 4) {
    const std::string& name = o.param[i];
    r.axes.push_back(make_axis(name, parse_number(o.param[i + 1], "--param", "FROM of " + name),
                               parse_number(o.param[i + 2], "--param", "TO of " + name),
                               parse_number(o.param[i + 3], "--param", "N of " + name), "--param"));
  }
  require(!r.axes.empty(), "--param",
          "give the values to sweep: --omega FROM TO N or --param NAME FROM TO N");
  require(r.axes.size() <= 2, "--param",
          "at most two parameters (--omega counts as one), got " + std::to_string(r.axes.size()));
  if (!o.frequency.empty()) {
    require(sc.model->parameters().has(o.frequency), "--frequency",
            "unknown parameter \"" + o.frequency + "\" of " + sc.kind +
                " (clatter models --scenario FILE lists them)");
    r.period_parameter = o.frequency;
  }
  r.carry_over = o.carry;
  if (o.continuation) {
    require(!o.carry_given || o.carry == "up", "--continuation",
            "means --carry-over up; it cannot be given with --carry-over " + o.carry);
    r.carry_over = "up";
  }
  r.section = o.section;
  if (o.section == "crossing") {
    require(o.crossing.size() == 2 || o.crossing.size() == 3, "--crossing",
            "the crossing section needs --crossing NAME VALUE [up|down|both]");
    const std::string dir = o.crossing.size() == 3 ? o.crossing[2] : "both";
    require(dir == "up" || dir == "down" || dir == "both" || dir == "+1" || dir == "1" ||
                dir == "-1" || dir == "0",
            "--crossing",
            "the direction must be up (+1), down (-1) or both (0), not \"" + dir + "\"");
    r.crossing =
        app::CrossingRequest{o.crossing[0], parse_number(o.crossing[1], "--crossing", "VALUE"),
                             dir == "up" || dir == "+1" || dir == "1" ? 1
                             : dir == "down" || dir == "-1"           ? -1
                                                                      : 0};
  } else {
    require(o.crossing.empty(), "--crossing", "is for --section crossing");
  }
  r.observe = o.observe;
  // --contact: a name, as every other option takes contacts, or an index (-1: any)
  r.contact = -1;
  if (!o.contact.empty() && o.contact != "-1") {
    const bool index = o.contact.find_first_not_of("0123456789") == std::string::npos;
    r.contact =
        index ? std::stoi(o.contact) : model::contact_index(*sc.model, o.contact, "--contact");
  }
  r.transient_periods = o.transient_periods;
  r.record_periods = o.record_periods;
  r.threads = o.threads;
  r.periodic_tol = o.periodic_tol;
  require(!o.no_periodic_shortcut || !o.periodic_tol, "--no-periodic-shortcut",
          "is --periodic-tol 0: give one of them");
  if (o.no_periodic_shortcut) r.periodic_tol = 0.0;
  r.periodic_check = o.periodic_check;
  r.clock = o.clock;
  if (!std::isnan(o.max_time)) r.max_time = o.max_time;
  if (!o.timings.empty()) {
    const std::filesystem::path parent = std::filesystem::path(o.timings).parent_path();
    require(parent.empty() || std::filesystem::is_directory(parent), "--timings",
            "the folder of " + o.timings + " does not exist");
  }
  require(std::isfinite(o.max_wall_time) && o.max_wall_time >= 0.0, "--max-wall-time",
          "must be a finite number of seconds >= 0 (0: no limit)", o.max_wall_time);
  require(!o.hdf5 || hdf5_available(), "--hdf5",
          "this clatter was built without HDF5 (install libhdf5-dev, reconfigure and rebuild)");
  require(o.initial.size() <= 1000, "--initial", "at most 1000 initial states");
  for (const std::string& text : o.initial) {
    r.initials.push_back(parse_initial(text, sc));
    r.initial_texts.push_back(text);
  }
  try {
    app::SweepSetup setup = app::make_sweep(*sc.model, sc.kind, sc.initial, sc.options, r);
    initials = std::move(setup.initials);
    initial_texts = std::move(setup.initial_texts);
    return std::move(setup.sweep);
  } catch (const InvalidArgument& e) {
    const std::string option = option_of(e.field(), !o.omega.empty(), !o.frequency.empty());
    if (option.empty()) throw with_scenario_key(e);  // a simulation option: the scenario's
    throw InvalidArgument(option, std::string(e.what()).substr(e.field().size() + 2));
  }
}

int run_sweep_cli(const SweepCliOptions& o) {
  // without MPI, the processes of mpirun -np N would be N whole sweeps writing the same files
  require(MpiWorld::available() || MpiWorld::launched_size() == 1, "mpirun",
          "this clatter was built without MPI: run it without mpirun (or install libopenmpi-dev "
          "openmpi-bin and rebuild)");
  MpiWorld world;
  // the sweep sets the parameters itself: the scenario's surface motion is not checked here
  const io::Scenario sc = load_scenario_checked(o.scenario, false);
  std::vector<hybrid::InitialState> initials;
  std::vector<std::string> initial_texts;
  const analysis::ParameterSweep sw = build_sweep(o, sc, initials, initial_texts);
  const analysis::SweepPlan plan(sw.grid, sw.carry, static_cast<int>(initials.size()));
  const std::filesystem::path dir =
      o.out.empty() ? output_folder("", sc.name + "_sweep", "name") : std::filesystem::path(o.out);

  // every output's place is checked before anything is written, the journal included
  for (const char* name :
       {"bifurcation.csv", "summary.csv", "summary.json", "bifurcation.png", "sweep.h5"})
    io::require_replaceable_file(dir / name, "--out");
  if (!o.timings.empty()) io::require_replaceable_file(o.timings, "--timings");
  if (world.rank() == 0) lock_output_folder(dir, "--out");  // the other ranks journal beside it
  SweepCheckpoint checkpoint(dir, fingerprint(o.scenario, sw, initials));
  const bool interrupted = !checkpoint.existing().empty();
  // every rank looks before any rank writes its journal
  (void)world.all(true);
  require(!interrupted || o.resume, "--resume",
          "an interrupted sweep left its checkpoint in " + dir.string() +
              " (sweep-checkpoint.r*.partial): give --resume to finish it, or remove those files "
              "to start again");
  // the records of the interrupted run: counted here, read by the sweep (twice), never held
  std::size_t resumed_all = 0;
  // what every rank reads of the journals: as they are now (this run's ranks append to them)
  checkpoint.freeze();
  if (o.resume)
    checkpoint.scan(sw.grid.size(), plan.runs(),
                    [&](const analysis::SweepRecord&) { ++resumed_all; });
  (void)world.all(true);
  world.start_work();
  checkpoint.open(world.rank());
  if (world.size() > 1 && world.rank() == 0)
    std::cerr << "clatter: sweep: " << world.size() << " MPI ranks x " << o.threads << " threads, "
              << plan.chains() << " chains\n";

  // rank 0 writes the outputs while the sweep runs, from its records and those the other ranks
  // stream to it (sweep_output.hpp); they replace an earlier output only once complete
  SweepFiles files;
  files.data = dir / "bifurcation.csv";
  files.summary = dir / "summary.csv";
  files.json = dir / "summary.json";
  if (o.hdf5) files.hdf5 = dir / "sweep.h5";
  files.timings = o.timings;
  if (o.plot) files.plot = dir / "bifurcation.png";
  OutputSet out;
  out.also_replaces(dir / "bifurcation.png");
  out.also_replaces(dir / "sweep.h5");
  std::optional<SweepOutput> output;
  if (world.rank() == 0) {
    SweepTable table;
    table.scenario = sc.name;
    table.sweep = sw;
    table.initials = initials;
    table.initial_texts = initial_texts;
    output.emplace(std::move(table), files, out);
  }
  // rank 0's progress bar counts the records of every rank as they reach the outputs
  ProgressBar progress("values", resumed_all, o.progress && world.rank() == 0, o.progress_always);
  std::size_t arrived = 0;  // rank 0: records given to the outputs, every rank's
  const auto take = [&](const std::string& bytes) {
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    while (p < end) {
      analysis::SweepRecord r;
      if (!unpack_record(p, end, sw.grid.size(), plan.runs(), r))
        throw std::runtime_error("a rank sent a corrupt record");
      output->add(r);
      ++arrived;
    }
    progress.update(arrived, plan.records());
  };
  std::string outgoing;       // a rank ≠ 0: packed records not yet sent
  std::size_t done_mine = 0;  // records passed on by this rank (resumed ones included)
  long long ran_mine = 0;     // values this rank ran
  const auto pass_on = [&](const analysis::SweepRecord& r) {
    ++done_mine;
    if (world.rank() == 0) {
      output->add(r);
      ++arrived;
      progress.update(arrived, plan.records());
      if (world.size() > 1) (void)world.receive(take);
      return;
    }
    pack_record(r, outgoing);
    if (outgoing.size() >= (std::size_t{64} << 10)) world.send(std::exchange(outgoing, {}));
  };

  // journal, wall-clock limit
  const auto start = std::chrono::steady_clock::now();
  std::atomic<bool> out_of_time{false};
  // values this rank finished in this run, read by the workers' wall-clock check: until one has
  // finished the limit waits, so that every --resume makes progress even when one value costs
  // more than --max-wall-time (it used to exit 4 for ever, stuck at the same value)
  std::atomic<long long> finished_here{0};
  std::atomic<bool> overran{false};
  analysis::SweepControl control;
  control.threads = o.threads;
  control.rank = world.rank();
  control.ranks = world.size();
  if (world.size() > 1) {
    // rank 0 deals the chains in order to whichever rank asks (mpi_world.hpp)
    world.deal(plan.chains(), o.threads);
    control.next_chain = [&] { return world.take_chain(); };
  }
  if (o.resume)
    control.finished_source = [&](const std::function<void(const analysis::SweepRecord&)>& each) {
      checkpoint.scan(sw.grid.size(), plan.runs(), each);
    };
  control.keep_records = false;
  // every rank reads every journal (a chain goes on wherever it is dealt): rank 0 passes on
  // what stands
  if (world.rank() == 0) control.on_resumed = pass_on;
  control.on_record = [&](const analysis::SweepRecord& r, std::size_t, std::size_t) {
    checkpoint.append(r);
    ++ran_mine;
    finished_here.fetch_add(1, std::memory_order_relaxed);
    pass_on(r);
  };
  if (o.max_wall_time > 0.0) {
    control.keep_going = [&] {
      if (out_of_time.load(std::memory_order_relaxed)) return false;
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
          o.max_wall_time)
        return true;
      if (finished_here.load(std::memory_order_relaxed) == 0) {
        overran = true;
        return true;
      }
      out_of_time = true;
      return false;
    };
  }
  const analysis::SweepOutcome outcome =
      run_sweep(*sc.model, initials, sc.options, sw, std::move(control));
  if (world.rank() == 0) {
    world.receive_all(take);
    progress.finish();
  } else {
    world.end_dealing();
    if (!outgoing.empty()) world.send(std::exchange(outgoing, {}));
    world.end_stream();
  }

  const bool complete = world.all(outcome.complete);  // the barrier: waiting ranks sleep
  const long long done_all = world.sum(static_cast<long long>(done_mine));
  if (world.size() > 1) {
    const std::vector<long long> ran = world.gather(ran_mine);
    if (world.rank() == 0) {
      std::cerr << "clatter: sweep: values run by rank:";
      for (const long long n : ran) std::cerr << ' ' << n;
      std::cerr << '\n';
    }
  }
  if (!complete) {
    if (world.rank() == 0)
      std::cerr << "clatter: sweep: stopped at the wall-clock limit (--max-wall-time "
                << o.max_wall_time << " s): " << done_all << " of " << plan.records()
                << " values done (" << resumed_all << " of them before this run); no output was "
                << "written; run again with --resume to finish (" << dir.string()
                << "/sweep-checkpoint.r*.partial)\n";
    if (overran.load() && world.rank() == 0)
      std::cerr << "clatter: sweep: one value costs more than --max-wall-time: the limit was "
                   "passed to finish this run's first value\n";
    return 4;
  }
  if (world.rank() != 0) return 0;

  output->finish();
  if (o.plot) {
    const app::SweepPaths paths{files.data, files.summary, files.hdf5, files.plot};
    draw_plot(out, app::sweep_plot(paths, o.hdf5, sc.name + ": " + sc.description),
              {files.data, files.summary, files.hdf5}, files.json,
              "the CSV and JSON files are complete");
  }
  out.commit(files.json);
  checkpoint.remove_all();
  {
    // summary.json on stdout, passed on in pieces (its "points" grow with the grid)
    std::ifstream js(files.json, std::ios::binary);
    std::cout << js.rdbuf();
    std::cout.flush();
  }
  const int failed = output->failed();
  if (failed > 0) {
    std::cerr << "clatter: sweep: " << failed << " of " << plan.records()
              << " values failed (reason \"error\" in summary.csv, with the message)\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "sweep",
      "Brute-force bifurcation diagram: an observable on a section after a transient, over one or "
      "two parameters");
  sub->add_option("scenario", o->scenario, "scenario file (TOML): model, start, options")
      ->required();
  sub->add_option("--omega", o->omega,
                  "FROM TO N: the surface frequencies [rad/s] (= --param surface.omega FROM TO N)")
      ->expected(3);
  sub->add_option("--param", o->param,
                  "NAME FROM TO N: a parameter of the model (clatter models) on N values; "
                  "repeatable, two axes at most")
      ->expected(4)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--frequency", o->frequency,
                  "the parameter holding the forcing frequency (default surface.omega): what the "
                  "periods clock, the stroboscopic section and the impact phase count by");
  sub->add_option("--transient-periods,--transient", o->transient_periods,
                  "discarded per value, in units of --clock (forcing periods)")
      ->capture_default_str();
  sub->add_option("--record-periods,--record", o->record_periods,
                  "recorded, in units of --clock (forcing periods)")
      ->capture_default_str();
  sub->add_option("--clock", o->clock,
                  "what the transient and the record count: periods (of surface.omega), time "
                  "[s], impacts[:CONTACT] or crossings (of the section); a model without a "
                  "forcing needs one of the last three")
      ->capture_default_str();
  sub->add_option("--max-time", o->max_time,
                  "impacts or crossings clock: a value's run ends this many seconds after its "
                  "start if its count is not reached (default: the scenario's t_end - t0)");
  sub->add_flag("--continuation", o->continuation,
                "start each value from the previous final state (as the seeds) = --carry-over up");
  sub->add_option("--carry-over", o->carry,
                  "along the first parameter: up, down, both (from the previous final state) or "
                  "none (independent runs)")
      ->check(CLI::IsMember({"up", "down", "both", "none"}))
      ->capture_default_str()
      ->each([o](const std::string&) { o->carry_given = true; });
  sub->add_option("--section", o->section,
                  "apex (of the centre of mass in flight), impact, strobe (t0 + k 2 pi/omega), or "
                  "crossing (of a coordinate through a value: --crossing)")
      ->check(CLI::IsMember({"apex", "impact", "strobe", "crossing"}))
      ->capture_default_str();
  sub->add_option("--crossing", o->crossing,
                  "crossing section: NAME VALUE [up|down|both], the coordinate NAME crossing "
                  "VALUE upward, downward or either way (default both); e.g. --crossing theta 0 "
                  "up")
      ->expected(2, 3);
  sub->add_option("--observe", o->observe,
                  "quantity on the section: a coordinate (y), a velocity (ydot); on the impact "
                  "section also phase, v_N (default: y on apex and crossing, phase on impact)");
  sub->add_option("--contact", o->contact,
                  "impact section: only this contact's impacts, by name (or index; -1: any)")
      ->capture_default_str();
  sub->add_option("--initial", o->initial,
                  "NAME=VALUE,... over the scenario's start (t, coordinates, velocities NAMEdot); "
                  "repeatable: one run per initial state")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--threads", o->threads, "threads per process (MPI: per rank)")
      ->capture_default_str();
  sub->add_flag("--resume", o->resume,
                "finish an interrupted sweep from its checkpoint (same scenario and options)");
  sub->add_option("--max-wall-time", o->max_wall_time,
                  "stop after this many seconds, keeping the finished values for --resume (0: no "
                  "limit)")
      ->capture_default_str();
  sub->add_option("--periodic-tol", o->periodic_tol,
                  "stop a value once its states at t0 + k 2 pi/omega repeat with a cycle of p <= "
                  "64 periods to this relative tolerance, shown stable by a perturbed replay, and "
                  "repeat the cycle to the end (default 1e-10 with --clock periods, else 0; 0: "
                  "run every value in full; docs/analysis.md says when this is exact)");
  sub->add_flag("--no-periodic-shortcut", o->no_periodic_shortcut,
                "run every value in full, bounce by bounce (--periodic-tol 0)");
  sub->add_flag(
      "!--no-periodic-check", o->periodic_check,
      "with --periodic-tol: take a cycle without first replaying it perturbed to see that "
      "it is stable (faster; may stop on an unstable orbit the full run would leave)");
  sub->add_option("--timings", o->timings,
                  "also write this CSV file: the CPU time of every value's run (not deterministic; "
                  "left out of the other outputs)");
  sub->add_flag("--hdf5", o->hdf5, "also write sweep.h5 (arrays over the grid; h5py, xarray)");
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_sweep)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  sub->add_flag("!--no-progress", o->progress, "no progress bar on a terminal");
  sub->add_flag("--progress", o->progress_always,
                "draw the progress bar even when stderr is not a terminal (e.g. under mpirun, "
                "whose ranks write to a pipe)");
  return [o] { return run_sweep_cli(*o); };
}

}  // namespace clatter::cli
