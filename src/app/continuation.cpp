#include "clatter/app/continuation.hpp"

#include <cmath>
#include <complex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/io/schema.hpp"

namespace clatter::app {

namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(15);
  s << x;
  return s.str();
}

double max_abs(const analysis::OrbitPoint& p) {
  return p.multipliers.empty() ? 0.0 : std::abs(p.multipliers.front());
}

analysis::OrbitBranchOptions branch_options(const ContinueRequest& r) {
  analysis::OrbitBranchOptions bo;
  bo.parameter = r.parameter;
  bo.p_min = r.p_min;
  bo.p_max = r.p_max;
  bo.ds = r.ds;
  bo.ds_max = r.ds_max;
  bo.max_points = r.max_points;
  bo.ds_min = std::min(bo.ds_min, r.ds);
  return bo;
}

nlohmann::json summary_json(const OrbitSetup& s, const ContinueRequest& r, const Continuation& c,
                            const std::string& scenario) {
  nlohmann::json summary = {{"scenario", scenario},
                            {"parameter", r.parameter},
                            {"range", {r.p_min, r.p_max}},
                            {"start", nlohmann::json::parse(orbit_json(s, c.start))}};
  if (!c.start.converged) return summary;
  nlohmann::json branches = nlohmann::json::array();
  for (const Branch& b : c.branches) {
    nlohmann::json list = nlohmann::json::array();
    for (const analysis::OrbitBifurcation& f : b.branch.bifurcations)
      list.push_back({{"kind", std::string(analysis::to_string(f.kind))},
                      {"p", f.at.p},
                      {"period", f.at.period},
                      {"max_abs_multiplier", max_abs(f.at)},
                      {"detail", f.detail}});
    // points whose multipliers come from differences across a change of the events
    int unreliable = 0;
    std::string first_warning;
    for (const analysis::OrbitPoint& pt : b.branch.points)
      if (!pt.monodromy_warning.empty() && unreliable++ == 0)
        first_warning = "at p = " + format_number(pt.p) + ": " + pt.monodromy_warning;
    branches.push_back({{"direction", b.direction},
                        {"points", b.branch.points.size()},
                        {"points_with_unreliable_multipliers", unreliable},
                        {"monodromy_warning", first_warning},
                        {"end", std::string(analysis::to_string(b.branch.end))},
                        {"message", b.branch.message},
                        {"bifurcations", list}});
  }
  summary["branches"] = branches;
  return summary;
}

// p, period and the solved components of a point
void point_columns(std::ostringstream& out, const analysis::OrbitPoint& p, std::size_t solved) {
  out << num(p.p) << ',' << num(p.period);
  for (std::size_t k = 0; k < solved; ++k) out << ',' << num(p.u(static_cast<Eigen::Index>(k)));
}

}  // namespace

void validate(const ContinueRequest& r) {
  require(!r.parameter.empty(), "param", "name the parameter to continue in");
  require(std::isfinite(r.p_min) && std::isfinite(r.p_max) && r.p_min < r.p_max, "range",
          "must be two finite values, the lower first");
  require(r.direction == "up" || r.direction == "down" || r.direction == "both", "direction",
          "must be up, down or both");
  analysis::validate(branch_options(r));
}

Continuation run_continuation(const OrbitSetup& s, const ContinueRequest& r,
                              const std::function<void(int points)>& on_point) {
  validate(r);
  double p0 = 0.0;
  try {
    p0 = s.problem.model->parameter(r.parameter);
  } catch (const InvalidArgument& e) {  // an unknown name: the option, and the known ones
    throw InvalidArgument("param", e.what());
  }
  require(p0 >= r.p_min && p0 <= r.p_max, "range",
          "must contain the parameter's value at the start orbit, " + num(p0));
  Continuation c;
  c.start = find_orbit(s);
  if (!c.start.converged) return c;
  analysis::OrbitBranchOptions bo = branch_options(r);
  if (on_point) bo.on_point = [&on_point](const analysis::OrbitPoint&, int n) { on_point(n); };
  for (const int d : {1, -1}) {
    if ((d > 0 && r.direction == "down") || (d < 0 && r.direction == "up")) continue;
    bo.direction = d;
    c.branches.push_back(
        {d > 0 ? "up" : "down", analysis::continue_orbits(s.problem, c.start, bo)});
  }
  return c;
}

std::string continuation_summary(const OrbitSetup& s, const ContinueRequest& r,
                                 const Continuation& c, const std::string& scenario) {
  return summary_json(s, r, c, scenario).dump(2);
}

std::vector<OutputFile> continuation_files(const OrbitSetup& s, const ContinueRequest& r,
                                           const Continuation& c, const std::string& scenario,
                                           const std::filesystem::path& folder, bool plot) {
  const std::vector<std::string> names = analysis::state_names(*s.problem.model);
  const std::size_t ns = s.problem.solved.size();
  const std::size_t nl = c.start.multipliers.size();
  io::SchemaNames columns;
  for (int i : s.problem.solved) columns.solved.push_back(names[static_cast<std::size_t>(i)]);
  columns.multipliers = static_cast<int>(nl);
  std::ostringstream csv, bif;
  csv << io::csv_header(io::schema(io::RecordKind::kBranchPoint), columns) << '\n';
  bif << io::csv_header(io::schema(io::RecordKind::kBifurcation), columns) << '\n';
  for (const Branch& b : c.branches) {
    for (const analysis::OrbitPoint& p : b.branch.points) {
      csv << b.direction << ',';
      point_columns(csv, p, ns);
      csv << ',' << (p.stable ? 1 : 0) << ',' << (p.monodromy_warning.empty() ? 1 : 0) << ','
          << num(max_abs(p));
      for (std::size_t k = 0; k < nl; ++k) {
        const auto l = k < p.multipliers.size() ? p.multipliers[k] : std::complex<double>();
        csv << ',' << num(l.real()) << ',' << num(l.imag());
      }
      csv << ',' << num(p.tau_sn) << ',' << num(p.tau_pd) << ',' << num(p.tau_ns) << ','
          << (std::isfinite(p.margin) ? num(p.margin) : "inf") << ',' << p.sticks << ',';
      for (std::size_t k = 0; k < p.itinerary.size(); ++k)
        csv << (k ? " " : "") << p.itinerary[k].first << ':' << p.itinerary[k].second;
      csv << '\n';
    }
    for (const analysis::OrbitBifurcation& f : b.branch.bifurcations) {
      bif << b.direction << ',' << analysis::to_string(f.kind) << ',';
      point_columns(bif, f.at, ns);
      bif << ',' << num(max_abs(f.at)) << ",\"" << f.detail << "\"\n";
    }
  }
  const auto data = folder / "branch.csv";
  const auto bifs = folder / "bifurcations.csv";
  const auto js = folder / "summary.json";
  nlohmann::json summary = summary_json(s, r, c, scenario);
  summary["files"] = {
      {"branch", data.string()},
      {"bifurcations", bifs.string()},
      {"plot", plot ? nlohmann::json((folder / "branch.png").string()) : nlohmann::json()}};
  return {{data, csv.str()}, {bifs, bif.str()}, {js, summary.dump(2) + "\n"}};
}

}  // namespace clatter::app
