// `clatter continue SCENARIO --param NAME --range LO HI [orbit options] [--direction up|down|both]`
// continuation of a scenario's periodic orbit in any named parameter
// (analysis/orbit_branch.hpp): the orbit is found as by `clatter orbits SCENARIO` and followed,
// with folds, period doublings, Neimark–Sacker points, grazings, changes of an impact's law
// region and of the sticking phases located. Writes, atomically:
//   branch.csv        branch,p,period,<solved components>,stable,max_abs_multiplier,
//                     lambda<k>_re,lambda<k>_im,...,tau_sn,tau_pd,tau_ns,margin,sticks,itinerary
//   bifurcations.csv  branch,kind,p,period,<solved components>,max_abs_multiplier,detail
//   summary.json      the start orbit, per direction the end and the bifurcations (also stdout)
//   branch.png        the first solved component and max |λ| against p: stable solid,
//                     unstable dashed, bifurcations marked

#include <cmath>
#include <complex>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct ContinueCliOptions {
  OrbitProblemOptions problem;
  std::string param;
  std::vector<double> range;
  std::string direction{"both"};
  double ds{0.01};
  double ds_max{0.1};
  int max_points{400};
  std::string out;
  bool plot{true};
};

std::string num(double x) {
  std::ostringstream s;
  s.precision(15);
  s << x;
  return s.str();
}

double max_abs(const analysis::OrbitPoint& p) {
  return p.multipliers.empty() ? 0.0 : std::abs(p.multipliers.front());
}

int run_continue(const ContinueCliOptions& o) {
  require(!o.param.empty(), "param", "name the parameter to continue in");
  require(o.range.size() == 2 && std::isfinite(o.range[0]) && std::isfinite(o.range[1]) &&
              o.range[0] < o.range[1],
          "range", "give finite LO HI with LO < HI");
  require(o.direction == "up" || o.direction == "down" || o.direction == "both", "direction",
          "must be up, down or both");
  const OrbitSetup s = make_orbit_setup(o.problem);
  const model::System& m = *s.problem.model;
  const double p0 = m.parameter(o.param);  // names the known parameters if unknown
  require(p0 >= o.range[0] && p0 <= o.range[1], "range",
          "must contain the scenario's value of the parameter, " + num(p0));
  analysis::OrbitBranchOptions bo;
  bo.parameter = o.param;
  bo.p_min = o.range[0];
  bo.p_max = o.range[1];
  bo.ds = o.ds;
  bo.ds_max = o.ds_max;
  bo.max_points = o.max_points;
  bo.ds_min = std::min(1e-8, o.ds);
  analysis::validate(bo);

  const analysis::Orbit start = analysis::find_orbit(s.problem, m, s.guess, s.shooting);
  nlohmann::json summary = {{"scenario", o.problem.scenario},
                            {"parameter", o.param},
                            {"range", o.range},
                            {"start", orbit_json(s, start)}};
  if (!start.converged) {
    std::cout << summary.dump(2) << "\n";
    std::cerr << "clatter: continue: the start orbit did not converge: " << start.message << "\n";
    return 3;
  }
  // Newton from a start off the attractor may land on a coexisting unstable orbit (the ball on
  // the table from rest: the saddle 1-1 orbit beside the stable one): say so, and how to start
  // on the attractor
  if (!start.stable && o.problem.transient == 0.0 && !start.multipliers.empty())
    std::cerr << "clatter: continue: note: the start orbit is unstable (largest |multiplier| "
              << std::abs(start.multipliers.front())
              << "); Newton started from the scenario's initial state, and --transient N starts "
                 "it after N periods of the motion, on the attractor\n";
  const std::vector<std::string> names = analysis::state_names(m);
  std::ostringstream csv, bif;
  csv << "branch,p,period";
  bif << "branch,kind,p,period";
  for (int i : s.problem.solved) {
    csv << ',' << names[static_cast<std::size_t>(i)];
    bif << ',' << names[static_cast<std::size_t>(i)];
  }
  const std::size_t nl = start.multipliers.size();
  csv << ",stable,max_abs_multiplier";
  for (std::size_t k = 1; k <= nl; ++k) csv << ",lambda" << k << "_re,lambda" << k << "_im";
  csv << ",tau_sn,tau_pd,tau_ns,margin,sticks,itinerary\n";
  bif << ",max_abs_multiplier,detail\n";
  const auto row = [&](std::ostringstream& out, const analysis::OrbitPoint& p) {
    out << num(p.p) << ',' << num(p.period);
    for (std::size_t k = 0; k < s.problem.solved.size(); ++k)
      out << ',' << num(p.u(static_cast<Eigen::Index>(k)));
  };
  nlohmann::json branches = nlohmann::json::array();
  std::vector<int> dirs;
  if (o.direction != "down") dirs.push_back(1);
  if (o.direction != "up") dirs.push_back(-1);
  for (const int d : dirs) {
    bo.direction = d;
    const analysis::OrbitBranch b = analysis::continue_orbits(s.problem, start, bo);
    const std::string label = d > 0 ? "up" : "down";
    for (const analysis::OrbitPoint& p : b.points) {
      csv << label << ',';
      row(csv, p);
      csv << ',' << (p.stable ? 1 : 0) << ',' << num(max_abs(p));
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
    nlohmann::json list = nlohmann::json::array();
    for (const analysis::OrbitBifurcation& f : b.bifurcations) {
      bif << label << ',' << analysis::to_string(f.kind) << ',';
      row(bif, f.at);
      bif << ',' << num(max_abs(f.at)) << ",\"" << f.detail << "\"\n";
      list.push_back({{"kind", std::string(analysis::to_string(f.kind))},
                      {"p", f.at.p},
                      {"period", f.at.period},
                      {"max_abs_multiplier", max_abs(f.at)},
                      {"detail", f.detail}});
    }
    branches.push_back({{"direction", label},
                        {"points", b.points.size()},
                        {"end", std::string(analysis::to_string(b.end))},
                        {"message", b.message},
                        {"bifurcations", list}});
  }
  summary["branches"] = branches;
  const std::filesystem::path dir = output_folder(o.out, s.scenario.name + "_continue", "scenario");
  const auto data = dir / "branch.csv";
  const auto bifs = dir / "bifurcations.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "branch.png";
  summary["files"] = {{"branch", data.string()},
                      {"bifurcations", bifs.string()},
                      {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, csv.str());
  files.write(bifs, bif.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    const std::string unit = parameter_unit(m, o.param);
    files.draw(png, js, [&] {
      run_plot_script("branch.py",
                      {"--branch", files.temporary(data).string(), "--bifurcations",
                       files.temporary(bifs).string(), "--param", o.param, "--param-unit", unit,
                       "--title", s.scenario.name + ": periodic orbits continued in " + o.param,
                       "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  return 0;
}

}  // namespace

Run add_continue(CLI::App& app) {
  auto o = std::make_shared<ContinueCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "continue",
      "Continuation of a scenario's periodic orbit in any parameter: SN, PD, NS, grazing, "
      "region and stick changes");
  add_orbit_problem_options(sub, o->problem, true);
  sub->add_option("--param", o->param, "the parameter to continue in, by name")->required();
  sub->add_option("--range", o->range, "LO HI: the branch ends outside")->expected(2)->required();
  sub->add_option("--direction", o->direction, "up, down or both")->capture_default_str();
  sub->add_option("--ds", o->ds, "first arclength step")->capture_default_str();
  sub->add_option("--ds-max", o->ds_max, "largest arclength step")->capture_default_str();
  sub->add_option("--max-points", o->max_points, "points per direction")->capture_default_str();
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_continue)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_continue(*o); };
}

}  // namespace clatter::cli
