// format_number (core/error.hpp) writes a double as C's printf("%.17g") does (enough digits to
// read it back exactly). It is written with std::to_chars; the reference here is snprintf itself,
// on random values over the whole exponent range and on the special ones.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"

namespace clatter {
namespace {

std::string printf_g17(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

TEST(FormatNumber, IsPrintfsG17) {
  std::vector<double> xs = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            0.1,
                            1e21,
                            1e-7,
                            123456789012345678.0,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::min(),
                            std::numeric_limits<double>::max(),
                            std::numeric_limits<double>::epsilon()};
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 1023);
  for (int i = 0; i < 100000; ++i) xs.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  for (const double x : xs) {
    const std::string s = format_number(x);
    ASSERT_EQ(s, printf_g17(x)) << x;
    if (std::isfinite(x)) {
      ASSERT_EQ(std::strtod(s.c_str(), nullptr), x) << s;  // it reads back exactly
    }
  }
  EXPECT_EQ(format_number(std::nan("")), printf_g17(std::nan("")));
}

}  // namespace
}  // namespace clatter
