// A step of the engine allocates nothing on the heap (STYLE.md §6.5; issue "The engine as a
// library"): Data is sized by make_data, the Runge–Kutta stepper lives in it, events go to its
// reserved buffer. A replaced global operator new counts allocations over steps of a warm run:
// flights and impacts (ball on a table), Runge–Kutta phases with stick, slip and impacts ([NDC]
// rod on a belt, the double pendulum on its belt), two contacts (rod of [BP] Fig. 5), chatter,
// stick–slip. (Skipped under AddressSanitizer, which owns operator new.)
// Not yet: a simultaneous impact of a cradle (cradle3.toml) allocates about four times per
// collision, in multipoint::validate(Input), which builds its field names ("contacts[0].mu_s")
// before it knows whether a check fails; the solver's input and result are reused from Data.

#include <gtest/gtest.h>

#include <filesystem>

#include "clatter/hybrid/step.hpp"
#include "clatter/io/scenario.hpp"
#include "support/allocation_counter.hpp"

namespace clatter::hybrid {
namespace {

struct Counted {
  long steps{0};
  long events{0};
  long allocations{0};
};

// steps after `warm` steps until `count` more were taken (or the run ends)
Counted allocations_in_steps(const char* file, int warm, int count) {
  const io::Scenario sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / file);
  SimulationOptions o = sc.options;
  o.t_end = 1e6;  // the steps, not the end time, bound the test
  o.max_events = 1'000'000'000L;
  Data d = make_data(*sc.model, sc.initial, o);
  for (int k = 0; k < warm && !d.stopped && d.t < o.t_end; ++k) step(*sc.model, d, o, o.t_end);
  Counted c;
  const long events_before = d.counters.events;
  const long before = test::g_allocations.load();
  for (; c.steps < count && !d.stopped && d.t < o.t_end; ++c.steps) step(*sc.model, d, o, o.t_end);
  c.allocations = test::g_allocations.load() - before;
  c.events = d.counters.events - events_before;
  EXPECT_FALSE(d.stopped) << d.message;
  return c;
}

TEST(StepAllocation, WarmStepsAllocateNothing) {
  if (!test::kAllocationsCounted) GTEST_SKIP() << "AddressSanitizer replaces operator new";
  for (const char* file :
       {"ball_table_period1.toml", "ball_table_chatter.toml", "ndc_case_1_3.toml",
        "double_pendulum_stick_slip.toml", "rod_fig5.toml", "stick_slip_oscillator.toml"}) {
    SCOPED_TRACE(file);
    const Counted c = allocations_in_steps(file, 50, 2000);
    EXPECT_EQ(c.allocations, 0) << "in " << c.steps << " steps with " << c.events << " events";
    EXPECT_GT(c.steps, 50);
    EXPECT_GT(c.events, 0);
  }
}

}  // namespace
}  // namespace clatter::hybrid
