#include "commands/orbit_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include <iostream>
#include "clatter/core/error.hpp"
#include "clatter/model/motion_symmetry.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

// the first impact of a contact after `skip` of them; stops the run there
class ImpactAfter final : public hybrid::Recorder {
 public:
  ImpactAfter(int contact, long skip) : contact_(contact), skip_(skip) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (found) {
      // a multi-point collision's further events at the same instant: keep the state it leaves
      if (e.t == event.t) {
        event.qd_post = e.qd_post;
        event.modes = e.modes;
      }
      return;
    }
    if (e.kind != hybrid::EventKind::kImpact || e.contact != contact_) return;
    if (e.t == last_counted_) return;  // the contact again in the same collision
    last_counted_ = e.t;
    if (seen_++ < skip_) return;
    found = true;
    event = e;
  }
  bool keep_going() override { return !found; }
  bool found{false};
  hybrid::EventRecord event;

 private:
  int contact_;
  long skip_;
  long seen_{0};
  double last_counted_{std::numeric_limits<double>::quiet_NaN()};
};

class EventTimes final : public hybrid::Recorder {
 public:
  explicit EventTimes(double from) : from_(from) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (e.t >= from_) times.push_back(e.t);
  }
  std::vector<double> times;

 private:
  double from_;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

hybrid::SimulationResult run_to(const io::Scenario& sc, const model::System& m,
                                const hybrid::InitialState& from, double t_end,
                                hybrid::Recorder* rec) {
  hybrid::SimulationOptions o = sc.options;
  o.t_end = t_end;
  o.output_dt = 0.0;
  o.record_events = rec != nullptr;
  const hybrid::SimulationResult r = hybrid::simulate(m, from, o, rec);
  require(r.reason == hybrid::StopReason::kEndTime, "transient",
          std::string("the run to the guess stopped early: ") + r.message);
  return r;
}

hybrid::InitialState state_of(const hybrid::SimulationResult& r) {
  hybrid::InitialState s(r.t, r.q, r.qd, r.aux);
  for (std::size_t c = 0; c < s.closed.size(); ++c) s.closed[c] = hybrid::is_closed(r.modes[c]);
  return s;
}

}  // namespace

void add_orbit_problem_options(CLI::App* sub, OrbitProblemOptions& o, bool scenario_required,
                               bool with_periods) {
  CLI::Option* opt = sub->add_option("scenario", o.scenario, "scenario file (TOML)");
  if (scenario_required) opt->required();
  sub->add_option("--solve", o.solve,
                  "state components solved for, comma-separated (default: all but the anchor)");
  sub->add_option("--frequency", o.frequency,
                  "forced: the parameter holding the forcing frequency (default surface.omega)");
  sub->add_option("--phase", o.phase,
                  "forced: the section's phase omega*t [rad] (default: mid-way between events)");
  if (with_periods)
    sub->add_option("--periods", o.periods, "forced: forcing periods per orbit, in [1, 1000]")
        ->capture_default_str();
  sub->add_option("--anchor", o.anchor, "autonomous: the state component fixed on the section");
  sub->add_option("--drift", o.drift, "autonomous: the parameter giving the anchor's drift rate");
  sub->add_option("--period", o.period, "autonomous: guess of the period T [s]");
  sub->add_option("--impact-section", o.impact,
                  "CONTACT: an impact section, the orbit starts and ends just after impacts of "
                  "this contact (an unforced model; solve the velocities)");
  sub->add_option("--impacts", o.impacts,
                  "impact section: impacts of the end contact per orbit, in [1, 1000]")
      ->capture_default_str();
  sub->add_option("--max-period", o.max_period,
                  "impact section: a flow without its end impact within this [s] fails")
      ->capture_default_str();
  sub->add_option("--closed", o.closed,
                  "contacts closed at the start, comma-separated (a stance: perturbed starts are "
                  "projected onto them)");
  sub->add_flag("--modulo-symmetry", o.modulo_symmetry,
                "the orbit closes on the image of its start under the model's symmetry (a "
                "walker's step; model/motion_symmetry.hpp)");
  sub->add_option("--transient", o.transient,
                  "simulate this many periods from the scenario's start before shooting")
      ->capture_default_str();
  sub->add_option("--monodromy", o.monodromy, "differences or variational")->capture_default_str();
  sub->add_option("--tol", o.tol, "Newton tolerance (relative)")->capture_default_str();
  sub->add_option("--max-iter", o.max_iter, "Newton iterations")->capture_default_str();
  sub->add_option("--segments", o.segments,
                  "multiple shooting with this many segments (forced sections), 1 to 64")
      ->capture_default_str();
}

OrbitSetup make_orbit_setup(const OrbitProblemOptions& o) {
  require(o.monodromy == "differences" || o.monodromy == "variational", "monodromy",
          "must be differences or variational");
  require(std::isfinite(o.transient) && o.transient >= 0.0 && o.transient <= 1e6, "transient",
          "must lie in [0, 1e6] periods", o.transient);
  OrbitSetup s;
  s.scenario = load_scenario_checked(o.scenario, false);
  const io::Scenario& sc = s.scenario;
  const std::shared_ptr<const model::System> m = sc.model;
  s.shooting.tol = o.tol;
  s.shooting.max_iter = o.max_iter;
  s.shooting.monodromy = o.monodromy == "variational" ? analysis::MonodromyMethod::kVariational
                                                      : analysis::MonodromyMethod::kDifferences;
  analysis::validate(s.shooting);

  analysis::OrbitSection sec;
  const bool autonomous = !o.anchor.empty();
  const bool impact = !o.impact.empty();
  hybrid::InitialState guess = sc.initial;
  if (guess.aux.size() == 0) guess.aux = model::VecA::Zero(m->num_aux());
  double T = 0.0;
  double start_time = 0.0;
  if (impact) {
    require(!autonomous && o.frequency.empty() && std::isnan(o.phase) && o.period == 0.0,
            "impact-section",
            "an impact section takes no --anchor, --frequency, --phase or --period");
    sec.kind = analysis::OrbitSectionKind::kImpact;
    std::string names;
    for (int c = 0; c < m->num_contacts(); ++c) {
      if (m->contact(c).name == o.impact) sec.contact = c;
      names += (names.empty() ? "" : ", ") + m->contact(c).name;
    }
    require(sec.contact >= 0, "impact-section",
            "no contact \"" + o.impact + "\" (contacts: " + names + ")");
    sec.impacts = o.impacts;
    sec.max_period = o.max_period;
    // the guess: just after the first impact of the contact once `transient` of them passed
    ImpactAfter hit(sec.contact, static_cast<long>(o.transient));
    hybrid::SimulationOptions so = sc.options;
    so.output_dt = 0.0;
    so.record_events = true;
    const hybrid::SimulationResult r = hybrid::simulate(*m, guess, so, &hit);
    require(hit.found, "impact-section",
            "the scenario's run has no impact of " + o.impact + " after " +
                std::to_string(static_cast<long>(o.transient)) + " of them before its t_end (" +
                r.message + ")");
    const analysis::StateVector x =
        analysis::pack_state(*m, hit.event.q, hit.event.qd_post, hit.event.aux);
    const hybrid::Modes modes = analysis::settled_modes(*m, hit.event.t, x, hit.event.modes);
    guess = hybrid::InitialState(hit.event.t, hit.event.q, hit.event.qd_post, hit.event.aux);
    for (std::size_t c = 0; c < guess.closed.size(); ++c)
      guess.closed[c] = hybrid::is_closed(modes[c]);
    start_time = hit.event.t;
  } else if (autonomous) {
    require(o.frequency.empty() && std::isnan(o.phase), "anchor",
            "an autonomous section takes no --frequency or --phase");
    require(std::isfinite(o.period) && o.period > 0.0, "period",
            "an autonomous section needs the guess --period T > 0 [s]", o.period);
    sec.kind = analysis::OrbitSectionKind::kAutonomous;
    sec.anchor = analysis::state_index(*m, o.anchor, "anchor");
    sec.drift = o.drift;
    if (!o.drift.empty()) (void)m->parameter(o.drift);
    T = o.period;
    if (o.transient > 0.0)
      guess = state_of(run_to(sc, *m, guess, guess.t + o.transient * T, nullptr));
  } else {
    require(o.drift.empty() && o.period == 0.0, "frequency",
            "a forced section takes no --drift or --period (give --anchor for an autonomous one)");
    sec.kind = analysis::OrbitSectionKind::kForced;
    sec.frequency = o.frequency.empty() ? "surface.omega" : o.frequency;
    sec.periods = o.periods;
    require(o.periods >= 1 && o.periods <= 1000, "periods", "must lie in [1, 1000]");
    double omega = 0.0;
    try {
      omega = m->parameter(sec.frequency);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(
          "frequency", std::string(e.what()) + " (an unforced model needs --anchor: autonomous)");
    }
    require(omega > 0.0, "frequency", "the forcing frequency must be > 0 [rad/s]", omega);
    const double Tf = 2.0 * std::numbers::pi / omega;
    T = o.periods * Tf;
    const double t_guess = guess.t + o.transient * Tf;
    double phase = o.phase;
    if (std::isnan(phase)) {
      // the middle of the longest event-free stretch in the n periods after the transient
      EventTimes ev(t_guess);
      const hybrid::SimulationResult r = run_to(sc, *m, guess, t_guess + T, &ev);
      std::vector<double> ph;
      for (double t : ev.times)
        ph.push_back(std::fmod(omega * t, 2.0 * std::numbers::pi * o.periods));
      std::sort(ph.begin(), ph.end());
      phase = std::fmod(omega * t_guess, 2.0 * std::numbers::pi);
      if (!ph.empty()) {
        double best = -1.0;
        const double span = 2.0 * std::numbers::pi * o.periods;
        for (std::size_t i = 0; i < ph.size(); ++i) {
          const double next = i + 1 < ph.size() ? ph[i + 1] : ph[0] + span;
          if (next - ph[i] > best) {
            best = next - ph[i];
            phase = ph[i] + 0.5 * best;
          }
        }
      }
      (void)r;
    }
    require(std::isfinite(phase), "phase", "must be finite [rad]");
    sec.phase = phase;
    // the guess: the state at the first section time t ≡ phase/ω (mod T_f) after the transient
    double t_sec = phase / omega;
    t_sec += std::ceil((t_guess - t_sec) / Tf) * Tf;
    if (t_sec > guess.t) guess = state_of(run_to(sc, *m, guess, t_sec, nullptr));
    sec.phase = omega * t_sec;  // the section time itself: t0 = phase/ω
  }

  sec.modulo_symmetry = o.modulo_symmetry;
  for (const std::string& name : split(o.closed)) {
    int c = -1;
    std::string names;
    for (int k = 0; k < m->num_contacts(); ++k) {
      if (m->contact(k).name == name) c = k;
      names += (names.empty() ? "" : ", ") + m->contact(k).name;
    }
    require(c >= 0, "closed", "no contact \"" + name + "\" (contacts: " + names + ")");
    guess.closed[static_cast<std::size_t>(c)] = true;
  }
  std::vector<int> solved;
  if (o.solve.empty()) {
    for (int i = 0; i < analysis::state_dimension(*m); ++i)
      if (i != sec.anchor && (!impact || i >= m->nq())) solved.push_back(i);  // impact: q̇, a
  } else {
    for (const std::string& name : split(o.solve))
      solved.push_back(analysis::state_index(*m, name, "solve"));
  }
  const analysis::StateVector x0 = analysis::pack_state(*m, guess.q, guess.qd, guess.aux);
  s.problem =
      analysis::make_periodic_problem(m, sc.options, sec, solved, x0, guess.closed, start_time);
  s.guess = analysis::unknowns_of(s.problem, x0, T);
  return s;
}

nlohmann::json orbit_json(const OrbitSetup& s, const analysis::Orbit& orbit) {
  const model::System& m = *s.problem.model;
  const std::vector<std::string> names = analysis::state_names(m);
  nlohmann::json state = nlohmann::json::object();
  for (std::size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < orbit.x0.size(); ++i)
    state[names[i]] = orbit.x0(static_cast<Eigen::Index>(i));
  nlohmann::json solved = nlohmann::json::array();
  for (int i : s.problem.solved) solved.push_back(names[static_cast<std::size_t>(i)]);
  nlohmann::json mult = nlohmann::json::array();
  for (const auto& l : orbit.multipliers)
    mult.push_back({{"re", l.real()}, {"im", l.imag()}, {"abs", std::abs(l)}});
  nlohmann::json events = nlohmann::json::array();
  for (const hybrid::EventRecord& e : orbit.events) {
    nlohmann::json j = {{"t", e.t},
                        {"kind", hybrid::to_string(e.kind)},
                        {"contact", e.contact >= 0 ? m.contact(e.contact).name : ""}};
    if (e.kind == hybrid::EventKind::kImpact) {
      j["region"] = e.region;
      j["v_pre"] = {e.v_pre.x(), e.v_pre.y()};
      j["v_post"] = {e.v_post.x(), e.v_post.y()};
    }
    events.push_back(j);
  }
  const analysis::OrbitSection& sec = s.problem.section;
  nlohmann::json section =
      sec.kind == analysis::OrbitSectionKind::kForced ? nlohmann::json{{"kind", "forced"},
                                                                       {"frequency", sec.frequency},
                                                                       {"phase", sec.phase},
                                                                       {"periods", sec.periods}}
      : sec.kind == analysis::OrbitSectionKind::kImpact
          ? nlohmann::json{{"kind", "impact"},
                           {"contact", m.contact(sec.contact).name},
                           {"impacts", sec.impacts}}
          : nlohmann::json{{"kind", "autonomous"},
                           {"anchor", names[static_cast<std::size_t>(sec.anchor)]},
                           {"drift", sec.drift}};
  if (sec.modulo_symmetry)
    section["symmetry"] = m.motion_symmetry() != nullptr ? m.motion_symmetry()->description() : "";
  return {{"converged", orbit.converged},
          {"message", orbit.message},
          {"residual", orbit.residual},
          {"iterations", orbit.iterations},
          {"section", section},
          {"t0", orbit.t0},
          {"period", orbit.period},
          {"solved", solved},
          {"state", state},
          {"multipliers", mult},
          {"stable", orbit.stable},
          {"events", events}};
}

namespace {

// samples of the orbit's state for its time series
class Samples final : public hybrid::Recorder {
 public:
  Samples(const model::System& m, std::ostream& out) : m_(m), out_(out) {}
  void on_sample(const hybrid::Sample& s) override {
    out_ << s.t;
    const analysis::StateVector x = analysis::pack_state(m_, s.q, s.qd, s.aux);
    for (Eigen::Index i = 0; i < x.size(); ++i) out_ << ',' << x(i);
    out_ << '\n';
  }

 private:
  const model::System& m_;
  std::ostream& out_;
};

}  // namespace

int run_orbit_cli(const OrbitProblemOptions& o, const std::string& out, bool plot) {
  const OrbitSetup s = make_orbit_setup(o);
  const analysis::Orbit orbit =
      analysis::find_orbit(s.problem, *s.problem.model, s.guess, s.shooting);
  const std::filesystem::path dir = output_folder(out, s.scenario.name + "_orbit", "scenario");
  const auto js = dir / "orbit.json";
  const auto ts = dir / "timeseries.csv";
  const auto png = dir / "orbit.png";
  nlohmann::json j = orbit_json(s, orbit);
  j["scenario"] = o.scenario;
  j["files"] = {{"orbit", js.string()},
                {"timeseries", ts.string()},
                {"plot", plot ? nlohmann::json(png.string()) : nlohmann::json()}};
  OutputSet files;
  files.also_replaces(png);
  std::ofstream& csv = files.open(ts);
  csv.precision(17);
  csv << 't';
  for (const std::string& n : analysis::state_names(*s.problem.model)) csv << ',' << n;
  csv << '\n';
  if (orbit.u.allFinite() && orbit.period > 0.0) {
    Samples rec(*s.problem.model, csv);
    (void)analysis::run_flow(s.problem, *s.problem.model, orbit.u, &rec, orbit.period / 1000.0);
  }
  files.write(js, j.dump(2) + "\n");
  if (plot) {
    files.draw(png, js, [&] {
      run_plot_script("orbit.py",
                      {"--timeseries", files.temporary(ts).string(), "--orbit",
                       files.temporary(js).string(), "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << j.dump(2) << "\n";
  if (!orbit.converged) {
    std::cerr << "clatter: orbits: not converged: " << orbit.message << "\n";
    return 3;
  }
  return 0;
}

}  // namespace clatter::cli
