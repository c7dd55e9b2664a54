#include "clatter/app/ball_orbits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "clatter/analysis/periodic_problem.hpp"
#include "clatter/analysis/shooting.hpp"
#include "clatter/analysis/state_space.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "json_views.hpp"

namespace clatter::app {

namespace {

using detail::json_number;
using std::numbers::pi;

constexpr double kFeigenbaum = 4.669201609102990;
constexpr double kSectionPhase = pi;  // φ_s: clear of the impacts (the file comment)
constexpr const char* kOmega = "surface.omega";

// 12 significant digits; "inf" for an infinite margin, "" for a value the orbit lacks
std::string num(double x) {
  if (std::isnan(x)) return "";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

// the continuation's options: the ω range, steps in (y [m], ẏ [m/s], ω [rad/s]), and tolerances
// tight enough that SN and PD land on the closed form to ~1e-9
analysis::OrbitBranchOptions branch_options(const BallOrbitsRequest& r) {
  analysis::OrbitBranchOptions o;
  o.parameter = kOmega;
  o.p_min = r.omega_min;
  o.p_max = r.omega_max;
  o.ds = 0.01;
  o.ds_max = 0.1;
  o.max_points = 4000;
  o.tol = 1e-10;
  o.locate_tol = 1e-10;
  o.multiplier_tol = 1e-4;
  o.max_multiplier = 1e4;
  return o;
}

// the events of one run of the orbit that start or end a flight
class Flights : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override {
    // a landing: an impact, or a closure (the impact whose rebound is below the engine's V_tol,
    // or the end of a chatter); a take-off: an impact, or a lift-off after riding the table
    const bool impact = e.kind == hybrid::EventKind::kImpact;
    if (impact || e.kind == hybrid::EventKind::kClosure) landings.push_back(e);
    if (impact || e.kind == hybrid::EventKind::kLiftOff) take_offs.push_back(e);
  }
  std::vector<hybrid::EventRecord> landings, take_offs;
};

// one orbit of `problem` at ω = p with unknowns u, described by its run from the section
BallOrbitPoint describe(const analysis::PeriodicProblem& problem, const analysis::OrbitPoint& pt,
                        double gravity) {
  const std::unique_ptr<model::System> m = problem.model->with_parameter(kOmega, pt.p);
  Flights rec;
  const analysis::FlowRun run = analysis::run_flow(problem, *m, pt.u, &rec);
  BallOrbitPoint b;
  b.periods = problem.section.periods;
  b.omega = pt.p;
  b.impacts = static_cast<int>(rec.landings.size());
  b.stable = pt.stable;
  b.margin = pt.margin;
  for (std::size_t i = 0; i < 2 && i < pt.multipliers.size(); ++i)
    b.multipliers[i] = pt.multipliers[i];
  b.phase = b.velocity = b.apex_min = b.apex_max = std::nan("");
  if (!run.ok() || rec.landings.empty() || rec.take_offs.empty()) return b;  // never flies
  const hybrid::EventRecord& first = rec.landings.front();
  b.phase = std::remainder(pt.p * first.t, 2.0 * pi);  // ∈ [−π, π]
  if (b.phase >= pi) b.phase -= 2.0 * pi;
  b.velocity = first.qd_post(1);
  b.apex_min = std::numeric_limits<double>::infinity();
  b.apex_max = -b.apex_min;
  for (const hybrid::EventRecord& e : rec.take_offs) {
    const double v = e.qd_post(1), y = e.q(1);
    const double apex = v > 0.0 ? y + 0.5 * v * v / gravity : y;
    b.apex_min = std::min(b.apex_min, apex);
    b.apex_max = std::max(b.apex_max, apex);
  }
  return b;
}

// a bifurcation of the cascade's level-th doubled branch (0: the n-period branch, whose SN and
// PD have closed forms: listed beside the one at that ω, not beside another fold or doubling
// the branch may have where the closed form's assumptions fail, e.g. where the ball rides)
BallBifurcation describe(const analysis::PeriodicProblem& problem,
                         const analysis::OrbitBifurcation& b, double gravity,
                         const analysis::ClosedFormOrbit& closed, int level) {
  BallBifurcation out{b.kind, describe(problem, b.at, gravity),
                      std::numeric_limits<double>::quiet_NaN(), level};
  const auto near = [&](double w) { return std::abs(b.at.p - w) <= 1e-6 * w; };
  if (level == 0 && b.kind == analysis::OrbitEventKind::kFold && near(closed.omega_sn))
    out.closed_form_omega = closed.omega_sn;
  if (level == 0 && b.kind == analysis::OrbitEventKind::kPeriodDoubling && near(closed.omega_pd))
    out.closed_form_omega = closed.omega_pd;
  return out;
}

// the orbit problem of the ball at ω on the section ωt ≡ φ_s, unknowns (y, ẏ), and the state
// there of the closed form's stable orbit (its impact at phase φ, velocity v, then free flight)
analysis::PeriodicProblem ball_problem(const BallOrbitsRequest& r, double e, double omega,
                                       Eigen::VectorXd& guess) {
  model::Surface s;
  s.amplitude = r.amplitude;
  s.omega = omega;
  auto ball = std::make_shared<const model::PlanarBodyModel>(
      model::make_ball(1.0, 0.0, r.gravity, s, {LawKind::kNewton, {0.0, e}}));
  const analysis::ImpactState z =
      analysis::closed_form_orbit(r.amplitude, omega, r.gravity, e, r.periods).stable;
  const double tau = (kSectionPhase - z.phase) / omega;  // impact → section, φ ∈ (0, π/2)
  const double y = r.amplitude * std::sin(z.phase) + z.velocity * tau - 0.5 * r.gravity * tau * tau;
  const double yd = z.velocity - r.gravity * tau;
  const int iy = analysis::state_index(*ball, "y", "solve");
  const int iyd = analysis::state_index(*ball, "ydot", "solve");
  analysis::StateVector x = analysis::StateVector::Zero(analysis::state_dimension(*ball));
  x(iy) = y;
  x(iyd) = yd;
  analysis::OrbitSection section;
  section.kind = analysis::OrbitSectionKind::kForced;
  section.frequency = kOmega;
  section.phase = kSectionPhase;
  section.periods = r.periods;
  analysis::PeriodicProblem p =
      analysis::make_periodic_problem(ball, hybrid::SimulationOptions{}, section, {iy, iyd}, x);
  guess = analysis::unknowns_of(p, x, 0.0);
  return p;
}

void check_start_in_range(const BallOrbitsRequest& r, double e, const BallOrbitsOfE& o) {
  if (o.start_omega > r.omega_min && o.start_omega < r.omega_max) return;
  // the orbits move with A and g (ω ∝ √(g/A)): name what the user changed
  const BallOrbitsRequest defaults;
  const char* field = r.amplitude != defaults.amplitude ? "amplitude"
                      : r.gravity != defaults.gravity   ? "gravity"
                                                        : "omega_range";
  throw InvalidArgument(
      field, "the period orbits of e = " + num(e) + " with amplitude " + num(r.amplitude) +
                 " and gravity " + num(r.gravity) + " start at omega = " + num(o.start_omega) +
                 " (between the closed-form SN " + num(o.closed_form.omega_sn) + " and PD " +
                 num(o.closed_form.omega_pd) + "), outside the omega range [" + num(r.omega_min) +
                 ", " + num(r.omega_max) + "]: change the omega range or the amplitude");
}

// the cascade from the stable branch's PD: each doubled branch followed to its first bifurcation
void follow_cascade(const BallOrbitsRequest& r, const analysis::PeriodicProblem& problem,
                    const analysis::OrbitBifurcation& pd, BallOrbitsOfE& o) {
  analysis::OrbitBranchOptions seg = branch_options(r);
  seg.stop_at_bifurcation = true;
  analysis::PeriodicProblem level = problem;
  analysis::OrbitBifurcation at = pd;
  // level k: the PD where the orbit of 2^(k+1) impacts in 2^(k+1) n periods is born
  const auto level_of = [&](int k, double omega) {
    const int m = 2 << k;
    return CascadeLevel{m, m * r.periods, omega};
  };
  o.cascade.push_back(level_of(0, pd.at.p));
  for (int k = 0; k < r.cascade; ++k) {
    // The next doubling is δ ≈ 4.67 times closer, so the steps shrink with the levels: by 2 per
    // level first (by 4, the steps of the deep levels fall below what the differences of a long
    // flow resolve, and the corrector fails near the pitchfork: e = 0.9's 64-impact branch), by
    // 4 if that oversteps the next doubling (the first point is not the stable orbit a
    // supercritical PD gives birth to: e = 0.1's 128-impact branch).
    analysis::OrbitBranch b;
    for (const double shrink : {0.5, 0.25}) {
      seg.ds_max = branch_options(r).ds_max * std::pow(shrink, k);
      seg.ds = 0.1 * seg.ds_max;
      b = analysis::continue_period_doubled(level, at, seg);
      const bool found = b.end == analysis::OrbitBranchEnd::kBifurcation &&
                         b.bifurcations.back().kind == analysis::OrbitEventKind::kPeriodDoubling;
      if (found && b.points.front().stable) break;
      b.end = analysis::OrbitBranchEnd::kStepTooSmall;
    }
    if (b.end != analysis::OrbitBranchEnd::kBifurcation) break;
    level = analysis::doubled_problem(level);
    for (const analysis::OrbitPoint& pt : b.points)
      o.points.push_back(describe(level, pt, r.gravity));
    at = b.bifurcations.back();
    o.bifurcations.push_back(describe(level, at, r.gravity, o.closed_form, k + 1));
    o.cascade.push_back(level_of(k + 1, at.at.p));
  }
  // asked for K doublings: fewer found means the run did not do what was asked
  o.incomplete = static_cast<int>(o.cascade.size()) < r.cascade + 1;
}

BallOrbitsOfE run_one(const BallOrbitsRequest& r, double e) {
  BallOrbitsOfE o;
  o.e = e;
  o.closed_form = analysis::closed_form_orbit(r.amplitude, 1.0, r.gravity, e, r.periods);
  o.start_omega = 0.5 * (o.closed_form.omega_sn + o.closed_form.omega_pd);
  check_start_in_range(r, e, o);
  Eigen::VectorXd guess;
  const analysis::PeriodicProblem problem = ball_problem(r, e, o.start_omega, guess);
  analysis::ShootingOptions shooting;
  shooting.tol = 1e-12;
  const analysis::Orbit start = analysis::find_orbit(problem, *problem.model, guess, shooting);
  require(start.converged, "e", "shooting did not converge on the closed-form orbit", e);
  analysis::OrbitBranchOptions bo = branch_options(r);
  const analysis::OrbitBranch up = analysis::continue_orbits(problem, start, bo);
  bo.direction = -1;
  const analysis::OrbitBranch down = analysis::continue_orbits(problem, start, bo);
  o.end_high = up.end;
  o.end_low = down.end;
  o.end_high_message = up.message;
  o.end_low_message = down.message;
  // ordered along the branch: the decreasing part reversed, then the increasing one (whose
  // first point is the start, the decreasing part's first too)
  for (auto it = down.points.rbegin(); it != down.points.rend(); ++it)
    o.points.push_back(describe(problem, *it, r.gravity));
  for (std::size_t i = 1; i < up.points.size(); ++i)
    o.points.push_back(describe(problem, up.points[i], r.gravity));
  o.branch_points = static_cast<int>(o.points.size());
  for (auto it = down.bifurcations.rbegin(); it != down.bifurcations.rend(); ++it)
    o.bifurcations.push_back(describe(problem, *it, r.gravity, o.closed_form, 0));
  for (const analysis::OrbitBifurcation& b : up.bifurcations)
    o.bifurcations.push_back(describe(problem, b, r.gravity, o.closed_form, 0));
  if (r.cascade == 0) return o;
  // the stable branch's PD (sin φ > 0: the impact while the table rises)
  const analysis::OrbitBifurcation* pd = nullptr;
  for (const analysis::OrbitBifurcation& b : up.bifurcations)
    if (pd == nullptr && b.kind == analysis::OrbitEventKind::kPeriodDoubling) pd = &b;
  if (pd != nullptr && std::sin(describe(problem, pd->at, r.gravity).phase) > 0.0)
    follow_cascade(r, problem, *pd, o);
  else
    o.incomplete = true;
  return o;
}

void write_point(std::ostringstream& csv, double e, const BallOrbitPoint& p) {
  csv << num(e) << ',' << p.impacts << ',' << p.periods << ',' << num(p.omega) << ','
      << num(p.phase) << ',' << num(p.velocity) << ',' << num(p.apex_min) << ',' << num(p.apex_max)
      << ',' << num(p.multipliers[0].real()) << ',' << num(p.multipliers[0].imag()) << ','
      << num(p.multipliers[1].real()) << ',' << num(p.multipliers[1].imag()) << ','
      << (p.stable ? 1 : 0) << ',' << num(p.margin) << '\n';
}

void write_bifurcation(std::ostringstream& csv, double e, const BallBifurcation& b) {
  const BallOrbitPoint& p = b.at;
  csv << num(e) << ',' << p.impacts << ',' << p.periods << ',' << analysis::to_string(b.kind) << ','
      << num(p.omega) << ',' << num(p.phase) << ',' << num(p.velocity) << ',' << num(p.apex_max)
      << ',' << num(p.multipliers[0].real()) << ',' << num(p.multipliers[1].real()) << ','
      << num(p.margin) << ',' << num(b.closed_form_omega) << '\n';
}

nlohmann::json cascade_json(const BallOrbitsOfE& o) {
  const std::vector<CascadeLevel>& c = o.cascade;
  nlohmann::json levels = nlohmann::json::array();
  for (std::size_t k = 0; k < c.size(); ++k) {
    nlohmann::json level = {
        {"impacts", c[k].impacts}, {"periods", c[k].periods}, {"omega_pd", c[k].omega_pd}};
    if (k >= 2)
      level["ratio"] =
          (c[k - 1].omega_pd - c[k - 2].omega_pd) / (c[k].omega_pd - c[k - 1].omega_pd);
    levels.push_back(level);
  }
  nlohmann::json cascade = {{"levels", levels}};
  if (o.incomplete) cascade["incomplete"] = true;
  if (c.size() >= 3) {
    const double last = c.back().omega_pd, prev = c[c.size() - 2].omega_pd;
    cascade["omega_accumulation"] = last + (last - prev) / (kFeigenbaum - 1.0);
    cascade["feigenbaum_delta"] = kFeigenbaum;
  }
  return cascade;
}

}  // namespace

void validate(const BallOrbitsRequest& r) {
  require(!r.e.empty(), "e", "give at least one restitution");
  for (const double e : r.e)
    require(e > 0.0 && e < 1.0, "e", "each restitution must lie in (0, 1)", e);
  require(r.amplitude > 0.0 && std::isfinite(r.amplitude), "amplitude",
          "must be positive and finite [m]", r.amplitude);
  require(r.gravity > 0.0 && std::isfinite(r.gravity), "gravity",
          "must be positive and finite [m/s^2]", r.gravity);
  require(r.periods >= 1 && r.periods <= 16, "periods", "must lie in [1, 16]");
  require(r.cascade >= 0 && r.cascade <= 8, "cascade", "must lie in [0, 8]");
  require(std::isfinite(r.omega_min) && r.omega_min > 0.0, "omega_min",
          "must be positive and finite [rad/s]", r.omega_min);
  require(std::isfinite(r.omega_max) && r.omega_max > r.omega_min, "omega_max",
          "must be finite and > omega_min [rad/s]", r.omega_max);
}

std::vector<BallOrbitsOfE> run_ball_orbits(const BallOrbitsRequest& r) {
  validate(r);
  std::vector<BallOrbitsOfE> out;
  for (const double e : r.e) out.push_back(run_one(r, e));
  return out;
}

std::vector<OutputFile> ball_orbits_files(const BallOrbitsRequest& r,
                                          const std::vector<BallOrbitsOfE>& result,
                                          const std::filesystem::path& folder, bool plot) {
  std::ostringstream branches, bifs;
  branches << "e,impacts,periods,omega,phase,velocity,apex_min,apex_max,lambda1_re,lambda1_im,"
              "lambda2_re,lambda2_im,stable,margin\n";
  bifs << "e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,margin,"
          "closed_form_omega\n";
  nlohmann::json per_e = nlohmann::json::array();
  for (const BallOrbitsOfE& o : result) {
    for (const BallOrbitPoint& p : o.points) write_point(branches, o.e, p);
    nlohmann::json found = nlohmann::json::array();
    for (const BallBifurcation& b : o.bifurcations) {
      write_bifurcation(bifs, o.e, b);
      if (b.level != 0) continue;  // the cascade's are under "cascade"
      found.push_back({{"kind", analysis::to_string(b.kind)},
                       {"omega", b.at.omega},
                       {"phase", json_number(b.at.phase)},
                       {"velocity", json_number(b.at.velocity)},
                       {"apex_max", json_number(b.at.apex_max)},
                       {"multipliers", {b.at.multipliers[0].real(), b.at.multipliers[1].real()}},
                       {"margin", json_number(b.at.margin)},
                       {"closed_form_omega", json_number(b.closed_form_omega)}});
    }
    nlohmann::json entry = {{"e", o.e},
                            {"omega_sn_closed_form", o.closed_form.omega_sn},
                            {"omega_pd_closed_form", o.closed_form.omega_pd},
                            {"start_omega", o.start_omega},
                            {"points", o.branch_points},
                            {"end_high", analysis::to_string(o.end_high)},
                            {"end_low", analysis::to_string(o.end_low)},
                            {"end_high_message", o.end_high_message},
                            {"end_low_message", o.end_low_message},
                            {"bifurcations", found}};
    if (!o.cascade.empty()) entry["cascade"] = cascade_json(o);
    per_e.push_back(entry);
  }
  const auto data = folder / "branches.csv";
  const auto bif = folder / "bifurcations.csv";
  const auto js = folder / "summary.json";
  const nlohmann::json summary = {
      {"amplitude", r.amplitude},
      {"gravity", r.gravity},
      {"periods", r.periods},
      {"omega_range", {r.omega_min, r.omega_max}},
      {"cascade", r.cascade},
      {"restitutions", per_e},
      {"files",
       {{"branches", data.string()},
        {"bifurcations", bif.string()},
        {"plot", plot ? nlohmann::json((folder / "orbits.png").string()) : nlohmann::json()}}}};
  return {{data, branches.str()}, {bif, bifs.str()}, {js, summary.dump(2) + "\n"}};
}

}  // namespace clatter::app
