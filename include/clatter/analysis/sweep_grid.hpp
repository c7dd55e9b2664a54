#pragma once
/// @file
/// The grid of a parameter sweep: one or two named model parameters (System::parameters(), e.g.
/// "surface.omega", "surface.amplitude", "e"), each on an evenly spaced axis. A grid point p is
/// the pair of axis indices (i₀, i₁) stored as p = i₀·n₁ + i₁ (C order, axis 0 outermost; a 1-D
/// grid has n₁ = 1).

#include <cstddef>
#include <string>
#include <vector>

namespace clatter::analysis {

/// One axis: n values from `from` to `to` (both included; n = 1 gives `from`).
struct GridAxis {
  std::string name;  ///< the model parameter's name
  double from{0.0};
  double to{0.0};
  int n{1};  ///< number of values, ≥ 1

  /// The i-th value: from + (to − from)·i/(n − 1), evaluated in that order (the ω sweep's
  /// rounding).
  [[nodiscard]] double value(int i) const {
    return n == 1 ? from : from + (to - from) * i / (n - 1);
  }
};

class SweepGrid {
 public:
  SweepGrid() = default;
  /// @pre 1 ≤ axes.size() ≤ 2 (checked by validate in parameter_sweep.hpp).
  explicit SweepGrid(std::vector<GridAxis> axes) : axes_(std::move(axes)) {}

  [[nodiscard]] const std::vector<GridAxis>& axes() const { return axes_; }
  [[nodiscard]] int dimension() const { return static_cast<int>(axes_.size()); }
  /// Number of values of axis k (1 for an axis the grid does not have).
  [[nodiscard]] int extent(int k) const {
    return k < dimension() ? axes_[static_cast<std::size_t>(k)].n : 1;
  }
  /// Number of grid points n₀·n₁.
  [[nodiscard]] std::size_t size() const {
    return static_cast<std::size_t>(extent(0)) * static_cast<std::size_t>(extent(1));
  }
  /// The point of axis indices (i0, i1).
  [[nodiscard]] std::size_t point(int i0, int i1) const {
    return static_cast<std::size_t>(i0) * static_cast<std::size_t>(extent(1)) +
           static_cast<std::size_t>(i1);
  }
  /// Axis index k of point p.
  [[nodiscard]] int index(std::size_t p, int k) const {
    const std::size_t n1 = static_cast<std::size_t>(extent(1));
    return static_cast<int>(k == 0 ? p / n1 : p % n1);
  }
  /// The value of axis k at point p.
  [[nodiscard]] double value(std::size_t p, int k) const {
    return axes_[static_cast<std::size_t>(k)].value(index(p, k));
  }

 private:
  std::vector<GridAxis> axes_;
};

}  // namespace clatter::analysis
