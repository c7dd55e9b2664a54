// The restart bug of issue "Bring your own system" (item 6): a section sequence used to restart
// each leg from the section point's recorded contact modes, which list contacts as they were
// before the event (a stance contact that the impact made lift off still "stick"); the restart
// forced it closed and the motion went wrong (a walker rocked to rest). Sequences now step one
// run (analysis::PoincareWalker), so the impact section of any contact is exactly the impacts of
// simulate(): the same times and post-impact states, bit for bit, on the examples where impacts
// open or close other contacts (a cradle, a rocking block, a ball in a corner, the rod of [BP]
// Fig. 5) and on the ball on its table; and an event section (slip onset of the double pendulum
// on its belt, stick of a block on a belt) is exactly those events. Checked against the code
// before the fix (de33c65): the cradle's sequence stopped after 5 of its 13 impacts.

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "clatter/analysis/poincare_map.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::analysis {
namespace {

struct Case {
  const char* file;
  hybrid::EventKind kind;
};

TEST(SectionSequence, EventSectionIsTheEventsOfSimulateBitForBit) {
  using hybrid::EventKind;
  for (const Case& c :
       {Case{"cradle3.toml", EventKind::kImpact}, Case{"rocking_block.toml", EventKind::kImpact},
        Case{"ball_corner.toml", EventKind::kImpact}, Case{"rod_fig5.toml", EventKind::kImpact},
        Case{"ball_table_period1.toml", EventKind::kImpact},
        Case{"double_pendulum_stick_slip.toml", EventKind::kSlipOnset},
        Case{"stick_slip_oscillator.toml", EventKind::kStick}}) {
    const char* file = c.file;
    SCOPED_TRACE(file);
    const io::Scenario sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / file);
    hybrid::SimulationOptions o = sc.options;
    const double t_max = std::min(o.t_end, sc.initial.t + 20.0);
    o.t_end = t_max;
    hybrid::TrajectoryRecorder rec;
    (void)hybrid::simulate(*sc.model, sc.initial, o, &rec);
    std::vector<hybrid::EventRecord> impacts;
    // a section point is strictly later than the one before: the records of one collision at one
    // instant (a cradle's simultaneous impacts, a row per contact and impact event) are one
    // point, with the state the instant leaves: its last record's (docs/engine.md)
    for (const hybrid::EventRecord& e : rec.events) {
      if (!impacts.empty() && e.t == impacts.back().t) {
        impacts.back().qd_post = e.qd_post;
        impacts.back().aux = e.aux;
      } else if (e.kind == c.kind && e.t > sc.initial.t) {
        impacts.push_back(e);
      }
    }
    ASSERT_GE(impacts.size(), 1U);
    PoincareSection s;
    s.kind = c.kind == EventKind::kImpact ? PoincareKind::kImpact : PoincareKind::kEvent;
    s.event = c.kind;
    s.contact = -1;
    const auto seq = poincare_sequence(*sc.model, sc.options, s, sc.initial,
                                       static_cast<int>(impacts.size()) + 1, t_max);
    ASSERT_EQ(seq.size(), impacts.size() + 1);
    EXPECT_FALSE(seq.back().found);  // no impact after the last one before t_max
    for (std::size_t k = 0; k < impacts.size(); ++k) {
      const SectionPoint& p = seq[k];
      ASSERT_TRUE(p.found) << "impact " << k << ": " << p.message;
      ASSERT_EQ(p.t, impacts[k].t) << "impact " << k;
      const StateVector x = pack_state(*sc.model, impacts[k].q, impacts[k].qd_post, impacts[k].aux);
      for (Eigen::Index i = 0; i < x.size(); ++i) EXPECT_EQ(p.x(i), x(i)) << "impact " << k;
    }
  }
}

}  // namespace
}  // namespace clatter::analysis
