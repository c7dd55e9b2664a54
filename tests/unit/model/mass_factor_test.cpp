// The mass factorization of the right-hand side (model/system.hpp, MassFactor): the unpivoted
// LDLᵀ against Eigen's pivoting LDLᵀ (an independent solver) on random symmetric positive
// definite matrices of every size up to kMaxDof, the diagonal path, and the fallback for a
// matrix that is not positive definite.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "clatter/model/system.hpp"

namespace clatter::model {
namespace {

TEST(MassFactor, UnpivotedLdltSolvesAsPivotingLdltOnRandomSpdMatrices) {
  std::mt19937 rng(20261128);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % kMaxDof;
    MatQ A(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = u(rng);
    // condition number up to ~1e6: A Aᵀ plus a shift
    const double shift = std::pow(10.0, -6.0 * (trial % 7) / 6.0);
    const MatQ M = A * A.transpose() + shift * MatQ::Identity(n, n);
    VecQ b(n);
    for (int i = 0; i < n; ++i) b(i) = u(rng);
    MassFactor f;
    f.compute(M);
    ASSERT_TRUE(n == 1 ? f.diagonal : f.unpivoted) << "n = " << n;  // 1 × 1 is diagonal
    const VecQ x = f.solve(b);
    const VecQ ref = Eigen::LDLT<MatQ>(M).solve(b);
    const double cond = M.norm() * M.inverse().norm();
    EXPECT_LE((x - ref).norm(), 1e-14 * cond * ref.norm()) << "n = " << n << ", cond " << cond;
    EXPECT_LE((M * x - b).norm(), 1e-12 * M.norm() * x.norm() + 1e-14) << "n = " << n;
  }
}

TEST(MassFactor, DiagonalMatricesDivide) {
  MatQ M = MatQ::Zero(3, 3);
  M.diagonal() << 2.0, 4.0, 0.5;
  MassFactor f;
  f.compute(M);
  EXPECT_TRUE(f.diagonal);
  VecQ b(3);
  b << 1.0, 1.0, 1.0;
  const VecQ x = f.solve(b);
  EXPECT_EQ(x(0), 0.5);
  EXPECT_EQ(x(1), 0.25);
  EXPECT_EQ(x(2), 2.0);
}

TEST(MassFactor, IndefiniteMatrixFallsBackToLdlt) {
  // symmetric, eigenvalues 3 and −1: no unpivoted factor; the pivoting LDLᵀ still solves M x = b
  MatQ M(2, 2);
  M << 1.0, 2.0, 2.0, 1.0;
  MassFactor f;
  f.compute(M);
  EXPECT_FALSE(f.diagonal);
  EXPECT_FALSE(f.unpivoted);
  VecQ b(2);
  b << 3.0, 0.0;
  const VecQ x = f.solve(b);
  EXPECT_NEAR(x(0), -1.0, 1e-14);
  EXPECT_NEAR(x(1), 2.0, 1e-14);
  // refactoring a positive definite matrix into the same object takes the unpivoted path again
  M << 2.0, 1.0, 1.0, 2.0;
  f.compute(M);
  EXPECT_TRUE(f.unpivoted);
  const VecQ y = f.solve(b);
  EXPECT_NEAR(y(0), 2.0, 1e-14);
  EXPECT_NEAR(y(1), -1.0, 1e-14);
}

}  // namespace
}  // namespace clatter::model
