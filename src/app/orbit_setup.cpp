#include "clatter/app/orbit_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/model/contact_index.hpp"
#include "clatter/model/motion_symmetry.hpp"

namespace clatter::app {

namespace {

// an angle in [0, 2π)
double reduced_phase(double phase) {
  const double two_pi = 2.0 * std::numbers::pi;
  const double r = std::fmod(phase, two_pi);
  return r < 0.0 ? r + two_pi : r;
}

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

hybrid::SimulationResult run_to(const hybrid::SimulationOptions& options, const model::System& m,
                                const hybrid::InitialState& from, double t_end,
                                hybrid::Recorder* rec) {
  hybrid::SimulationOptions o = options;
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

// the middle of the longest event-free stretch of the n periods after t_guess, as ω t [rad]
double quiet_phase(const hybrid::SimulationOptions& options, const model::System& m,
                   const hybrid::InitialState& from, double t_guess, double omega, int periods) {
  const double T = periods * 2.0 * std::numbers::pi / omega;
  EventTimes ev(t_guess);
  (void)run_to(options, m, from, t_guess + T, &ev);
  std::vector<double> ph;
  for (double t : ev.times) ph.push_back(std::fmod(omega * t, 2.0 * std::numbers::pi * periods));
  std::sort(ph.begin(), ph.end());
  double phase = std::fmod(omega * t_guess, 2.0 * std::numbers::pi);
  double best = -1.0;
  const double span = 2.0 * std::numbers::pi * periods;
  for (std::size_t i = 0; i < ph.size(); ++i) {
    const double next = i + 1 < ph.size() ? ph[i + 1] : ph[0] + span;
    if (next - ph[i] > best) {
      best = next - ph[i];
      phase = ph[i] + 0.5 * best;
    }
  }
  return phase;
}

void validate(const OrbitRequest& r) {
  require(r.monodromy == "differences" || r.monodromy == "variational", "monodromy",
          "must be differences or variational");
  require(std::isfinite(r.transient) && r.transient >= 0.0 && r.transient <= 1e6, "transient",
          "must lie in [0, 1e6] periods", r.transient);
  require(r.segments >= 1 && r.segments <= 64, "segments", "must lie in [1, 64]");
  require(r.impacts >= 1 && r.impacts <= 1000, "impacts", "must lie in [1, 1000]");
  require(std::isfinite(r.max_period) && r.max_period > 0.0, "max_period",
          "must be finite and > 0 [s]", r.max_period);
}

}  // namespace

OrbitSetup make_orbit_setup(std::shared_ptr<const model::System> model,
                            const hybrid::InitialState& start,
                            const hybrid::SimulationOptions& options, const OrbitRequest& r) {
  require(model != nullptr, "model", "no model");
  validate(r);
  const model::System& m = *model;
  OrbitSetup s;
  s.shooting.tol = r.tol;
  s.shooting.max_iter = r.max_iter;
  s.shooting.monodromy = r.monodromy == "variational" ? analysis::MonodromyMethod::kVariational
                                                      : analysis::MonodromyMethod::kDifferences;
  analysis::validate(s.shooting);
  s.segments = r.segments;

  analysis::OrbitSection sec;
  const bool autonomous = !r.anchor.empty();
  const bool impact = !r.impact.empty();
  hybrid::InitialState guess = start;
  if (guess.aux.size() == 0) guess.aux = model::VecA::Zero(m.num_aux());
  double T = 0.0;
  double start_time = 0.0;
  if (impact) {
    require(!autonomous && r.frequency.empty() && std::isnan(r.phase) && r.period == 0.0,
            "impact-section",
            "an impact section takes no anchor, frequency, phase or period (CLI --anchor, "
            "--frequency, --phase, --period; Python anchor=, frequency=, phase=, period=)");
    sec.kind = analysis::OrbitSectionKind::kImpact;
    sec.contact = model::contact_index(m, r.impact, "impact-section");
    sec.impacts = r.impacts;
    sec.max_period = r.max_period;
    if (r.start_on_section) {
      // the start is the state just after an impact of the contact
      require(r.transient == 0.0, "transient",
              "a start on the impact section takes no transient (it is the guess itself)");
      start_time = guess.t;
    } else {
      // the guess: just after the first impact of the contact once `transient` of them passed
      ImpactAfter hit(sec.contact, static_cast<long>(r.transient));
      hybrid::SimulationOptions so = options;
      so.output_dt = 0.0;
      so.record_events = true;
      const hybrid::SimulationResult run = hybrid::simulate(m, guess, so, &hit);
      require(hit.found, "impact-section",
              "the run from the start has no impact of " + r.impact + " after " +
                  std::to_string(static_cast<long>(r.transient)) + " of them before its t_end (" +
                  run.message + ")");
      const analysis::StateVector x =
          analysis::pack_state(m, hit.event.q, hit.event.qd_post, hit.event.aux);
      const hybrid::Modes modes = analysis::settled_modes(m, hit.event.t, x, hit.event.modes);
      guess = hybrid::InitialState(hit.event.t, hit.event.q, hit.event.qd_post, hit.event.aux);
      for (std::size_t c = 0; c < guess.closed.size(); ++c)
        guess.closed[c] = hybrid::is_closed(modes[c]);
      start_time = hit.event.t;
    }
  } else if (autonomous) {
    require(r.frequency.empty() && std::isnan(r.phase), "anchor",
            "an autonomous section takes no --frequency or --phase");
    require(std::isfinite(r.period) && r.period > 0.0, "period",
            "an autonomous section needs the guess --period T > 0 [s]", r.period);
    sec.kind = analysis::OrbitSectionKind::kAutonomous;
    sec.anchor = analysis::state_index(m, r.anchor, "anchor");
    sec.drift = r.drift;
    if (!r.drift.empty()) (void)m.parameter(r.drift);
    T = r.period;
    if (r.transient > 0.0)
      guess = state_of(run_to(options, m, guess, guess.t + r.transient * T, nullptr));
  } else {
    require(r.drift.empty() && r.period == 0.0, "frequency",
            "a forced section takes no --drift or --period (give --anchor for an autonomous one)");
    sec.kind = analysis::OrbitSectionKind::kForced;
    sec.frequency = r.frequency.empty() ? "surface.omega" : r.frequency;
    sec.periods = r.periods;
    require(r.periods >= 1 && r.periods <= 1000, "periods", "must lie in [1, 1000]");
    double omega = 0.0;
    try {
      omega = m.parameter(sec.frequency);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("frequency",
                            std::string(e.what()) +
                                " (an unforced model needs an anchored section: CLI --anchor NAME, "
                                "Python anchor=NAME; or name the forcing frequency's parameter: "
                                "--frequency NAME, Python frequency=NAME)");
    }
    require(omega > 0.0, "frequency", "the forcing frequency must be > 0 [rad/s]", omega);
    const double Tf = 2.0 * std::numbers::pi / omega;
    T = r.periods * Tf;
    const double t_guess = guess.t + r.transient * Tf;
    double phase = r.phase;
    if (std::isnan(phase))
      phase = r.start_on_section ? omega * t_guess
                                 : quiet_phase(options, m, guess, t_guess, omega, r.periods);
    require(std::isfinite(phase), "phase", "must be finite [rad]");
    // the guess: the state at the first section time t ≡ phase/ω (mod T_f) after the transient
    double t_sec = phase / omega;
    t_sec += std::ceil((t_guess - t_sec) / Tf) * Tf;
    if (t_sec > guess.t) guess = state_of(run_to(options, m, guess, t_sec, nullptr));
    sec.phase = omega * t_sec;  // the section time itself: t0 = phase/ω
  }

  sec.modulo_symmetry = r.modulo_symmetry;
  for (const std::string& name : r.closed)
    guess.closed[static_cast<std::size_t>(model::contact_index(m, name, "closed"))] = true;
  std::vector<int> solved;
  if (r.solve.empty()) {
    // a coordinate that a declared-closed contact holds alone (its normal row J_N names that
    // coordinate only: a block's y on its belt) keeps its value, and so does its velocity
    const std::vector<bool> held =
        analysis::held_components(m, guess.t, guess.q, guess.qd, guess.closed);
    const int nq = m.nq();
    for (int i = 0; i < analysis::state_dimension(m); ++i)
      if (i != sec.anchor && (!impact || i >= nq) && !held[static_cast<std::size_t>(i)])
        solved.push_back(i);  // impact: q̇, a
  } else {
    for (const std::string& name : r.solve)
      solved.push_back(analysis::state_index(m, name, "solve"));
  }
  const analysis::StateVector x0 = analysis::pack_state(m, guess.q, guess.qd, guess.aux);
  s.problem = analysis::make_periodic_problem(std::move(model), options, sec, solved, x0,
                                              guess.closed, start_time);
  s.guess = analysis::unknowns_of(s.problem, x0, T);
  return s;
}

analysis::Orbit find_orbit(const OrbitSetup& s) {
  const model::System& m = *s.problem.model;
  return s.segments > 1
             ? analysis::find_orbit_multiple(s.problem, m, s.guess, s.segments, s.shooting)
             : analysis::find_orbit(s.problem, m, s.guess, s.shooting);
}

std::string orbit_json(const OrbitSetup& s, const analysis::Orbit& orbit) {
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
      sec.kind == analysis::OrbitSectionKind::kForced
          ? nlohmann::json{{"kind", "forced"},
                           {"frequency", sec.frequency},
                           // the section time t0 = phase/ω; its phase reduced into [0, 2π)
                           {"phase", reduced_phase(sec.phase)},
                           {"t0", sec.phase / m.parameter(sec.frequency)},
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
  const nlohmann::json j = {{"converged", orbit.converged},
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
                            {"monodromy_warning", orbit.monodromy_warning},
                            {"events", events}};
  return j.dump(2);
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

std::vector<OutputFile> orbit_files(const OrbitSetup& s, const analysis::Orbit& orbit,
                                    const std::string& scenario,
                                    const std::filesystem::path& folder, bool plot) {
  const auto js = folder / "orbit.json";
  const auto ts = folder / "timeseries.csv";
  nlohmann::json j = nlohmann::json::parse(orbit_json(s, orbit));
  j["scenario"] = scenario;
  j["files"] = {
      {"orbit", js.string()},
      {"timeseries", ts.string()},
      {"plot", plot ? nlohmann::json((folder / "orbit.png").string()) : nlohmann::json()}};
  std::ostringstream csv;
  csv.precision(17);
  csv << 't';
  for (const std::string& n : analysis::state_names(*s.problem.model)) csv << ',' << n;
  csv << '\n';
  if (orbit.u.allFinite() && orbit.period > 0.0) {
    Samples rec(*s.problem.model, csv);
    (void)analysis::run_flow(s.problem, *s.problem.model, orbit.u, &rec, orbit.period / 1000.0);
  }
  return {{ts, csv.str()}, {js, j.dump(2) + "\n"}};
}

}  // namespace clatter::app
