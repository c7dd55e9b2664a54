// `clatter orbits [--e E...] [--periods N] [--omega-range LO HI] [--cascade K] [--out DIR]`:
// continuation in ω of the orbits of a ball bouncing on A sin ωt with one impact every N forcing
// periods (analysis/orbit_continuation.hpp; [BP] Fig. 10, [B] Fig 5.10), for each restitution e:
// from the stable orbit halfway between the closed-form SN and PD, both ways, with SN, PD and
// grazing located; with --cascade K, the period-doubling cascade from the stable branch's PD, K
// doublings deep, with the ratios of its intervals and the accumulation point. Writes, atomically:
//   branches.csv      e,impacts,periods,omega,phase,velocity,apex_min,apex_max,
//                     lambda1_re,lambda1_im,lambda2_re,lambda2_im,stable,margin
//   bifurcations.csv  e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,
//                     margin,closed_form_omega (SN and PD of the N-period orbit; empty otherwise)
//   summary.json      options, per e the branch ends, bifurcations and cascade (also on stdout)
//   orbits.png        apex height against ω: stable solid, unstable dashed, SN/PD/G marked

#include <cmath>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/analysis/orbit_continuation.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "commands/commands.hpp"
#include "commands/json_output.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

constexpr double kFeigenbaum = 4.669201609102990;

struct OrbitsCliOptions {
  std::vector<double> e{0.9, 0.7, 0.5, 0.3, 0.1};
  double amplitude{1.0};
  double gravity{9.81};
  int periods{1};
  std::vector<double> omega_range{0.5, 7.0};
  int cascade{0};
  std::string out{"out/orbits"};
  bool plot{true};
};

void validate(const OrbitsCliOptions& o) {
  require(!o.e.empty(), "e", "give at least one restitution");
  for (const double e : o.e)
    require(e > 0.0 && e < 1.0, "e", "each restitution must lie in (0, 1)");
  require(o.amplitude > 0.0 && std::isfinite(o.amplitude), "amplitude",
          "must be positive and finite [m]");
  require(o.gravity > 0.0 && std::isfinite(o.gravity), "gravity",
          "must be positive and finite [m/s^2]");
  require(o.periods >= 1 && o.periods <= 16, "periods", "must lie in [1, 16]");
  require(o.omega_range.size() == 2, "omega-range", "give LO HI");
  require(o.cascade >= 0 && o.cascade <= 8, "cascade", "must lie in [0, 8]");
}

std::string num(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

void write_points(std::ostringstream& csv, double e, const analysis::Branch& br) {
  for (const analysis::BranchPoint& p : br.points) {
    csv << num(e) << ',' << br.impacts << ',' << br.periods << ',' << num(p.omega) << ','
        << num(p.z.phase) << ',' << num(p.z.velocity) << ',' << num(p.apex_min) << ','
        << num(p.apex_max) << ',' << num(p.multipliers[0].real()) << ','
        << num(p.multipliers[0].imag()) << ',' << num(p.multipliers[1].real()) << ','
        << num(p.multipliers[1].imag()) << ',' << (p.stable ? 1 : 0) << ',' << num(p.margin)
        << '\n';
  }
}

nlohmann::json bifurcation_json(const analysis::Bifurcation& b, double closed_form) {
  return {{"kind", analysis::to_string(b.kind)},
          {"omega", b.at.omega},
          {"phase", b.at.z.phase},
          {"velocity", b.at.z.velocity},
          {"apex_max", b.at.apex_max},
          {"multipliers", {b.at.multipliers[0].real(), b.at.multipliers[1].real()}},
          {"margin", json_number(b.at.margin)},
          {"closed_form_omega", json_number(closed_form)}};
}

int run_orbits_cli(const OrbitsCliOptions& o) {
  validate(o);
  analysis::ContinuationOptions copt;
  copt.omega_min = o.omega_range[0];
  copt.omega_max = o.omega_range[1];
  analysis::validate(copt);
  const std::filesystem::path dir(o.out);

  std::ostringstream branches, bifs;
  branches << "e,impacts,periods,omega,phase,velocity,apex_min,apex_max,lambda1_re,lambda1_im,"
              "lambda2_re,lambda2_im,stable,margin\n";
  bifs << "e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,margin,"
          "closed_form_omega\n";
  nlohmann::json per_e = nlohmann::json::array();
  std::vector<std::string> incomplete;
  for (const double e : o.e) {
    const analysis::ClosedFormOrbit cf0 =
        analysis::closed_form_orbit(o.amplitude, 1.0, o.gravity, e, o.periods);
    const double omega0 = 0.5 * (cf0.omega_sn + cf0.omega_pd);
    if (!(omega0 > copt.omega_min && omega0 < copt.omega_max)) {
      // the orbits move with A and g (ω ∝ √(g/A)): name what the user changed
      const char* field = o.amplitude != OrbitsCliOptions{}.amplitude ? "--amplitude"
                          : o.gravity != OrbitsCliOptions{}.gravity   ? "--gravity"
                                                                      : "--omega-range";
      throw InvalidArgument(
          field, "the period-1 orbits of e = " + num(e) + " with amplitude " + num(o.amplitude) +
                     " and gravity " + num(o.gravity) + " start at omega = " + num(omega0) +
                     " (between the closed-form SN " + num(cf0.omega_sn) + " and PD " +
                     num(cf0.omega_pd) + "), outside --omega-range [" + num(copt.omega_min) + ", " +
                     num(copt.omega_max) + "]: change --omega-range or the amplitude");
    }
    model::Surface s;
    s.amplitude = o.amplitude;
    s.omega = omega0;
    const analysis::ImpactOscillator osc(
        model::make_ball(1.0, 0.0, o.gravity, s, {LawKind::kNewton, {0.0, e}}));
    const analysis::PeriodicOrbit start = analysis::find_periodic_orbit(
        osc, analysis::closed_form_orbit(o.amplitude, omega0, o.gravity, e, o.periods).stable, 1,
        o.periods);
    require(start.converged, "e", "shooting did not converge on the closed-form orbit");
    analysis::BranchEnd end_low{};
    const analysis::Branch br = analysis::continue_both_ways(osc, start, copt, &end_low);
    write_points(branches, e, br);
    nlohmann::json found = nlohmann::json::array();
    const analysis::Bifurcation* pd = nullptr;
    for (const analysis::Bifurcation& b : br.bifurcations) {
      double closed = std::numeric_limits<double>::quiet_NaN();
      if (b.kind == analysis::BifurcationKind::kSaddleNode) closed = cf0.omega_sn;
      if (b.kind == analysis::BifurcationKind::kPeriodDoubling) {
        closed = cf0.omega_pd;
        if (pd == nullptr && std::sin(b.at.z.phase) > 0.0) pd = &b;
      }
      found.push_back(bifurcation_json(b, closed));
      bifs << num(e) << ',' << br.impacts << ',' << br.periods << ',' << analysis::to_string(b.kind)
           << ',' << num(b.at.omega) << ',' << num(b.at.z.phase) << ',' << num(b.at.z.velocity)
           << ',' << num(b.at.apex_max) << ',' << num(b.at.multipliers[0].real()) << ','
           << num(b.at.multipliers[1].real()) << ',' << num(b.at.margin) << ','
           << (std::isfinite(closed) ? num(closed) : "") << '\n';
    }
    nlohmann::json entry = {{"e", e},
                            {"omega_sn_closed_form", cf0.omega_sn},
                            {"omega_pd_closed_form", cf0.omega_pd},
                            {"start_omega", omega0},
                            {"points", br.points.size()},
                            {"end_high", analysis::to_string(br.end)},
                            {"end_low", analysis::to_string(end_low)},
                            {"bifurcations", found}};
    if (o.cascade > 0 && pd != nullptr) {
      const std::vector<analysis::Bifurcation> c =
          analysis::period_doubling_cascade(osc, *pd, 1, o.periods, o.cascade, copt);
      // the stable segments between successive doublings, for the plot
      analysis::ContinuationOptions seg = copt;
      seg.stop_at_bifurcation = true;
      int m = 1, n = o.periods;
      nlohmann::json levels = nlohmann::json::array();
      for (size_t k = 0; k < c.size(); ++k) {
        nlohmann::json level = {
            {"impacts", 2 * m}, {"periods", 2 * n}, {"omega_pd", c[k].at.omega}};
        if (k >= 2) {
          level["ratio"] =
              (c[k - 1].at.omega - c[k - 2].at.omega) / (c[k].at.omega - c[k - 1].at.omega);
        }
        levels.push_back(level);
        if (k > 0)  // c[0] is the branch's own PD, written above
          bifs << num(e) << ',' << m << ',' << n << ",PD," << num(c[k].at.omega) << ','
               << num(c[k].at.z.phase) << ',' << num(c[k].at.z.velocity) << ','
               << num(c[k].at.apex_max) << ',' << num(c[k].at.multipliers[0].real()) << ','
               << num(c[k].at.multipliers[1].real()) << ',' << num(c[k].at.margin) << ",\n";
        if (k + 1 < c.size() && k < 4) {
          seg.ds_max = copt.ds_max * std::pow(0.25, static_cast<double>(k));
          seg.ds = 0.1 * seg.ds_max;
          write_points(branches, e, analysis::continue_period_doubled(osc, c[k], m, n, seg));
        }
        m *= 2;
        n *= 2;
      }
      nlohmann::json cascade = {{"levels", levels}};
      // asked for --cascade K doublings: fewer found means the run did not do what was asked
      if (static_cast<int>(c.size()) < o.cascade + 1) {
        incomplete.push_back("e = " + num(e) + ": " + std::to_string(c.size() - 1) + " of " +
                             std::to_string(o.cascade) + " doublings found");
        cascade["incomplete"] = true;
      }
      if (c.size() >= 3) {
        const double last = c.back().at.omega, prev = c[c.size() - 2].at.omega;
        cascade["omega_accumulation"] = last + (last - prev) / (kFeigenbaum - 1.0);
        cascade["feigenbaum_delta"] = kFeigenbaum;
      }
      entry["cascade"] = cascade;
    }
    per_e.push_back(entry);
  }

  const auto data = dir / "branches.csv";
  const auto bif = dir / "bifurcations.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "orbits.png";
  nlohmann::json summary = {{"amplitude", o.amplitude},
                            {"gravity", o.gravity},
                            {"periods", o.periods},
                            {"omega_range", o.omega_range},
                            {"cascade", o.cascade},
                            {"restitutions", per_e},
                            {"files",
                             {{"branches", data.string()},
                              {"bifurcations", bif.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, branches.str());
  files.write(bif, bifs.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    files.draw(png, js, [&] {
      run_plot_script("orbits.py",
                      {"--branches", files.temporary(data).string(), "--bifurcations",
                       files.temporary(bif).string(), "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  if (!incomplete.empty()) {
    std::string what;
    for (const std::string& w : incomplete) what += (what.empty() ? "" : "; ") + w;
    std::cerr << "clatter: orbits: the cascade is incomplete (" << what << ")\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_orbits(CLI::App& app) {
  auto o = std::make_shared<OrbitsCliOptions>();
  auto g = std::make_shared<OrbitProblemOptions>();
  CLI::App* sub = app.add_subcommand(
      "orbits",
      "A periodic orbit of a scenario's model by shooting (orbits SCENARIO ...), or, without a "
      "scenario, the continuation in omega of the orbits of a ball on A sin(wt)");
  add_orbit_problem_options(sub, *g, false, false);
  sub->add_option("--e", o->e, "Newton restitutions in (0, 1)")->capture_default_str();
  sub->add_option("--amplitude", o->amplitude, "surface amplitude A [m]")->capture_default_str();
  sub->add_option("--gravity", o->gravity, "g [m/s^2]")->capture_default_str();
  sub->add_option("--periods", o->periods, "forcing periods per impact, N in [1, 16]")
      ->capture_default_str();
  sub->add_option("--omega-range", o->omega_range, "LO HI: the branches end outside [rad/s]")
      ->expected(2)
      ->capture_default_str();
  sub->add_option("--cascade", o->cascade,
                  "follow the period-doubling cascade this many doublings deep (0 to 8)")
      ->capture_default_str();
  sub->add_option("--out", o->out, "output directory")->capture_default_str();
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o, g, sub] {
    // each mode refuses the options only the other one reads, instead of ignoring them
    const auto refuse = [sub](std::initializer_list<const char*> names, const char* why) {
      for (const char* name : names)
        require(sub->count(name) == 0, name, std::string("applies to ") + why);
    };
    if (!g->scenario.empty()) {
      refuse({"--e", "--amplitude", "--gravity", "--omega-range", "--cascade"},
             "the ball's continuation without a scenario (clatter orbits --e ...)");
      g->periods = o->periods;  // the same meaning: forcing periods per orbit
      return run_orbit_cli(*g, o->out == "out/orbits" ? "" : o->out, o->plot);
    }
    refuse({"--solve", "--frequency", "--phase", "--anchor", "--drift", "--period",
            "--impact-section", "--impacts", "--max-period", "--closed", "--modulo-symmetry",
            "--transient", "--monodromy", "--tol", "--max-iter", "--segments"},
           "a scenario's orbit (clatter orbits SCENARIO ...)");
    return run_orbits_cli(*o);
  };
}

}  // namespace clatter::cli
