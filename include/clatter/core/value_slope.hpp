#pragma once
/// @file
/// A scalar function's value and derivatives at one point: what a gap function gives the event
/// search (model::System::gaps, integrate/root_finding.hpp).

#include <limits>

namespace clatter {

struct ValueSlope {
  double value{0.0};
  double slope{0.0};
  double curvature{std::numeric_limits<double>::quiet_NaN()};  ///< f″ (NaN: not given)
};

}  // namespace clatter
