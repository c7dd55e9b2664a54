#include "clatter/analysis/parameter_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <time.h>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/contact_index.hpp"

namespace clatter::analysis {

namespace {

// the longest record of one value, in units of its clock (periods, impacts or crossings)
constexpr double kMaxRecord = 1e6;

constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::unique_ptr<model::System> model_at(const model::System& base, const SweepGrid& grid,
                                        std::size_t p) {
  std::unique_ptr<model::System> m = base.with_parameter(grid.axes()[0].name, grid.value(p, 0));
  if (grid.dimension() == 2) m = m->with_parameter(grid.axes()[1].name, grid.value(p, 1));
  return m;
}

// Ω at point p, without rebuilding the model: an axis value, the base model's value, or fixed
double omega_at(const model::System& base, const ParameterSweep& sw, std::size_t p) {
  if (sw.period_parameter.empty()) return sw.omega;
  for (int k = 0; k < sw.grid.dimension(); ++k)
    if (sw.grid.axes()[static_cast<std::size_t>(k)].name == sw.period_parameter)
      return sw.grid.value(p, k);
  return base.parameter(sw.period_parameter);
}

// whether the sweep needs a forcing frequency besides its clock: the stroboscopic section, the
// impact phase, the periodic shortcut
bool needs_frequency(const ParameterSweep& sw, const ResolvedObservable& what) {
  return what.section == SectionKind::kStroboscopic ||
         what.kind == ResolvedObservable::Kind::kPhase || sw.periodic.tol > 0.0;
}

// CPU time of this thread [s]
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

bool call_keep_going(const void* context) {
  return (*static_cast<const std::function<bool()>*>(context))();
}

// the recorder of a stability check's replay: the samples after the start, numbered j = 1, 2, …
struct StrobeReplay final : hybrid::Recorder {
  explicit StrobeReplay(const std::function<bool(int, const hybrid::Sample&)>& f) : at(f) {}
  void on_sample(const hybrid::Sample& s) override {
    if (stopped) return;
    if (j > 0 && !at(j, s)) stopped = true;
    ++j;
  }
  bool keep_going() override { return !stopped; }
  const std::function<bool(int, const hybrid::Sample&)>& at;
  int j{0};
  bool stopped{false};
};

// An event clock (SweepClock::kImpacts, kCrossings) over a SectionObserver: counts the clock's
// events, starts the observer's record after the transient-th and ends the run at the
// (transient + record)-th; what comes later in the same step is not passed on.
class ClockedObserver final : public hybrid::Recorder {
 public:
  ClockedObserver(SectionObserver& inner, SweepClock clock, int contact, long transient,
                  long record)
      : inner_(inner),
        clock_(clock),
        contact_(contact),
        transient_(transient),
        end_(transient + record) {}
  void on_sample(const hybrid::Sample& s) override {
    if (!done()) inner_.on_sample(s);
  }
  void on_section(const hybrid::Sample& s) override {
    if (done()) return;
    if (clock_ == SweepClock::kCrossings) count(s.t);
    if (counted_ <= end_) inner_.on_section(s);
  }
  void on_event(const hybrid::EventRecord& e) override {
    if (done()) return;
    if (clock_ == SweepClock::kImpacts && e.kind == hybrid::EventKind::kImpact &&
        (contact_ < 0 || e.contact == contact_))
      count(e.t);
    if (counted_ <= end_) inner_.on_event(e);
  }
  bool keep_going() override { return !done() && inner_.keep_going(); }
  [[nodiscard]] bool done() const { return passed_end_; }
  [[nodiscard]] long counted() const { return counted_; }

 private:
  void count(double t) {
    ++counted_;
    // the transient-th event is the last one discarded: the record starts just after it
    if (counted_ == transient_) inner_.set_record_from(std::nextafter(t, INFINITY));
    if (counted_ == end_) passed_end_ = true;
  }
  SectionObserver& inner_;
  SweepClock clock_;
  int contact_;
  long transient_, end_;
  long counted_{0};
  bool passed_end_{false};
};

// runs one value from `init`; false if it was stopped by keep_going (nothing to record)
bool run_value(const model::System& base, const hybrid::InitialState& init,
               hybrid::SimulationOptions o, const ParameterSweep& sw,
               const ResolvedObservable& what, const std::function<bool()>& keep_going,
               SweepRecord& rec) {
  const bool forced = sw.clock == SweepClock::kPeriods || needs_frequency(sw, what);
  const double omega = forced ? omega_at(base, sw, rec.point) : 0.0;
  const bool events_clock = sw.clock == SweepClock::kImpacts || sw.clock == SweepClock::kCrossings;
  const double cpu0 = thread_seconds();
  try {
    const std::unique_ptr<model::System> model = model_at(base, sw.grid, rec.point);
    // one unit of the clock [s]: a forcing period, or a second (event clocks: unused)
    const double T = sw.clock == SweepClock::kPeriods ? 2.0 * std::numbers::pi / omega : 1.0;
    o.t_end = events_clock ? init.t + sw.max_time
                           : init.t + (sw.transient_periods + sw.record_periods) * T;
    set_engine_section(what, o);
    o.record_events = true;
    // the shortcut needs whole periods: the end t₀ + N T is then a stroboscopic time; and at
    // most 1e9 of them, so that the repetitions of the cycle are counted in a long (a longer
    // run, which the shortcut would otherwise end at once, runs in full within its bounds)
    const double N = sw.transient_periods + sw.record_periods;
    PeriodicShortcut shortcut = sw.periodic;
    if (N != std::round(N) || N > 1e9 || sw.clock != SweepClock::kPeriods) shortcut.tol = 0.0;
    const bool strobe = what.section == SectionKind::kStroboscopic || shortcut.tol > 0.0;
    o.output_dt = strobe ? 2.0 * std::numbers::pi / omega : 0.0;
    // the shortcut's stability check: the same model and options from a perturbed state,
    // sampled at the stroboscopic times (no section, no events)
    const auto replay = [&](const hybrid::InitialState& start, int periods,
                            const std::function<bool(int, const hybrid::Sample&)>& at) {
      hybrid::SimulationOptions ro = o;
      ro.t_end = start.t + periods * T;
      ro.section = hybrid::Section::kNone;
      ro.record_events = false;
      StrobeReplay strobes(at);
      try {
        const hybrid::SimulationResult rr = hybrid::simulate(*model, start, ro, &strobes);
        return rr.reason == hybrid::StopReason::kEndTime ||
               (rr.reason == hybrid::StopReason::kCancelled && strobes.stopped);
      } catch (const std::exception&) {
        return false;  // e.g. a perturbed start the engine refuses: not shown stable
      }
    };
    // an event clock learns the record's start during the run (never, until then)
    const double t_record = events_clock ? (sw.transient_periods == 0.0 ? init.t : INFINITY)
                                         : init.t + sw.transient_periods * T;
    SectionObserver observer(what, t_record, omega, keep_going ? &call_keep_going : nullptr,
                             &keep_going, shortcut, replay);
    ClockedObserver clocked(observer, sw.clock, sw.clock_contact, std::lround(sw.transient_periods),
                            std::lround(sw.record_periods));
    hybrid::Recorder& recorder = events_clock ? static_cast<hybrid::Recorder&>(clocked) : observer;
    const hybrid::SimulationResult r = hybrid::simulate(*model, init, o, &recorder);
    const bool closed = observer.cycle() > 0 && r.reason == hybrid::StopReason::kCancelled;
    const bool counted = events_clock && clocked.done();
    if (!closed && !counted && r.reason == hybrid::StopReason::kCancelled && keep_going &&
        !keep_going())
      return false;
    rec.reason = r.reason;
    rec.message = r.reason == hybrid::StopReason::kEndTime ? std::string() : r.message;
    if (counted) {  // the record's count was reached: the value ended as asked
      rec.reason = hybrid::StopReason::kEndTime;
      rec.message.clear();
    } else if (events_clock && r.reason == hybrid::StopReason::kEndTime) {
      rec.complete = false;
      rec.message = "max_time = " + format_number(sw.max_time) + " s ran out after " +
                    std::to_string(clocked.counted()) + " of " + std::to_string(std::lround(N)) +
                    " " + to_string(sw.clock) +
                    (sw.clock == SweepClock::kImpacts && sw.clock_contact >= 0
                         ? " of contact " + base.contact(sw.clock_contact).name
                         : std::string()) +
                    " (transient + record)";
      if (sw.clock == SweepClock::kImpacts && r.chatter_sequences > 0)
        rec.message +=
            "; a chatter ended in its accumulation point (the contact closed there, its "
            "remaining bounces not simulated): chatter = \"cutoff\" with a small v_tol "
            "counts them one by one";
    }
    rec.t = r.t;
    rec.q = r.q;
    rec.qd = r.qd;
    rec.aux = r.aux;
    if (closed) {
      observer.extend(o.t_end, std::lround(N), rec.t, rec.q, rec.qd, rec.aux);
      rec.reason = hybrid::StopReason::kEndTime;
      rec.message.clear();
      rec.cycle = observer.cycle();
      rec.closed_at = observer.closed_at();
    }
    rec.refused = observer.refusals();
    rec.values = std::move(observer.values);
    rec.distinct = count_distinct(rec.values);
    rec.impacts = observer.impacts;
    rec.impacts_per_period = static_cast<double>(observer.impacts) / sw.record_periods;
    rec.events = r.events;
    rec.rk_steps = r.rk_steps;
  } catch (const std::exception& e) {
    rec.error = e.what();
    rec.failure = std::current_exception();
  } catch (...) {
    rec.error = "unknown exception";
    rec.failure = std::current_exception();
  }
  rec.seconds = thread_seconds() - cpu0;
  if (!rec.error.empty()) {
    // the next value of a chain starts from the last state reached: this value's start
    rec.t = init.t;
    rec.q = init.q;
    rec.qd = init.qd;
    rec.aux = init.aux;
  }
  return true;
}

// the start of the value after `rec` (at Ω_next): its final state at the same forcing phase, or
// at its own time without a forcing (omega = 0)
void carry(const SweepRecord& rec, double omega, double omega_next, hybrid::InitialState& init) {
  init.q = rec.q;
  init.qd = rec.qd;
  init.aux = rec.aux;
  if (!(omega > 0.0) || !(omega_next > 0.0)) {
    init.t = rec.t;
    return;
  }
  const double T_next = 2.0 * std::numbers::pi / omega_next;
  const double phase = std::fmod(rec.t * omega, kTwoPi);
  init.t = phase / (2.0 * std::numbers::pi) * T_next;
}

}  // namespace

const char* to_string(SweepClock c) {
  switch (c) {
    case SweepClock::kPeriods:
      return "periods";
    case SweepClock::kTime:
      return "time";
    case SweepClock::kImpacts:
      return "impacts";
    case SweepClock::kCrossings:
      return "crossings";
  }
  return "unknown";
}

void parse_clock(std::string_view spec, const model::System& model, const char* field,
                 SweepClock& clock, int& contact) {
  const std::size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  bool known = false;
  for (const SweepClock c :
       {SweepClock::kPeriods, SweepClock::kTime, SweepClock::kImpacts, SweepClock::kCrossings})
    if (kind == to_string(c)) {
      clock = c;
      known = true;
    }
  require(
      known, field,
      "must be periods, time, impacts[:CONTACT] or crossings, got \"" + std::string(spec) + "\"");
  contact = -1;
  if (colon == std::string_view::npos) return;
  require(clock == SweepClock::kImpacts, field, "only impacts takes a contact (impacts:CONTACT)");
  contact = model::contact_index(model, spec.substr(colon + 1), field);
}

void validate(const ParameterSweep& sw, const model::System& model,
              const std::vector<hybrid::InitialState>& initials, const SweepControl& control) {
  const int d = sw.grid.dimension();
  require(d >= 1 && d <= 2, "param", "give one or two parameters to sweep");
  for (int k = 0; k < d; ++k) {
    const GridAxis& a = sw.grid.axes()[static_cast<std::size_t>(k)];
    require(a.n >= 1 && a.n <= 1000000, "param", "N of " + a.name + " must lie in [1, 1000000]");
    require(std::isfinite(a.from) && std::isfinite(a.to), "param",
            "FROM and TO of " + a.name + " must be finite");
    require(k == 0 || a.name != sw.grid.axes()[0].name, "param",
            "the two parameters must differ, got " + a.name + " twice");
  }
  require(sw.grid.size() <= 100000000, "param", "the grid must have at most 1e8 points");
  // every corner of the grid builds a valid model (names known, values in range)
  for (const int i0 : {0, sw.grid.extent(0) - 1})
    for (const int i1 : {0, sw.grid.extent(1) - 1})
      (void)model_at(model, sw.grid, sw.grid.point(i0, i1));
  require(std::isfinite(sw.transient_periods) && sw.transient_periods >= 0.0, "transient_periods",
          "must be >= 0", sw.transient_periods);
  require(std::isfinite(sw.record_periods) && sw.record_periods > 0.0, "record_periods",
          "must be > 0", sw.record_periods);
  // a value's recorded section values are held in memory until it ends (its distinct values
  // are counted then), ~55 bytes each: a record without bound would exhaust the memory
  // (--record-periods 1e8 asked for 16 GB); the seeds record 100 periods
  if (sw.clock != SweepClock::kTime)
    require(sw.record_periods <= kMaxRecord, "record_periods",
            "at most " + format_number(kMaxRecord) +
                " per value (its section values are held in memory until it ends), got " +
                format_number(sw.record_periods));
  require(!initials.empty() && initials.size() <= 1000, "initial",
          "give between 1 and 1000 initial states");
  const ResolvedObservable what = resolve(sw.observe, model, "observe");
  const bool events_clock = sw.clock == SweepClock::kImpacts || sw.clock == SweepClock::kCrossings;
  if (events_clock) {
    const std::string whole =
        "counts " + std::string(to_string(sw.clock)) + ": must be a whole number up to 1e12, got ";
    require(
        sw.transient_periods == std::floor(sw.transient_periods) && sw.transient_periods <= 1e12,
        "transient", whole + format_number(sw.transient_periods));
    require(sw.record_periods == std::floor(sw.record_periods) && sw.record_periods <= 1e12,
            "record", whole + format_number(sw.record_periods));
    require(std::isfinite(sw.max_time) && sw.max_time > 0.0, "max_time",
            "an event clock needs a bound on each value's run: max_time > 0 [s]", sw.max_time);
  }
  if (sw.clock == SweepClock::kCrossings)
    require(what.section == SectionKind::kApex || what.section == SectionKind::kCrossing, "clock",
            "crossings counts the crossings of the observable's section: give an apex or a "
            "crossing section");
  if (sw.clock == SweepClock::kImpacts)
    require(sw.clock_contact >= -1 && sw.clock_contact < model.num_contacts(), "clock_contact",
            "must be a contact of the model (or -1: any)");
  if (sw.clock != SweepClock::kPeriods && !needs_frequency(sw, what)) {
    // no forcing frequency needed
  } else if (sw.period_parameter.empty()) {
    require(std::isfinite(sw.omega) && sw.omega > 0.0, "omega",
            "the forcing frequency must be > 0 [rad/s]", sw.omega);
  } else {
    require(model.parameters().has(sw.period_parameter), "period_parameter",
            "the model has no forcing frequency \"" + sw.period_parameter + "\"" +
                (sw.clock == SweepClock::kPeriods
                     ? ": measure the transient and the record by another clock (time, impacts "
                       "or crossings)"
                     : ", which the " +
                           std::string(what.section == SectionKind::kStroboscopic
                                           ? "stroboscopic section"
                                       : what.kind == ResolvedObservable::Kind::kPhase
                                           ? "impact phase"
                                           : "periodic shortcut") +
                           " needs"));
    for (const int i0 : {0, sw.grid.extent(0) - 1})
      for (const int i1 : {0, sw.grid.extent(1) - 1}) {
        const double w = omega_at(model, sw, sw.grid.point(i0, i1));
        require(std::isfinite(w) && w > 0.0, "period_parameter",
                sw.period_parameter + " must be > 0 everywhere on the grid [rad/s], got " +
                    format_number(w) +
                    (sw.clock == SweepClock::kPeriods
                         ? " (a model without a forcing: measure the transient and the record "
                           "by another clock: time, impacts or crossings)"
                         : ""));
      }
  }
  require(std::isfinite(sw.periodic.tol) && sw.periodic.tol >= 0.0 && sw.periodic.tol <= 1e-3,
          "periodic_tol", "must lie in [0, 1e-3] (0: no periodic shortcut)", sw.periodic.tol);
  require(sw.periodic.max_cycle >= 1 && sw.periodic.max_cycle <= 64, "periodic_max_cycle",
          "must lie in [1, 64] forcing periods");
  require(sw.periodic.check_stability || sw.periodic.tol > 0.0, "periodic_check",
          "false turns off the periodic shortcut's stability check: only with periodic_tol > 0");
  require(control.threads >= 1 && control.threads <= 256, "threads", "must lie in [1, 256]");
  require(control.ranks >= 1 && control.rank >= 0 && control.rank < control.ranks, "rank",
          "must lie in [0, ranks)");
}

SweepOutcome run_sweep(const model::System& model,
                       const std::vector<hybrid::InitialState>& initials,
                       const hybrid::SimulationOptions& options, const ParameterSweep& sweep,
                       SweepControl control) {
  const SweepPlan plan(sweep.grid, sweep.carry, static_cast<int>(initials.size()));
  const ResolvedObservable what = resolve(sweep.observe, model, "observe");
  // the chains this process may run: its share (static dealing), or any (next_chain)
  const bool dealt = static_cast<bool>(control.next_chain);
  const auto may_run = [&](std::size_t c) {
    return dealt || SweepPlan::owns(c, control.rank, control.ranks);
  };
  std::vector<std::size_t> mine;
  for (std::size_t c = 0; c < plan.chains(); ++c)
    if (may_run(c)) mine.push_back(c);

  // which of this process's slots are done; a resumed record fills its slot before anything runs
  const bool keep = control.keep_records;
  std::vector<char> filled(plan.records(), 0);
  std::vector<SweepRecord> slots(keep ? plan.records() : 0);  // the records (keep_records)
  std::size_t total = 0;
  {
    std::vector<SweepTask> tasks;
    for (const std::size_t c : mine) {
      plan.chain(c, tasks);
      total += tasks.size();
    }
  }
  // the records finished earlier, read twice: which slots they fill, then what is kept of them
  const auto each_finished = [&](const std::function<void(const SweepRecord&)>& f) {
    if (control.finished_source) control.finished_source(f);
    for (const SweepRecord& r : control.finished) f(r);
  };
  // another rank's record (a checkpoint written with other ranks) is left to that rank
  const auto slot_of_mine = [&](const SweepRecord& r) {
    const std::size_t s = plan.slot(r.point, r.run);
    return s < filled.size() && may_run(plan.chain_of(r.point, r.run)) ? s : filled.size();
  };
  each_finished([&](const SweepRecord& r) {
    const std::size_t s = slot_of_mine(r);
    if (s < filled.size()) filled[s] = 1;
  });
  std::size_t done = 0;
  // the last of each chain's finished prefix, where the chain goes on
  std::unordered_set<std::size_t> carry_slots;
  {
    std::vector<SweepTask> tasks;
    for (const std::size_t c : mine) {
      plan.chain(c, tasks);
      // a chain resumes after its finished prefix only: a finished record behind a missing one
      // (a lost journal line) started from a state this run would not reproduce, so it is redone
      bool gap = false;
      for (std::size_t i = 0; i < tasks.size(); ++i) {
        const std::size_t s = plan.slot(tasks[i].point, tasks[i].run);
        if (gap && filled[s]) filled[s] = 0;
        gap = gap || !filled[s];
        if (!filled[s]) continue;
        ++done;
        // the next one's flag is final here: a filled next is still in the prefix
        if (i + 1 < tasks.size() && !filled[plan.slot(tasks[i + 1].point, tasks[i + 1].run)])
          carry_slots.insert(s);
      }
    }
  }
  // the records that stand: passed on, and kept (keep_records) or kept to carry over from
  std::unordered_map<std::size_t, SweepRecord> carry_from;
  {
    std::vector<char> passed(plan.records(), 0);  // the first copy of a slot only
    each_finished([&](const SweepRecord& r) {
      const std::size_t s = slot_of_mine(r);
      if (s >= filled.size() || !filled[s] || passed[s]) return;
      passed[s] = 1;
      if (control.on_resumed) control.on_resumed(r);
      if (keep) {
        slots[s] = r;
      } else if (carry_slots.count(s) > 0) {
        SweepRecord& c = carry_from[s];  // its final state only (carry reads t, q, q̇, a)
        c.t = r.t;
        c.q = r.q;
        c.qd = r.qd;
        c.aux = r.aux;
      }
    });
  }
  control.finished.clear();
  const std::vector<char> resumed = filled;

  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopped{false};
  std::mutex callback_mutex;
  std::exception_ptr callback_failure;
  const auto keep_on = [&] {
    return !stopped.load() && (!control.keep_going || control.keep_going());
  };
  const std::function<bool()> keep_fn = keep_on;

  // the next chain of this process, or none (≥ chains): its share in order, or the dealer's
  std::mutex deal_mutex;
  const auto take = [&]() -> std::size_t {
    if (!dealt) {
      const std::size_t k = next++;
      return k < mine.size() ? mine[k] : plan.chains();
    }
    const std::lock_guard lock(deal_mutex);
    return control.next_chain();
  };
  const auto worker = [&] {
    std::vector<SweepTask> tasks;
    SweepRecord local;  // the record being run (streaming)
    // stopped is looked at before a chain is taken: a dealt chain is not taken to be dropped
    for (std::size_t c = 0; !stopped.load() && (c = take()) < plan.chains();) {
      plan.chain(c, tasks);
      hybrid::InitialState init = initials[static_cast<std::size_t>(plan.initial_of(tasks[0].run))];
      for (std::size_t i = 0; i < tasks.size(); ++i) {
        const std::size_t s = plan.slot(tasks[i].point, tasks[i].run);
        const SweepRecord* from = nullptr;  // the record the next value carries over from
        if (resumed[s]) {
          if (keep) {
            from = &slots[s];
          } else {
            const auto it = carry_from.find(s);  // read only: the map is not changed here
            if (it != carry_from.end()) from = &it->second;
          }
        } else {
          if (!keep_on()) {
            stopped = true;
            break;
          }
          SweepRecord& rec = keep ? slots[s] : local;
          if (!keep) rec = SweepRecord{};
          rec.point = tasks[i].point;
          rec.run = tasks[i].run;
          if (!run_value(model, init, options, sweep, what, keep_fn, rec)) {
            rec = SweepRecord{};
            stopped = true;
            break;
          }
          filled[s] = 1;
          from = &rec;
          const std::lock_guard lock(callback_mutex);
          ++done;
          if (control.on_record && !callback_failure) {
            try {
              control.on_record(rec, done, total);
            } catch (...) {
              callback_failure = std::current_exception();
              stopped = true;
            }
          }
        }
        if (i + 1 < tasks.size() && from != nullptr && !from->error.empty()) {
          // a value whose run threw (its carried-over start refused: inside an obstacle that
          // the parameter moved) passes on the chain's own start, not the state it refused
          init = initials[static_cast<std::size_t>(plan.initial_of(tasks[i + 1].run))];
        } else if (i + 1 < tasks.size() && from != nullptr) {
          if (sweep.clock == SweepClock::kPeriods)
            carry(*from, omega_at(model, sweep, tasks[i].point),
                  omega_at(model, sweep, tasks[i + 1].point), init);
          else
            carry(*from, 0.0, 0.0, init);
        }
      }
    }
  };
  std::vector<std::thread> pool;
  const int threads = static_cast<int>(std::min<std::size_t>(
      static_cast<std::size_t>(control.threads), std::max<std::size_t>(mine.size(), 1)));
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (callback_failure) std::rethrow_exception(callback_failure);

  SweepOutcome out;
  if (dealt) {
    out.complete = !stopped.load();  // a dealt chain is run to its end unless the sweep stopped
  } else {
    out.complete = true;
    std::vector<SweepTask> tasks;
    for (const std::size_t c : mine) {
      plan.chain(c, tasks);
      for (const SweepTask& t : tasks)
        out.complete = out.complete && filled[plan.slot(t.point, t.run)];
    }
  }
  if (keep)
    for (std::size_t s = 0; s < slots.size(); ++s)
      if (filled[s]) out.records.push_back(std::move(slots[s]));
  return out;
}

}  // namespace clatter::analysis
