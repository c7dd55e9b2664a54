// core/scratch.hpp: uninitialized fixed-capacity storage; only the entries written are read, and
// fill/copy_from touch [0, min(count, N)).

#include "clatter/core/scratch.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "clatter/core/value_slope.hpp"

namespace clatter {
namespace {

TEST(Scratch, EntriesWrittenAreReadBack) {
  Scratch<ValueSlope, 8> s;
  static_assert(Scratch<ValueSlope, 8>::capacity() == 8);
  for (std::size_t i = 0; i < 5; ++i) s[i] = {static_cast<double>(i), -1.0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s[i].value, static_cast<double>(i));
    EXPECT_EQ(s[i].slope, -1.0);
    EXPECT_TRUE(std::isnan(s[i].curvature));  // ValueSlope's own default for an omitted member
  }
  EXPECT_EQ(s.data() + 4, &s[4]);
}

TEST(Scratch, FillAndCopyTouchOnlyTheCountGiven) {
  Scratch<int, 6> a;
  Scratch<int, 6> b;
  a.fill(7, 6);
  b.fill(-1, 6);
  a.fill(3, 2);
  EXPECT_EQ(a[0], 3);
  EXPECT_EQ(a[1], 3);
  EXPECT_EQ(a[2], 7);
  b.copy_from(a, 3);
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[2], 7);
  EXPECT_EQ(b[3], -1);
  // a count beyond the capacity is clamped, not written past the end
  a.fill(1, 100);
  b.copy_from(a, 100);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(b[i], 1);
}

}  // namespace
}  // namespace clatter
