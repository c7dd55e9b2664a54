#include "clatter/analysis/sweep_plan.hpp"

namespace clatter::analysis {

const char* to_string(CarryOver c) {
  switch (c) {
    case CarryOver::kNone:
      return "none";
    case CarryOver::kUp:
      return "up";
    case CarryOver::kDown:
      return "down";
    case CarryOver::kBoth:
      return "both";
  }
  return "?";
}

SweepPlan::SweepPlan(const SweepGrid& grid, CarryOver carry, int initials)
    : grid_(grid), carry_(carry), initials_(initials) {}

bool SweepPlan::descending(int run) const {
  if (carry_ == CarryOver::kDown) return true;
  return carry_ == CarryOver::kBoth && run % 2 == 1;
}

std::size_t SweepPlan::chains() const {
  const auto R = static_cast<std::size_t>(runs());
  if (carry_ == CarryOver::kNone) return grid_.size() * R;
  return static_cast<std::size_t>(grid_.extent(1)) * R;
}

std::size_t SweepPlan::chain_of(std::size_t point, int run) const {
  const auto R = static_cast<std::size_t>(runs());
  if (carry_ == CarryOver::kNone) return slot(point, run);
  return static_cast<std::size_t>(grid_.index(point, 1)) * R + static_cast<std::size_t>(run);
}

void SweepPlan::chain(std::size_t c, std::vector<SweepTask>& out) const {
  out.clear();
  const auto R = static_cast<std::size_t>(runs());
  const int run = static_cast<int>(c % R);
  if (carry_ == CarryOver::kNone) {
    out.push_back({c / R, run});
    return;
  }
  const int i1 = static_cast<int>(c / R);
  const int n0 = grid_.extent(0);
  for (int k = 0; k < n0; ++k) {
    const int i0 = descending(run) ? n0 - 1 - k : k;
    out.push_back({grid_.point(i0, i1), run});
  }
}

}  // namespace clatter::analysis
