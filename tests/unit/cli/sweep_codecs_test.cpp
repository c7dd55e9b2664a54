// The sweep's record codecs (apps/clatter/commands): the checkpoint's text lines
// (sweep_checkpoint.hpp) and the ranks' binary transport (sweep_transport.hpp) give back every
// field of a record bit for bit, over random records with the awkward values (NaN, ±inf, −0,
// subnormals, messages with spaces, '%' and bytes above 0x7f); cut or corrupt input is refused;
// and the CSV's number format (append_g12) writes what C's printf("%.12g") writes.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "clatter/io/csv_number.hpp"
#include "commands/sweep_checkpoint.hpp"
#include "commands/sweep_transport.hpp"

namespace clatter::cli {
namespace {

constexpr std::size_t kPoints = 1000;
constexpr int kRuns = 4;

double awkward(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  switch (kind(rng)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return (u(rng) < 0 ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
    case 2:
      return -0.0;
    case 3:
      return u(rng) * std::numeric_limits<double>::denorm_min() * 1e6;  // subnormal
    case 4:
      return std::bit_cast<double>(rng());  // any bit pattern (NaN payloads included)
    default:
      return u(rng) * std::pow(10.0, 40.0 * u(rng));
  }
}

std::string awkward_text(std::mt19937_64& rng) {
  const std::string alphabet = "ab %%  #\t\n\"\xc3\xa9=,";
  std::uniform_int_distribution<std::size_t> len(0, 20), pick(0, alphabet.size() - 1);
  std::string s;
  for (std::size_t i = len(rng); i > 0; --i) s += alphabet[pick(rng)];
  return s;
}

analysis::SweepRecord random_record(std::mt19937_64& rng) {
  analysis::SweepRecord r;
  std::uniform_int_distribution<int> small(0, 12);
  r.point = std::uniform_int_distribution<std::size_t>(0, kPoints - 1)(rng);
  r.run = std::uniform_int_distribution<int>(0, kRuns - 1)(rng);
  r.reason = static_cast<hybrid::StopReason>(
      std::uniform_int_distribution<int>(0, static_cast<int>(hybrid::StopReason::kCancelled))(rng));
  r.distinct = small(rng) - 1;
  r.impacts = static_cast<long>(rng() >> 20);
  r.impacts_per_period = awkward(rng);
  r.events = static_cast<long>(rng() >> 20);
  r.rk_steps = static_cast<long>(rng() >> 30);
  r.cycle = small(rng);
  r.closed_at = static_cast<long>(rng() >> 40);
  r.seconds = awkward(rng);
  r.t = awkward(rng);
  r.q.resize(small(rng));
  r.qd.resize(small(rng));
  r.aux.resize(small(rng) % 3);
  for (double& x : r.q) x = awkward(rng);
  for (double& x : r.qd) x = awkward(rng);
  for (double& x : r.aux) x = awkward(rng);
  r.values.resize(static_cast<std::size_t>(small(rng) * 7));
  for (double& x : r.values) x = awkward(rng);
  r.message = awkward_text(rng);
  r.error = small(rng) < 3 ? awkward_text(rng) : std::string();
  return r;
}

// bit for bit, NaN payloads too; a NaN read back by strtod may come back as the canonical NaN
// of its sign, since strtod("nan") does not carry a payload
void expect_same_double(double a, double b, bool payloads) {
  if (std::isnan(a) && !payloads) {
    EXPECT_TRUE(std::isnan(b));
    return;
  }
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << a << " " << b;
}

template <class V>
void expect_same_vector(const V& a, const V& b, bool payloads) {
  ASSERT_EQ(a.size(), b.size());
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(a.size()); ++i)
    expect_same_double(a[i], b[i], payloads);
}

void expect_same(const analysis::SweepRecord& a, const analysis::SweepRecord& b, bool payloads) {
  EXPECT_EQ(a.point, b.point);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.distinct, b.distinct);
  EXPECT_EQ(a.impacts, b.impacts);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.rk_steps, b.rk_steps);
  EXPECT_EQ(a.cycle, b.cycle);
  EXPECT_EQ(a.closed_at, b.closed_at);
  expect_same_double(a.impacts_per_period, b.impacts_per_period, payloads);
  expect_same_double(a.seconds, b.seconds, payloads);
  expect_same_double(a.t, b.t, payloads);
  expect_same_vector(a.q, b.q, payloads);
  expect_same_vector(a.qd, b.qd, payloads);
  expect_same_vector(a.aux, b.aux, payloads);
  expect_same_vector(a.values, b.values, payloads);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.error, b.error);
}

TEST(SweepCodecs, CheckpointLinesGiveBackEveryField) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 2000; ++k) {
    const analysis::SweepRecord r = random_record(rng);
    const std::string line = encode_record(r);
    ASSERT_EQ(line.find('\n'), std::string::npos);  // one line
    analysis::SweepRecord back;
    ASSERT_TRUE(decode_record(line, kPoints, kRuns, back)) << line;
    expect_same(r, back, false);
  }
}

TEST(SweepCodecs, CheckpointNumbersAreCsHexFloats) {
  // the journal's numbers are C's %a for normal numbers (journals of earlier versions read alike)
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 1000; ++k) {
    analysis::SweepRecord r;
    r.t = u(rng) * std::pow(10.0, 30.0 * u(rng));
    char a[64];
    std::snprintf(a, sizeof a, " %a ", r.t);
    EXPECT_NE(encode_record(r).find(a), std::string::npos) << a;
  }
}

TEST(SweepCodecs, CheckpointRefusesCutOrAlteredLines) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 300; ++k) {
    const std::string line = encode_record(random_record(rng));
    analysis::SweepRecord back;
    std::uniform_int_distribution<std::size_t> at(0, line.size() - 1);
    EXPECT_FALSE(decode_record(line.substr(0, at(rng)), kPoints, kRuns, back));
    std::string altered = line;
    const std::size_t i = at(rng);
    altered[i] = altered[i] == '1' ? '2' : '1';
    EXPECT_FALSE(decode_record(altered, kPoints, kRuns, back)) << i;
  }
  // a record of a larger sweep
  analysis::SweepRecord r;
  r.point = kPoints;
  analysis::SweepRecord back;
  EXPECT_FALSE(decode_record(encode_record(r), kPoints, kRuns, back));
}

TEST(SweepCodecs, TransportGivesBackEveryFieldInOrder) {
  std::mt19937_64 rng(8);
  std::vector<analysis::SweepRecord> sent;
  std::string bytes;
  for (int k = 0; k < 2000; ++k) {
    sent.push_back(random_record(rng));
    pack_record(sent.back(), bytes);
  }
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  for (const analysis::SweepRecord& r : sent) {
    analysis::SweepRecord back;
    ASSERT_TRUE(unpack_record(p, end, kPoints, kRuns, back));
    expect_same(r, back, true);  // bytes in memory: NaN payloads survive
  }
  EXPECT_EQ(p, end);
}

TEST(SweepCodecs, TransportRefusesCutOrOutOfRangeRecords) {
  std::mt19937_64 rng(9);
  for (int k = 0; k < 300; ++k) {
    std::string bytes;
    pack_record(random_record(rng), bytes);
    const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng);
    const char* p = bytes.data();
    analysis::SweepRecord back;
    EXPECT_FALSE(unpack_record(p, bytes.data() + cut, kPoints, kRuns, back))
        << cut << " of " << bytes.size();
  }
  for (const auto& [point, run] : {std::pair<std::size_t, int>{kPoints, 0}, {0, kRuns}}) {
    analysis::SweepRecord r;
    r.point = point;
    r.run = run;
    std::string bytes;
    pack_record(r, bytes);
    const char* p = bytes.data();
    analysis::SweepRecord back;
    EXPECT_FALSE(unpack_record(p, bytes.data() + bytes.size(), kPoints, kRuns, back));
  }
}

TEST(SweepCodecs, CsvNumbersAreCsPercentPoint12g) {
  std::mt19937_64 rng(10);
  for (int k = 0; k < 100000; ++k) {
    const double x = awkward(rng);
    std::string mine;
    io::append_g12(mine, x);
    char c[64];
    std::snprintf(c, sizeof c, "%.12g", x);
    // C prints a NaN's sign ("-nan"); so does to_chars
    EXPECT_EQ(mine, std::string(c)) << std::bit_cast<std::uint64_t>(x);
  }
}

}  // namespace
}  // namespace clatter::cli
