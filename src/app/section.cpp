#include "clatter/app/section.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/io/schema.hpp"
#include "clatter/model/contact_index.hpp"

namespace clatter::app {

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ':')) out.push_back(item);
  return out;
}

double number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw InvalidArgument("section", "'" + text + "' is not a finite number");
}

}  // namespace

analysis::PoincareSection parse_section(const model::System& m, const SectionRequest& r) {
  const std::vector<std::string> p = split(r.section);
  require(!p.empty(), "section", "give impact, event, phase or crossing");
  analysis::PoincareSection s;
  if (p[0] == "impact") {
    require(p.size() <= 2, "section", "impact[:CONTACT]");
    s.kind = analysis::PoincareKind::kImpact;
    if (p.size() == 2) s.contact = model::contact_index(m, p[1], "section");
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
    if (p.size() == 3) s.contact = model::contact_index(m, p[2], "section");
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
  if (!r.frequency.empty()) {
    try {
      (void)m.parameter(r.frequency);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("frequency", e.what());
    }
    s.frequency = r.frequency;
  }
  require(std::isfinite(r.sample_dt) && r.sample_dt >= 0.0, "sample_dt",
          "must be a finite step >= 0 [s] (0: the default)", r.sample_dt);
  if (r.sample_dt > 0.0) s.sample_dt = r.sample_dt;
  analysis::validate(s, m);
  return s;
}

SectionRun run_section(const model::System& m, const hybrid::InitialState& start,
                       const hybrid::SimulationOptions& options, const SectionRequest& r) {
  require(r.count >= 1 && r.count <= 10000000, "count", "must lie in [1, 1e7]");
  require(std::isfinite(r.transient) && r.transient >= 0.0, "transient", "must be >= 0 [s]");
  const analysis::PoincareSection s = parse_section(m, r);
  require(std::isfinite(r.t_max) && r.t_max >= 0.0, "t_max",
          "must be a finite time >= 0 [s] (0: simulation.t_end)", r.t_max);
  const double t_max = r.t_max > 0.0 ? r.t_max : options.t_end;
  require(std::isfinite(t_max) && t_max > start.t + r.transient, "t_max",
          "must be after the start and the transient [s]");
  // one run, stepped from crossing to crossing (no leg restarts from a section point)
  analysis::PoincareWalker walker(m, options, s, start, t_max);
  SectionRun run;
  double after = start.t;
  while (static_cast<int>(run.points.size()) < r.count) {
    analysis::SectionPoint p = walker.next(after);
    if (!p.found) {
      run.stopped = p.message;
      return run;
    }
    after = p.t;
    if (p.t < start.t + r.transient) continue;
    run.points.push_back(std::move(p));
  }
  run.stopped = "count reached";
  return run;
}

std::vector<OutputFile> section_files(const model::System& m, const SectionRequest& r,
                                      const SectionRun& run, const std::string& scenario,
                                      const std::filesystem::path& folder, bool plot) {
  std::ostringstream csv;
  csv.precision(17);
  io::SchemaNames columns;
  columns.state = analysis::state_names(m);
  csv << io::csv_header(io::schema(io::RecordKind::kSectionPoint), columns) << '\n';
  for (std::size_t k = 0; k < run.points.size(); ++k) {
    const analysis::SectionPoint& p = run.points[k];
    csv << k << ',' << p.t;
    for (Eigen::Index i = 0; i < p.x.size(); ++i) csv << ',' << p.x(i);
    csv << ',' << p.passed.size() << '\n';
  }
  const auto data = folder / "section.csv";
  const auto js = folder / "summary.json";
  const nlohmann::json summary = {
      {"scenario", scenario},
      {"section", r.section},
      {"points", run.points.size()},
      {"requested", r.count},
      {"stopped", run.stopped},
      {"files",
       {{"section", data.string()},
        {"plot", plot ? nlohmann::json((folder / "section.png").string()) : nlohmann::json()}}}};
  return {{data, csv.str()}, {js, summary.dump(2) + "\n"}};
}

}  // namespace clatter::app
