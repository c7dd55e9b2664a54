#pragma once
/// @file
/// Eigen, as clatter's headers use it. The library is built with EIGEN_INITIALIZE_MATRICES_BY_ZERO
/// (every Eigen object starts at zero, so that `Vec3 v{}` in an aggregate is not garbage); a file
/// compiled without it would lay out the same types but read uninitialised values where the
/// library relies on zeros. The public headers therefore define it themselves, and refuse to
/// compile, with a message, when Eigen was included before them without it: include a clatter
/// header first, or define the macro for the whole target (clatter::clatter does).

#ifndef EIGEN_INITIALIZE_MATRICES_BY_ZERO
#ifdef EIGEN_CORE_H
#error \
    "clatter: Eigen was included before a clatter header without EIGEN_INITIALIZE_MATRICES_BY_ZERO; include clatter first or link clatter::clatter, which defines it"
#endif
#define EIGEN_INITIALIZE_MATRICES_BY_ZERO
#endif

#include <Eigen/Cholesky>  // IWYU pragma: export
#include <Eigen/Core>      // IWYU pragma: export
