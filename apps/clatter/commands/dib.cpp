// `clatter dib SCENARIO --param NAME --regions A,B [orbit options] [--offset D] [--span S]`: the
// discontinuity-induced bifurcation of a periodic orbit whose impact crosses the boundary between
// regions A and B of Stronge's law ([NDC] §4–5; analysis/critical_point.hpp, dib.hpp). From the
// scenario's state (a guess of the orbit, as [NDC] Table 4) and parameter value: the critical
// value p*, the orbit there (state, period, the impact), the orbits on both sides of the boundary
// at p* ± offset with their region, H and multipliers, 1 − σ and D, the verdict and where each
// branch exists; with --span S > 0 both sides' branches continued over |p − p*| ≤ S for a plot
// as [NDC] Figs 6–7; with --forced each side's region formula is forced and its branch followed
// through p* (the [NDC] procedure), H telling where it is admissible. Also: the scaled law
// variables at the critical impact ([NDC] Table 5), the explicit normal form of [NDC] §5.1
// (α, β, γ, M, N, σ, D, eig α, eig(α + βγ); analysis/feigin_normal_form.hpp) and the one-sided
// slopes of the multipliers' moduli at p* (--kink-step h). --newton variational: the critical
// point's Newton Jacobian from the variational equations. Writes, atomically:
// dib.json (also on stdout), branches.csv (side,region,p,period,stable,max_abs_multiplier,H,
// admissible,<solved components>,abs_lambda1..), dib.png. Exit 3 if p* is not found.

#include <cmath>
#include <complex>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/feigin_normal_form.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/core/error.hpp"
#include "clatter/laws/stronge_scaling.hpp"
#include "commands/commands.hpp"
#include "commands/json_output.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct DibCliOptions {
  OrbitProblemOptions problem;
  std::string param;
  std::vector<int> regions;
  int impact{0};
  double offset{1e-5};
  double span{0.0};
  double kink_step{1e-3};
  std::string newton{"differences"};
  bool forced{false};
  std::string out;
  bool plot{true};
};

nlohmann::json multipliers_json(const analysis::Orbit& o) {
  nlohmann::json m = nlohmann::json::array();
  for (const auto& l : o.multipliers)
    m.push_back({{"re", l.real()}, {"im", l.imag()}, {"abs", std::abs(l)}});
  return m;
}

int run_dib(const DibCliOptions& o) {
  require(!o.param.empty(), "param", "name the parameter");
  require(o.regions.size() == 2, "regions", "give the two regions of the boundary, e.g. 5,9");
  require(o.offset > 0.0 && std::isfinite(o.offset) && o.offset < 0.1, "offset",
          "must lie in (0, 0.1)", o.offset);
  require(o.span >= 0.0 && std::isfinite(o.span), "span", "must be >= 0", o.span);
  require(o.kink_step >= 0.0 && o.kink_step < 0.1, "kink-step", "must lie in [0, 0.1)",
          o.kink_step);
  const OrbitSetup setup = make_orbit_setup(o.problem);
  const app::OrbitSetup& s = setup.orbit;
  analysis::CriticalPointOptions co;
  co.parameter = o.param;
  co.impact = o.impact;
  co.region_a = o.regions[0];
  co.region_b = o.regions[1];
  require(o.newton == "differences" || o.newton == "variational", "newton",
          "must be differences or variational");
  co.jacobian = o.newton == "variational" ? analysis::CriticalJacobian::kVariational
                                          : analysis::CriticalJacobian::kDifferences;
  analysis::validate(co);
  (void)s.problem.model->parameter(o.param);  // names the known parameters if unknown
  const analysis::CriticalPoint cp = analysis::locate_critical_point(s.problem, s.guess, co);
  const std::vector<std::string> names = analysis::state_names(*s.problem.model);
  nlohmann::json j = {{"scenario", o.problem.scenario},
                      {"parameter", o.param},
                      {"regions", o.regions},
                      {"converged", cp.converged},
                      {"message", cp.message}};
  if (!cp.converged) {
    std::cout << j.dump(2) << "\n";
    std::cerr << "clatter: dib: the critical point was not found: " << cp.message << "\n";
    return 3;
  }
  nlohmann::json u = nlohmann::json::object();
  for (std::size_t k = 0; k < s.problem.solved.size(); ++k)
    u[names[static_cast<std::size_t>(s.problem.solved[k])]] = cp.u(static_cast<Eigen::Index>(k));
  nlohmann::json impact = {{"t", cp.impact.t},
                           {"region", cp.impact.region},
                           {"v_pre", {cp.impact.v_pre.x(), cp.impact.v_pre.y()}}};
  nlohmann::json q = nlohmann::json::object();
  for (Eigen::Index i = 0; i < cp.impact.q.size(); ++i)
    q[names[static_cast<std::size_t>(i)]] = cp.impact.q(i);
  impact["q"] = q;
  // the scaled law variables of [NDC] §3.2 / Table 5 at the critical impact
  if (cp.impact.v_pre.y() < 0.0) {
    const auto m_star = s.problem.model->with_parameter(o.param, cp.p);
    const model::Contact& contact = m_star->contact(cp.impact.contact);
    model::MassFactor mass;
    m_star->factor_mass(cp.impact.t, cp.impact.q, mass);
    model::ContactGeometry k;
    m_star->contact_geometry(cp.impact.contact, cp.impact.t, cp.impact.q, cp.impact.qd_pre, k);
    const model::VecQ MT = mass.solve(k.J.row(0).transpose());
    const model::VecQ MN = mass.solve(k.J.row(1).transpose());
    const ContactMatrix W{k.J.row(0).dot(MT), k.J.row(0).dot(MN), k.J.row(1).dot(MN)};
    const StrongeScaled sc = stronge_scaled(cp.impact.v_pre, W, contact.law.params.mu);
    impact["W"] = {W.A, W.B, W.C};
    impact["scaled"] = {{"B", sc.B}, {"mu", sc.mu}, {"v_T", sc.v_T}};
  }
  j["critical_value"] = cp.p;
  j["iterations"] = cp.iterations;
  j["flows"] = cp.flows;
  j["H"] = cp.H;
  j["start"] = u;
  if (s.problem.section.kind == analysis::OrbitSectionKind::kAutonomous)
    j["period"] = cp.u(cp.u.size() - 1);
  else
    j["period"] =
        2.0 * 3.141592653589793 * s.problem.section.periods /
        s.problem.model->with_parameter(o.param, cp.p)->parameter(s.problem.section.frequency);
  j["impact"] = impact;

  analysis::BoundaryCrossingOptions bo;
  bo.offset = o.offset;
  bo.shooting = s.shooting;
  const analysis::BoundaryCrossing bc = analysis::classify_boundary_crossing(s.problem, cp, co, bo);
  const auto side_json = [&](const analysis::SideOrbit& side) {
    if (!side.found) return nlohmann::json();
    return nlohmann::json{{"p", side.p},
                          {"region", side.region},
                          {"H", side.H},
                          {"period", side.orbit.period},
                          {"stable", side.orbit.stable},
                          {"multipliers", multipliers_json(side.orbit)}};
  };
  j["positive_side"] = side_json(bc.positive);
  j["negative_side"] = side_json(bc.negative);
  j["classification"] =
      bc.message.empty()
          ? nlohmann::json{{"one_minus_sigma", bc.one_minus_sigma},
                           {"one_minus_sigma_error", json_number(bc.one_minus_sigma_error)},
                           {"D", bc.D},
                           {"D_error", json_number(bc.D_error)},
                           {"verdict", bc.verdict},
                           {"continuity", bc.c1 ? "C1" : "C0"},
                           {"H_positive_branch_side", bc.side_positive > 0 ? "above" : "below"},
                           {"H_negative_branch_side", bc.side_negative > 0 ? "above" : "below"}}
          : nlohmann::json{{"message", bc.message}};

  // the explicit normal form of [NDC] §5.1 (analysis/feigin_normal_form.hpp), keys named after
  // the digest's symbols (spec/003_dib.md §5.1); its z is (q, q̇, a) with the anchor in the
  // drifting frame
  const analysis::FeiginNormalForm nf = analysis::feigin_normal_form(s.problem, cp, co);
  if (nf.ok) {
    const auto vec = [](const Eigen::VectorXd& v) {
      return std::vector<double>(v.data(), v.data() + v.size());
    };
    const auto mat = [&](const Eigen::MatrixXd& a) {
      nlohmann::json rows = nlohmann::json::array();
      for (Eigen::Index i = 0; i < a.rows(); ++i) rows.push_back(vec(a.row(i).transpose()));
      return rows;
    };
    const auto eigs = [](const std::vector<std::complex<double>>& v) {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& l : v)
        a.push_back({{"re", l.real()}, {"im", l.imag()}, {"abs", std::abs(l)}});
      return a;
    };
    j["normal_form"] = {{"z", nf.names},
                        {"z_star", vec(nf.z_star)},
                        {"region_g1", nf.region_positive},
                        {"region_g2", nf.region_negative},
                        {"dQ_dz", mat(nf.dQ_dz)},
                        {"dQ_dp", vec(nf.dQ_dp)},
                        {"dg1_dz", mat(nf.dg1_dz)},
                        {"dg1_dp", vec(nf.dg1_dp)},
                        {"dg2_minus_g1_dH", vec(nf.jump)},
                        {"dg2_minus_g1_dH_closed_form", vec(nf.jump_closed_form)},
                        {"gamma", vec(nf.gamma.transpose())},
                        {"N", nf.N},
                        {"alpha", mat(nf.alpha)},
                        {"beta", vec(nf.beta)},
                        {"M", vec(nf.M)},
                        {"sigma", nf.sigma},
                        {"one_minus_sigma", nf.one_minus_sigma},
                        {"D", nf.D},
                        {"eig_alpha", eigs(nf.multipliers_positive)},
                        {"eig_alpha_plus_beta_gamma", eigs(nf.multipliers_negative)},
                        {"verdict", nf.verdict}};
  } else {
    j["normal_form"] = {{"message", nf.message}};
  }
  // the multipliers at p* from each side and their one-sided slopes (the kink of a C¹ boundary)
  if (bc.message.empty() && o.kink_step > 0.0) {
    const analysis::MultiplierKink mk =
        analysis::multiplier_kink(s.problem, cp, co, bc, o.kink_step, s.shooting);
    j["multiplier_kink"] = mk.found ? nlohmann::json{{"h", mk.h},
                                                     {"abs_positive", mk.abs_positive},
                                                     {"abs_negative", mk.abs_negative},
                                                     {"slope_positive", mk.slope_positive},
                                                     {"slope_negative", mk.slope_negative},
                                                     {"jump", mk.jump},
                                                     {"slope_jump", mk.slope_jump},
                                                     {"max_jump", mk.max_jump},
                                                     {"max_slope_jump", mk.max_slope_jump}}
                                    : nlohmann::json{{"message", mk.message}};
  }

  // the branches of both sides, away from p*
  std::ostringstream csv;
  csv.precision(15);
  csv << "side,region,p,period,stable,max_abs_multiplier,H,admissible";
  for (int i : s.problem.solved) csv << ',' << names[static_cast<std::size_t>(i)];
  const std::size_t nl = bc.positive.found ? bc.positive.orbit.multipliers.size() : 0;
  for (std::size_t k = 1; k <= nl; ++k) csv << ",abs_lambda" << k;
  csv << '\n';
  for (const analysis::SideOrbit* side : {&bc.positive, &bc.negative}) {
    if (!side->found) continue;
    const std::string label = side == &bc.positive ? "H>0" : "H<0";
    // the side's model at p: the law as it is, or (--forced) the side's region formula forced
    const auto model_at = [&](double p) -> std::shared_ptr<const model::System> {
      const std::shared_ptr<const model::System> m(s.problem.model->with_parameter(o.param, p));
      return o.forced ? analysis::with_forced_region(*m, cp.impact.contact, side->region) : m;
    };
    std::vector<analysis::OrbitPoint> points;
    if (o.span > 0.0) {
      analysis::PeriodicProblem pq = s.problem;
      pq.model = model_at(side->p);
      analysis::OrbitBranchOptions br;
      br.parameter = o.param;
      br.p_min = o.forced ? cp.p - o.span : std::min(cp.p, cp.p - o.span);
      br.p_max = o.forced ? cp.p + o.span : std::max(cp.p, cp.p + o.span);
      if (!o.forced) {
        br.p_min = side->p > cp.p ? cp.p : cp.p - o.span;
        br.p_max = side->p > cp.p ? cp.p + o.span : cp.p;
      }
      br.ds = std::min(0.1 * o.span, 0.01);
      br.ds_max = std::max(br.ds, 0.05 * o.span);
      br.max_points = 400;
      analysis::Orbit start = side->orbit;
      start.converged = true;
      // away from p*, and with the region forced also through it
      std::vector<int> directions{side->p > cp.p ? 1 : -1};
      if (o.forced) directions.push_back(-directions.front());
      for (const int d : directions) {
        br.direction = d;
        const analysis::OrbitBranch b = analysis::continue_orbits(pq, start, br);
        points.insert(points.end(), b.points.begin(), b.points.end());
      }
    } else {
      points.push_back(
          analysis::orbit_point(s.problem, *model_at(side->p), side->p, side->orbit, {}));
    }
    for (const analysis::OrbitPoint& pt : points) {
      const int region = pt.itinerary.empty() ? 0 : pt.itinerary.front().second;
      double H = std::nan("");
      analysis::PeriodicProblem pq = s.problem;
      pq.model = model_at(pt.p);
      (void)analysis::impact_boundary_value(pq, *pq.model, pt.u, co, H);
      const bool admissible = std::isfinite(H) && ((H > 0.0) == (side == &bc.positive));
      csv << label << ',' << region << ',' << pt.p << ',' << pt.period << ',' << (pt.stable ? 1 : 0)
          << ',' << (pt.multipliers.empty() ? 0.0 : std::abs(pt.multipliers.front())) << ',' << H
          << ',' << (admissible ? 1 : 0);
      for (Eigen::Index k = 0;
           k < pt.u.size() && k < static_cast<Eigen::Index>(s.problem.solved.size()); ++k)
        csv << ',' << pt.u(k);
      for (std::size_t k = 0; k < nl; ++k)
        csv << ',' << (k < pt.multipliers.size() ? std::abs(pt.multipliers[k]) : 0.0);
      csv << '\n';
    }
  }
  const std::filesystem::path dir = output_folder(o.out, setup.scenario.name + "_dib", "scenario");
  const auto js = dir / "dib.json";
  const auto data = dir / "branches.csv";
  const auto png = dir / "dib.png";
  j["files"] = {{"dib", js.string()},
                {"branches", data.string()},
                {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, csv.str());
  files.write(js, j.dump(2) + "\n");
  if (o.plot) {
    const std::string unit = parameter_unit(*s.problem.model, o.param);
    files.draw(png, js, [&] {
      run_plot_script(
          "dib.py",
          {"--branches", files.temporary(data).string(), "--param", o.param, "--param-unit", unit,
           "--critical", std::to_string(cp.p), "--title",
           setup.scenario.name + ": the orbit's branches at the boundary crossing in " + o.param,
           "--out", files.temporary(png).string()},
          "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << j.dump(2) << "\n";
  return bc.message.empty() ? 0 : 3;
}

}  // namespace

Run add_dib(CLI::App& app) {
  auto o = std::make_shared<DibCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "dib",
      "Discontinuity-induced bifurcation at a boundary of Stronge's law: critical value, both "
      "sides' orbits, Feigin's 1 - sigma and D, the verdict");
  add_orbit_problem_options(sub, o->problem, true);
  sub->add_option("--param", o->param, "the parameter, by name")->required();
  sub->add_option("--regions", o->regions, "the two regions of the boundary, e.g. 5,9")
      ->delimiter(',')
      ->required();
  sub->add_option("--impact", o->impact, "which impact of the orbit (0: the first)")
      ->capture_default_str();
  sub->add_option("--offset", o->offset, "|p - p*| of the two sides' orbits")
      ->capture_default_str();
  sub->add_option("--span", o->span, "continue both sides' branches this far from p* (0: none)")
      ->capture_default_str();
  sub->add_option("--newton", o->newton,
                  "Jacobian of the critical point's Newton: differences (of the flow) or "
                  "variational (equations + saltation, the law's exact Jacobian)")
      ->capture_default_str();
  sub->add_option("--kink-step", o->kink_step,
                  "h of the multipliers' one-sided slopes at p* (branches at p* +- h, 2h; 0: "
                  "skip)")
      ->capture_default_str();
  sub->add_flag("--forced", o->forced,
                "continue each side with its region's formula forced, through p* (admissible "
                "where H has the side's sign)");
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_dib)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_dib(*o); };
}

}  // namespace clatter::cli
