#pragma once
/// @file
/// Fixed-size math types used throughout clatter. Planar contact quantities are 2-vectors
/// ordered (tangential T, normal N), see docs/notation.md.

#include "clatter/core/eigen.hpp"

namespace clatter {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

}  // namespace clatter
