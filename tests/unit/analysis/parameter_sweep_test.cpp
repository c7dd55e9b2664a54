// Sweeps of named parameters on 1-D and 2-D grids (analysis/parameter_sweep.hpp), on the ball on
// the table h = A sin ωt, whose period-1 orbit is known in closed form ([B] §6.3 [DERIVED],
// spec/000_thesis.md §6.3; analysis/impact_oscillator.hpp closed_form_orbit): with Γ = Aω²/g,
// cos φ = Γ_SN/Γ, Γ_SN = π(1 − e)/(1 + e), post-impact velocity v = gπ/ω, stable for
// ω_SN < ω < ω_PD. Its apex is A sin φ + v²/(2g) = A sin φ + gπ²/(2ω²), its impact phase φ.

#include "clatter/analysis/parameter_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <future>
#include <mutex>
#include <numbers>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;

model::PlanarBodyModel ball(double e, double omega = 3.0, double A = 1.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = omega;
  return model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}});
}

hybrid::InitialState rest_at(double y) { return {0.0, {0.0, y, 0.0}, {0.0, 0.0, 0.0}}; }

// ω ∈ [3.6, 4.1] (6 values) × A ∈ [0.9, 1] (`amplitudes` values), carried over both ways, 30 + 10
// periods. Γ = Aω²/g > 1 on the whole grid: the ball never comes to rest, so a value started
// from a wrong carried state shows (below Γ = 1 it rests, and every start ends the same)
ParameterSweep bouncing_both_ways(int amplitudes) {
  ParameterSweep sw;
  sw.grid =
      SweepGrid({{"surface.omega", 3.6, 4.1, 6}, {"surface.amplitude", 0.9, 1.0, amplitudes}});
  sw.carry = CarryOver::kBoth;
  sw.transient_periods = 30.0;
  sw.record_periods = 10.0;
  return sw;
}

// the apex of the closed-form period-1 orbit at (A, ω, e): t = (φ + π)/ω (the flight from the
// impact at φ/ω lasts v/g = π/ω), y = A sin φ + gπ²/(2ω²), at rest in y
hybrid::InitialState on_orbit(double A, double omega, double e) {
  const ClosedFormOrbit c = closed_form_orbit(A, omega, kG, e, 1);
  const double pi = std::numbers::pi;
  return {(c.stable.phase + pi) / omega,
          {0.0, A * std::sin(c.stable.phase) + kG * pi * pi / (2.0 * omega * omega), 0.0},
          {0.0, 0.0, 0.0}};
}

void expect_same(const SweepRecord& a, const SweepRecord& b) {
  EXPECT_EQ(a.point, b.point);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(a.values, b.values) << "point " << a.point << " run " << a.run;
  EXPECT_EQ(a.distinct, b.distinct);
  EXPECT_EQ(a.impacts, b.impacts);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.qd, b.qd);
}

TEST(SweepPlan, ChainsCoverEveryRecordOnceInTheirDirection) {
  const SweepGrid grid({{"surface.omega", 3.0, 4.0, 4}, {"e", 0.5, 0.9, 3}});
  for (const CarryOver c : {CarryOver::kNone, CarryOver::kUp, CarryOver::kDown, CarryOver::kBoth}) {
    const SweepPlan plan(grid, c, 2);
    std::vector<int> seen(plan.records(), 0);
    std::vector<SweepTask> tasks;
    for (std::size_t k = 0; k < plan.chains(); ++k) {
      plan.chain(k, tasks);
      for (std::size_t i = 0; i < tasks.size(); ++i) {
        ++seen[plan.slot(tasks[i].point, tasks[i].run)];
        EXPECT_EQ(plan.chain_of(tasks[i].point, tasks[i].run), k);
        if (i > 0 && c != CarryOver::kNone) {
          // along axis 0, the other axis fixed
          EXPECT_EQ(grid.index(tasks[i].point, 1), grid.index(tasks[0].point, 1));
          EXPECT_EQ(grid.index(tasks[i].point, 0) - grid.index(tasks[i - 1].point, 0),
                    plan.descending(tasks[i].run) ? -1 : 1);
        }
      }
    }
    for (const int s : seen) EXPECT_EQ(s, 1) << to_string(c);
  }
  EXPECT_EQ(SweepPlan(grid, CarryOver::kBoth, 2).runs(), 4);
  EXPECT_EQ(SweepPlan(grid, CarryOver::kUp, 2).chains(), 3u * 2u);
}

// The ω sweep with carry-over, written out as it was before the generic sweep (one simulate per
// ω from the previous final state at the same forcing phase): sweep_omega must give the same
// numbers, bit for bit (it is now a special case of run_sweep).
TEST(ParameterSweep, OmegaSweepIsTheSeedsProcedureBitForBit) {
  const model::PlanarBodyModel m = ball(0.8);
  SweepOptions sw;
  sw.omega_from = 3.0;
  sw.omega_to = 3.6;
  sw.n = 4;
  sw.transient_periods = 40.0;
  sw.record_periods = 10.0;
  sw.continuation = true;
  const std::vector<SweepPoint> points = sweep_omega(m, rest_at(4.0), {}, sw);
  hybrid::InitialState init = rest_at(4.0);
  const double pi = std::numbers::pi;
  for (int i = 0; i < sw.n; ++i) {
    const double omega = sw.omega_from + (sw.omega_to - sw.omega_from) * i / (sw.n - 1);
    const auto model = m.with_parameter("surface.omega", omega);
    const double T = 2.0 * pi / omega;
    hybrid::SimulationOptions o;
    o.t_end = init.t + (sw.transient_periods + sw.record_periods) * T;
    o.section = hybrid::Section::kApex;
    o.record_events = false;
    struct Apex : hybrid::Recorder {
      double from{0.0};
      std::vector<double> y;
      void on_section(const hybrid::Sample& s) override {
        if (s.t >= from) y.push_back(s.q.y());
      }
    } rec;
    rec.from = init.t + sw.transient_periods * T;
    const hybrid::SimulationResult r = hybrid::simulate(*model, init, o, &rec);
    ASSERT_EQ(points[static_cast<std::size_t>(i)].omega, omega);
    EXPECT_EQ(points[static_cast<std::size_t>(i)].apex_heights, rec.y) << "omega = " << omega;
    const double omega_next = sw.omega_from + (sw.omega_to - sw.omega_from) * (i + 1) / (sw.n - 1);
    init.q = r.q;
    init.qd = r.qd;
    init.t = std::fmod(r.t * omega, 2.0 * pi) / (2.0 * pi) * (2.0 * pi / omega_next);
  }
}

// A 2-D grid (ω, e) with carry-over in ω: wherever the closed form says the period-1 orbit is
// stable, one distinct apex height equal to the closed form's to 1e-7 m (the tolerance of
// BifurcationSweep.PeriodDoubling...: 600 transient periods with multipliers of modulus e ≤ 0.9
// leave less than 1e-20 of the start), and one impact per forcing period. For Γ = Aω²/g < 1 the
// ball resting on the table is an attractor too (from rest at y = 3 every run of this grid ends
// there: its section is never crossed), so each chain e_j starts on the closed-form orbit at
// (ω₀, e_j), one initial state per e_j, and the carry-over must follow the branch in ω.
TEST(ParameterSweep, TwoDimensionalGridFindsTheClosedFormPeriodOneOrbit) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 2.6, 3.0, 5}, {"e", 0.8, 0.9, 3}});
  sw.carry = CarryOver::kUp;
  sw.transient_periods = 600.0;
  sw.record_periods = 50.0;
  std::vector<hybrid::InitialState> starts;
  for (int j = 0; j < 3; ++j) starts.push_back(on_orbit(1.0, 2.6, sw.grid.axes()[1].value(j)));
  SweepControl control;
  control.threads = 2;
  const model::PlanarBodyModel m = ball(0.9);
  validate(sw, m, starts, control);
  const SweepOutcome out = run_sweep(m, starts, {}, sw, control);
  ASSERT_TRUE(out.complete);
  ASSERT_EQ(out.records.size(), 45u);
  int checked = 0;
  for (const SweepRecord& r : out.records) {
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime);
    if (r.run != sw.grid.index(r.point, 1)) continue;  // the start of another chain's e
    const double omega = sw.grid.value(r.point, 0), e = sw.grid.value(r.point, 1);
    const ClosedFormOrbit c = closed_form_orbit(1.0, omega, kG, e, 1);
    if (!c.exists || omega <= c.omega_sn || omega >= c.omega_pd) continue;
    ++checked;
    EXPECT_EQ(r.distinct, 1) << "omega = " << omega << ", e = " << e;
    ASSERT_FALSE(r.values.empty());
    const double apex =
        std::sin(c.stable.phase) + kG * std::numbers::pi * std::numbers::pi / (2.0 * omega * omega);
    EXPECT_NEAR(r.values.back(), apex, 1e-7) << "omega = " << omega << ", e = " << e;
    EXPECT_NEAR(r.impacts_per_period, 1.0, 1.0 / sw.record_periods + 1e-12);
  }
  EXPECT_EQ(checked, 15);  // the whole grid lies between ω_SN and ω_PD
}

// The impact section with carry-over down in A (ω = 3, e = 0.9), from the closed-form orbit at
// A = 1.1: the phase of the period-1 orbit's impact, φ = acos(Γ_SN/Γ), to 1e-8 rad (event times
// are located to ~1e-12 s; the transient leaves < 1e-20), exactly one impact per period.
TEST(ParameterSweep, ImpactSectionGivesTheClosedFormImpactPhase) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.amplitude", 0.9, 1.1, 3}});
  sw.carry = CarryOver::kDown;
  sw.observe = {SectionKind::kImpact, "phase", -1};
  sw.transient_periods = 600.0;
  sw.record_periods = 20.0;
  const SweepOutcome out = run_sweep(ball(0.9), {on_orbit(1.1, 3.0, 0.9)}, {}, sw, {});
  ASSERT_EQ(out.records.size(), 3u);
  for (const SweepRecord& r : out.records) {
    const double A = sw.grid.value(r.point, 0);
    const ClosedFormOrbit c = closed_form_orbit(A, 3.0, kG, 0.9, 1);
    ASSERT_TRUE(c.exists && 3.0 < c.omega_pd);
    EXPECT_EQ(r.distinct, 1) << "A = " << A;
    EXPECT_NEAR(static_cast<double>(r.impacts), 20.0, 1.0);
    ASSERT_FALSE(r.values.empty());
    EXPECT_NEAR(r.values.back(), c.stable.phase, 1e-8) << "A = " << A;
  }
}

// Chains are independent: the records at 1, 2 and 3 threads and on 2 "ranks" (two calls with
// rank 0 and 1 of 2, as MPI runs them) are the same, bit for bit, for every carry-over.
TEST(ParameterSweep, RecordsAreTheSameAtAnyThreadAndRankCount) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 3.6, 4}, {"surface.amplitude", 0.9, 1.0, 2}});
  sw.transient_periods = 30.0;
  sw.record_periods = 10.0;
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> starts{rest_at(3.0), rest_at(4.5)};
  for (const CarryOver c : {CarryOver::kNone, CarryOver::kBoth}) {
    sw.carry = c;
    SweepControl one;
    const SweepOutcome ref = run_sweep(m, starts, {}, sw, one);
    ASSERT_EQ(ref.records.size(), 8u * (c == CarryOver::kBoth ? 4u : 2u));
    for (const int threads : {2, 3}) {
      SweepControl k;
      k.threads = threads;
      const SweepOutcome other = run_sweep(m, starts, {}, sw, k);
      ASSERT_EQ(other.records.size(), ref.records.size());
      for (std::size_t i = 0; i < ref.records.size(); ++i)
        expect_same(ref.records[i], other.records[i]);
    }
    std::vector<SweepRecord> ranks;
    for (const int rank : {0, 1}) {
      SweepControl k;
      k.rank = rank;
      k.ranks = 2;
      for (SweepRecord& r : run_sweep(m, starts, {}, sw, k).records) ranks.push_back(std::move(r));
    }
    ASSERT_EQ(ranks.size(), ref.records.size());
    const SweepPlan plan(sw.grid, c, 2);
    std::sort(ranks.begin(), ranks.end(), [&](const SweepRecord& a, const SweepRecord& b) {
      return plan.slot(a.point, a.run) < plan.slot(b.point, b.run);
    });
    for (std::size_t i = 0; i < ref.records.size(); ++i) expect_same(ref.records[i], ranks[i]);
  }
}

// A sweep stopped by keep_going keeps only finished records; run again with them as `finished`,
// it computes only the rest (carry-over chains continue from the last finished final state), and
// the result is the uninterrupted one, bit for bit.
TEST(ParameterSweep, AResumedSweepComputesOnlyTheRestAndMatchesTheUninterruptedOne) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 3.5, 6}});
  sw.carry = CarryOver::kUp;
  sw.transient_periods = 30.0;
  sw.record_periods = 10.0;
  const model::PlanarBodyModel m = ball(0.8);
  const SweepOutcome ref = run_sweep(m, {rest_at(3.0)}, {}, sw, {});
  ASSERT_TRUE(ref.complete);

  std::atomic<int> finished{0};
  SweepControl stop;
  stop.on_record = [&](const SweepRecord&, std::size_t, std::size_t) { ++finished; };
  stop.keep_going = [&] { return finished.load() < 3; };
  SweepOutcome part = run_sweep(m, {rest_at(3.0)}, {}, sw, stop);
  EXPECT_FALSE(part.complete);
  ASSERT_EQ(part.records.size(), 3u);

  int computed = 0;
  SweepControl resume;
  resume.finished = std::move(part.records);
  resume.on_record = [&](const SweepRecord&, std::size_t done, std::size_t total) {
    ++computed;
    EXPECT_EQ(total, 6u);
    EXPECT_EQ(done, 3u + static_cast<std::size_t>(computed));
  };
  const SweepOutcome rest = run_sweep(m, {rest_at(3.0)}, {}, sw, resume);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(computed, 3);
  ASSERT_EQ(rest.records.size(), ref.records.size());
  for (std::size_t i = 0; i < ref.records.size(); ++i) expect_same(ref.records[i], rest.records[i]);
}

// A finished record behind a missing one in its chain (a journal line lost) is recomputed: its
// start would differ otherwise. Here the 2nd of 6 is missing: it and the 4 after it are computed.
TEST(ParameterSweep, AResumedChainContinuesAfterItsFinishedPrefixOnly) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 3.5, 6}});
  sw.carry = CarryOver::kUp;
  sw.transient_periods = 30.0;
  sw.record_periods = 10.0;
  const model::PlanarBodyModel m = ball(0.8);
  const SweepOutcome ref = run_sweep(m, {rest_at(3.0)}, {}, sw, {});
  SweepControl resume;
  for (const std::size_t i : {0u, 2u, 3u}) resume.finished.push_back(ref.records[i]);
  resume.finished[1].values = {42.0};  // would show if it were kept
  int computed = 0;
  resume.on_record = [&](const SweepRecord&, std::size_t, std::size_t) { ++computed; };
  const SweepOutcome rest = run_sweep(m, {rest_at(3.0)}, {}, sw, resume);
  EXPECT_EQ(computed, 5);
  ASSERT_EQ(rest.records.size(), ref.records.size());
  for (std::size_t i = 0; i < ref.records.size(); ++i) expect_same(ref.records[i], rest.records[i]);
}

// Streaming (keep_records = false): the outcome holds nothing, and every record reaches the caller
// exactly once, the resumed ones through on_resumed and the computed ones through on_record, equal
// to those of the sweep that keeps its records; at 1 and 3 threads, and resumed with a missing
// record in a chain (the prefix rule: the ones behind it are recomputed, not passed on), the
// finished records given as a vector or read (twice) from a source, a duplicate among them.
TEST(ParameterSweep, StreamingHandsOverEveryRecordOnceAndKeepsNone) {
  const ParameterSweep sw = bouncing_both_ways(2);
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> starts{rest_at(3.0)};
  const SweepOutcome ref = run_sweep(m, starts, {}, sw, {});
  const SweepPlan plan(sw.grid, sw.carry, 1);
  ASSERT_EQ(ref.records.size(), plan.records());
  // a chain of (axis-1 index 0, run 0): its 1st, 2nd and 4th records finished, the 3rd lost
  std::vector<std::size_t> chain_slots;
  {
    std::vector<SweepTask> tasks;
    plan.chain(0, tasks);
    for (const SweepTask& t : tasks) chain_slots.push_back(plan.slot(t.point, t.run));
  }
  std::vector<SweepRecord> journal;  // the finished records, as a journal on disk would hold them
  for (const std::size_t i : {3, 0, 1, 0}) journal.push_back(ref.records[chain_slots[i]]);
  for (const int threads : {1, 3}) {
    for (const int resumed : {0, 1, 2}) {  // none; from `finished`; from `finished_source`
      SweepControl k;
      k.threads = threads;
      k.keep_records = false;
      int reads = 0;
      if (resumed == 1) k.finished = journal;
      if (resumed == 2)
        k.finished_source = [&](const std::function<void(const SweepRecord&)>& each) {
          ++reads;
          for (const SweepRecord& r : journal) each(r);
        };
      std::vector<int> seen(plan.records(), 0);
      int from_resume = 0;
      const auto check = [&](const SweepRecord& r) {
        const std::size_t s = plan.slot(r.point, r.run);
        ASSERT_LT(s, seen.size());
        ++seen[s];
        expect_same(ref.records[s], r);
      };
      k.on_resumed = [&](const SweepRecord& r) {
        ++from_resume;
        check(r);
      };
      k.on_record = [&](const SweepRecord& r, std::size_t, std::size_t) { check(r); };
      const SweepOutcome out = run_sweep(m, starts, {}, sw, k);
      EXPECT_TRUE(out.complete);
      EXPECT_TRUE(out.records.empty());
      EXPECT_EQ(from_resume, resumed > 0 ? 2 : 0) << threads << " threads";
      EXPECT_EQ(reads, resumed == 2 ? 2 : 0);
      for (std::size_t s = 0; s < seen.size(); ++s) EXPECT_EQ(seen[s], 1) << "slot " << s;
    }
  }
}

TEST(ParameterSweep, DealtChainsRunOnceWhereverTheyAreDealtAndResumeFromAnyJournal) {
  // two "processes" (concurrent run_sweep calls, 2 threads each) take chains from one dealer, as
  // MPI ranks from rank 0 (SweepControl::next_chain): every record is made once, by either, equal
  // to the one-process sweep's; so after a resume from a journal that another process wrote
  const ParameterSweep sw = bouncing_both_ways(3);  // 6 chains of 6 values
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> starts{rest_at(3.0)};
  const SweepOutcome ref = run_sweep(m, starts, {}, sw, {});
  const SweepPlan plan(sw.grid, sw.carry, 1);
  ASSERT_EQ(plan.chains(), 6u);
  // the journal of an interrupted run: chain 1's first 2 values and all of chain 4
  std::vector<SweepRecord> journal;
  for (const std::size_t c : {1, 4}) {
    std::vector<SweepTask> tasks;
    plan.chain(c, tasks);
    for (std::size_t i = 0; i < (c == 1 ? 2 : tasks.size()); ++i)
      journal.push_back(ref.records[plan.slot(tasks[i].point, tasks[i].run)]);
  }
  for (const bool resumed : {false, true}) {
    std::mutex dealer_mutex, seen_mutex;
    std::size_t next = 0;
    std::vector<int> seen(plan.records(), 0);
    std::array<int, 2> ran{0, 0};
    int passed_on = 0;
    const auto process = [&](int p) {
      SweepControl k;
      k.threads = 2;
      k.rank = p;  // as the CLI sets them: next_chain overrides the static share
      k.ranks = 2;
      k.keep_records = false;
      k.next_chain = [&] {
        const std::lock_guard lock(dealer_mutex);
        return next++;  // past the last chain: none (and so for every later call)
      };
      if (resumed) k.finished = journal;  // every process reads every journal
      // the resumed records that stand are passed on by process 0 only (the CLI's rank 0)
      if (p == 0) k.on_resumed = [&](const SweepRecord&) { ++passed_on; };
      k.on_record = [&](const SweepRecord& r, std::size_t, std::size_t total) {
        const std::lock_guard lock(seen_mutex);
        EXPECT_EQ(total, plan.records());
        const std::size_t s = plan.slot(r.point, r.run);
        ++seen[s];
        ++ran[static_cast<std::size_t>(p)];
        expect_same(ref.records[s], r);
      };
      return run_sweep(m, starts, {}, sw, k);
    };
    std::future<SweepOutcome> other = std::async(std::launch::async, process, 1);
    const SweepOutcome mine = process(0);
    EXPECT_TRUE(mine.complete);
    EXPECT_TRUE(other.get().complete);
    const std::size_t from_journal = resumed ? journal.size() : 0;
    EXPECT_EQ(passed_on, static_cast<int>(from_journal));
    EXPECT_EQ(static_cast<std::size_t>(ran[0] + ran[1]), plan.records() - from_journal);
    std::vector<char> in_journal(plan.records(), 0);
    if (resumed)
      for (const SweepRecord& r : journal) in_journal[plan.slot(r.point, r.run)] = 1;
    for (std::size_t s = 0; s < seen.size(); ++s)
      EXPECT_EQ(seen[s], in_journal[s] ? 0 : 1) << "slot " << s << (resumed ? ", resumed" : "");
  }
}

TEST(ParameterSweep, AFailingValueIsRecordedAndTheChainGoesOn) {
  // e > 1 is refused by the model at the first corner only under validate; run_sweep records it
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 3.2, 3}});
  sw.carry = CarryOver::kUp;
  sw.transient_periods = 1e308;  // the end time overflows: every run throws
  sw.record_periods = 1.0;
  const SweepOutcome out = run_sweep(ball(0.8), {rest_at(3.0)}, {}, sw, {});
  ASSERT_EQ(out.records.size(), 3u);
  for (const SweepRecord& r : out.records) {
    EXPECT_FALSE(r.error.empty());
    EXPECT_TRUE(r.failure);
  }
}

TEST(ParameterSweep, ValidationNamesTheField) {
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> starts{rest_at(3.0)};
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 4.0, 3}});
  EXPECT_NO_THROW(validate(sw, m, starts, {}));
  const auto field = [&](const ParameterSweep& s, const SweepControl& c = {}) -> std::string {
    try {
      validate(s, m, starts, c);
    } catch (const InvalidArgument& e) {
      return e.field();
    }
    return "";
  };
  ParameterSweep bad = sw;
  bad.grid = SweepGrid({{"no_such", 0.0, 1.0, 3}});
  EXPECT_EQ(field(bad), "no_such");
  bad.grid = SweepGrid({{"e", 0.5, 1.5, 3}});  // e ∈ [0, 1]
  EXPECT_NE(field(bad), "");
  bad.grid = SweepGrid({{"e", 0.5, 0.6, 3}, {"e", 0.5, 0.6, 3}});
  EXPECT_EQ(field(bad), "param");
  bad.grid = SweepGrid({{"e", 0.5, 0.6, 3}, {"mu", 0.5, 0.6, 3}, {"surface.omega", 1, 2, 2}});
  EXPECT_EQ(field(bad), "param");
  bad.grid = SweepGrid({{"surface.omega", 3.0, 4.0, 0}});
  EXPECT_EQ(field(bad), "param");
  bad = sw;
  bad.observe = {SectionKind::kApex, "phase", -1};  // phase only on the impact section
  EXPECT_EQ(field(bad), "observe");
  bad = sw;
  bad.record_periods = 0.0;
  EXPECT_EQ(field(bad), "record_periods");
  SweepControl c;
  c.threads = 0;
  EXPECT_EQ(field(sw, c), "threads");
}

}  // namespace
}  // namespace clatter::analysis
