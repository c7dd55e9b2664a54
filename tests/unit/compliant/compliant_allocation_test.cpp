// solve() and work_account() claim to allocate nothing (compliant_impact.hpp, STYLE §6.5): a
// replaced global operator new counts heap allocations around the calls, for a stick–slip, a
// slip–stick–slip, a gross stick and a wedge (the permanent-stick proof included).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/compliant/work_account.hpp"

namespace {
long g_allocations = 0;
}

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace clatter::compliant {
namespace {

TEST(CompliantAllocation, SolveAndLedgerDoNotAllocate) {
  const Model rod{{2.5, -1.5, 2.5}, 1.0, 1.21, 0.6};
  struct Run {
    Model m;
    double x, z;
  };
  Run runs[] = {{rod, 0.6, -1.0}, {rod, 0.8, -1.0}};
  std::vector<Run> pendulums;  // built before counting
  for (double deg : {70.0, 30.0, 13.0}) {
    const double th = deg * M_PI / 180.0, C = std::cos(th), S = std::sin(th);
    pendulums.push_back({{{C * C, S * C, S * S}, 1.0, 1.21, 0.5}, -C, -S});
  }
  const long before = g_allocations;
  double sink = 0.0;
  for (const Run& r : runs) {
    const Result res = solve(r.m, r.x, r.z);
    sink += work_account(r.m, res).residual;
  }
  for (const Run& r : pendulums) {
    const Result res = solve(r.m, r.x, r.z);
    sink += work_account(r.m, res).residual + res.t_c;
  }
  EXPECT_EQ(g_allocations - before, 0);
  EXPECT_TRUE(std::isfinite(sink));
}

}  // namespace
}  // namespace clatter::compliant
