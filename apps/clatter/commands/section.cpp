// `clatter section SCENARIO --section SPEC [--count N] [--transient T] [--t-max T]`: the Poincaré
// map of a scenario's model iterated from its initial state (analysis/poincare_map.hpp).
//   SPEC  impact[:CONTACT]                 the next impact (of CONTACT, or of any contact)
//         event:KIND[:CONTACT]             the next event of a kind (stick, slip_onset, lift_off,
//         …) phase[:PHI]                      stroboscopic, omega t = PHI mod 2 pi (surface.omega)
//         crossing:NAME:VALUE[:up|down]    a state component crossing a value
// Writes, atomically: section.csv (k, t, the state by name, events passed), summary.json (also
// on stdout), section.png (the first two state components that vary, against each other).
// Points before --transient seconds are not recorded. Exit 3 if fewer than N points were found.

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/analysis/poincare_map.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

struct SectionCliOptions {
  std::string scenario;
  std::string section{"impact"};
  int count{100};
  double transient{0.0};
  double t_max{0.0};
  std::string out;
  bool plot{true};
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ':')) out.push_back(item);
  return out;
}

int contact_index(const model::System& m, const std::string& name) {
  for (int c = 0; c < m.num_contacts(); ++c)
    if (m.contact(c).name == name) return c;
  throw InvalidArgument("section", "unknown contact '" + name + "'");
}

analysis::PoincareSection parse_section(const model::System& m, const std::string& spec) {
  const std::vector<std::string> p = split(spec);
  require(!p.empty(), "section", "give impact, event, phase or crossing");
  analysis::PoincareSection s;
  const auto number = [&](const std::string& text) {
    try {
      std::size_t used = 0;
      const double v = std::stod(text, &used);
      if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw InvalidArgument("section", "'" + text + "' is not a finite number");
  };
  if (p[0] == "impact") {
    require(p.size() <= 2, "section", "impact[:CONTACT]");
    s.kind = analysis::PoincareKind::kImpact;
    if (p.size() == 2) s.contact = contact_index(m, p[1]);
  } else if (p[0] == "event") {
    require(p.size() == 2 || p.size() == 3, "section", "event:KIND[:CONTACT]");
    s.kind = analysis::PoincareKind::kEvent;
    bool known = false;
    for (int k = 0; k <= static_cast<int>(hybrid::EventKind::kParameterChange); ++k) {
      const auto kind = static_cast<hybrid::EventKind>(k);
      if (p[1] == hybrid::to_string(kind)) {
        s.event = kind;
        known = true;
      }
    }
    require(known, "section", "unknown event kind '" + p[1] + "'");
    if (p.size() == 3) s.contact = contact_index(m, p[2]);
  } else if (p[0] == "phase") {
    require(p.size() <= 2, "section", "phase[:PHI]");
    s.kind = analysis::PoincareKind::kPhase;
    if (p.size() == 2) s.phase = number(p[1]);
  } else if (p[0] == "crossing") {
    require(p.size() == 3 || p.size() == 4, "section", "crossing:NAME:VALUE[:up|down]");
    s.kind = analysis::PoincareKind::kCrossing;
    s.component = analysis::state_index(m, p[1], "section");
    s.value = number(p[2]);
    if (p.size() == 4) {
      require(p[3] == "up" || p[3] == "down", "section", "the direction must be up or down");
      s.direction = p[3] == "up" ? 1 : -1;
    }
  } else {
    throw InvalidArgument("section", "'" + p[0] + "': give impact, event, phase or crossing");
  }
  analysis::validate(s, m);
  return s;
}

int run_section(const SectionCliOptions& o) {
  require(o.count >= 1 && o.count <= 10000000, "count", "must lie in [1, 1e7]");
  require(std::isfinite(o.transient) && o.transient >= 0.0, "transient", "must be >= 0 [s]");
  const io::Scenario sc = load_scenario_checked(o.scenario, false);
  const model::System& m = *sc.model;
  const analysis::PoincareSection s = parse_section(m, o.section);
  require(std::isfinite(o.t_max) && o.t_max >= 0.0, "t-max",
          "must be a finite time >= 0 [s] (0: simulation.t_end)", o.t_max);
  const double t_max = o.t_max > 0.0 ? o.t_max : sc.options.t_end;
  require(std::isfinite(t_max) && t_max > sc.initial.t + o.transient, "t-max",
          "must be after the start and the transient [s]");
  const std::vector<std::string> names = analysis::state_names(m);
  std::ostringstream csv;
  csv.precision(17);
  csv << "k,t";
  for (const std::string& n : names) csv << ',' << n;
  csv << ",events_passed\n";
  // one run, stepped from crossing to crossing (no leg restarts from a section point)
  analysis::PoincareWalker walker(m, sc.options, s, sc.initial, t_max);
  double after = sc.initial.t;
  int found = 0;
  std::string why;
  while (found < o.count) {
    const analysis::SectionPoint p = walker.next(after);
    if (!p.found) {
      why = p.message;
      break;
    }
    after = p.t;
    if (p.t < sc.initial.t + o.transient) continue;
    csv << found++ << ',' << p.t;
    for (Eigen::Index i = 0; i < p.x.size(); ++i) csv << ',' << p.x(i);
    csv << ',' << p.passed.size() << '\n';
  }
  const std::filesystem::path dir = output_folder(o.out, sc.name + "_section", "scenario");
  const auto data = dir / "section.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "section.png";
  nlohmann::json summary = {{"scenario", o.scenario},
                            {"section", o.section},
                            {"points", found},
                            {"requested", o.count},
                            {"stopped", found < o.count ? why : "count reached"},
                            {"files",
                             {{"section", data.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, csv.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    files.draw(png, js, [&] {
      run_plot_script("section.py",
                      {"--section", files.temporary(data).string(), "--title", o.section, "--out",
                       files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  if (found < o.count) {
    std::cerr << "clatter: section: " << found << " of " << o.count << " points: " << why << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_section(CLI::App& app) {
  auto o = std::make_shared<SectionCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "section", "Poincare map of a scenario's model: impact, event, phase or crossing sections");
  sub->add_option("scenario", o->scenario, "scenario file (TOML)")->required();
  sub->add_option("--section", o->section,
                  "impact[:CONTACT] | event:KIND[:CONTACT] | phase[:PHI] | "
                  "crossing:NAME:VALUE[:up|down]")
      ->capture_default_str();
  sub->add_option("--count", o->count, "points to record")->capture_default_str();
  sub->add_option("--transient", o->transient, "points before this time are not recorded [s]")
      ->capture_default_str();
  sub->add_option("--t-max", o->t_max, "no point after this time (default simulation.t_end)");
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_section)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_section(*o); };
}

}  // namespace clatter::cli
