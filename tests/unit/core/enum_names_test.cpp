// The names of the results' statuses (core/enum_names.hpp): every value has its word and back,
// the words are distinct within a result, the shared vocabulary means the same thing in every
// result ("ok" is value 0 wherever a result can be valid, "energy_gain" the next), and a value
// outside a table reads "unknown".

#include "clatter/core/enum_names.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/analysis/orbit_continuation.hpp"
#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/hybrid/data.hpp"
#include "clatter/laws/impact.hpp"
#include "clatter/multipoint/multipoint_status.hpp"

namespace clatter {
namespace {

template <class E>
void expect_round_trip() {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < name_count<E>(); ++i) {
    const E e = static_cast<E>(i);
    const std::string word = name_of(e);
    EXPECT_TRUE(seen.insert(word).second) << word << " twice";
    EXPECT_NE(word, "unknown");
    const std::optional<E> back = parse_name<E>(word);
    ASSERT_TRUE(back.has_value()) << word;
    EXPECT_EQ(*back, e);
  }
  EXPECT_FALSE(parse_name<E>("no such word").has_value());
  EXPECT_STREQ(name_of(static_cast<E>(name_count<E>())), "unknown");
}

TEST(EnumNames, EveryStatusRoundTrips) {
  expect_round_trip<hybrid::StopReason>();
  expect_round_trip<Status>();
  expect_round_trip<multipoint::Status>();
  expect_round_trip<compliant::SolveStatus>();
  expect_round_trip<compliant::Outcome>();
  expect_round_trip<analysis::OrbitBranchEnd>();
  expect_round_trip<analysis::BranchEnd>();
}

TEST(EnumNames, TheTablesFollowTheEnumerations) {
  // the last value of each enumeration is the table's last word: a value added without its name
  // (or a name without its value) shifts this
  EXPECT_EQ(name_count<hybrid::StopReason>(), static_cast<std::size_t>(hybrid::kNumStopReasons));
  EXPECT_STREQ(name_of(hybrid::StopReason::kMaxSteps), "max_steps");
  EXPECT_STREQ(name_of(hybrid::StopReason::kWallTime), "wall_time");
  EXPECT_STREQ(name_of(Status::kNoTermination), "no_termination");
  EXPECT_STREQ(name_of(multipoint::Status::kMaxEvents), "max_events");
  EXPECT_STREQ(name_of(compliant::SolveStatus::kRootIterations), "root_iterations");
  EXPECT_STREQ(name_of(compliant::Outcome::kUnresolved), "unresolved");
  EXPECT_STREQ(name_of(analysis::OrbitBranchEnd::kMultiplierBound), "multiplier_bound");
  EXPECT_STREQ(name_of(analysis::BranchEnd::kBifurcation), "bifurcation");
}

TEST(EnumNames, TheSharedWordsMeanTheSameInEveryResult) {
  EXPECT_STREQ(name_of(Status::kOk), "ok");
  EXPECT_STREQ(name_of(multipoint::Status::kOk), "ok");
  EXPECT_STREQ(name_of(compliant::SolveStatus::kOk), "ok");
  EXPECT_STREQ(name_of(Status::kEnergyGain), name_of(multipoint::Status::kEnergyGain));
  EXPECT_STREQ(name_of(Status::kNoTermination), name_of(multipoint::Status::kNoTermination));
  EXPECT_STREQ(name_of(hybrid::StopReason::kMaxEvents), name_of(multipoint::Status::kMaxEvents));
  EXPECT_STREQ(name_of(analysis::OrbitBranchEnd::kGrazing), name_of(analysis::BranchEnd::kGrazing));
  // each to_string is the table's word
  EXPECT_STREQ(hybrid::to_string(hybrid::StopReason::kZeno), "zeno");
  EXPECT_STREQ(multipoint::to_string(multipoint::Status::kDisconnected), "disconnected");
  EXPECT_EQ(analysis::to_string(analysis::OrbitBranchEnd::kMaxPoints), "max_points");
}

}  // namespace
}  // namespace clatter
