// Scenario files (io/scenario.hpp): every example parses; parameters are read by name; a typo, a
// missing field or a value out of range is an error naming the key.

#include "clatter/io/scenario.hpp"

#include "clatter/model/planar_body_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace clatter::io {
namespace {

const char* kRod = R"(
name = "r"
[model]
kind = "rod"
mass = 2.0
half_length = 0.5
[surface]
amplitude = 1.0
omega = 4.0
[law]
kind = "brach"
mu = 0.3
e = 0.6
[initial]
q = [0.0, 3.0, 0.1]
qdot = [0.0, 0.0, 1.0]
[simulation]
t_end = 10.0
chatter = "cutoff"
v_tol = 1e-5
two_contact = "symmetric"
)";

std::string field_of(const std::string& text) {
  try {
    (void)parse_scenario(text, "test");
  } catch (const InvalidArgument& e) {
    return e.field();
  }
  return "no error";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Scenario, ReadsEveryFieldByName) {
  const Scenario s = parse_scenario(kRod, "test");
  EXPECT_EQ(s.name, "r");
  EXPECT_EQ(s.plot, "rod");
  const auto& rod = dynamic_cast<const model::PlanarBodyModel&>(*s.model);
  EXPECT_EQ(s.kind, "rod");
  EXPECT_EQ(rod.num_contacts(), 2);
  EXPECT_DOUBLE_EQ(rod.body().m, 2.0);
  EXPECT_DOUBLE_EQ(rod.body().I, 2.0 * 0.25 / 3.0);
  EXPECT_EQ(rod.feature(1).c_B.x(), 0.5);
  EXPECT_EQ(rod.contact(0).law.kind, LawKind::kBrach);
  EXPECT_DOUBLE_EQ(rod.contact(0).law.params.mu, 0.3);
  // sustained friction defaults to the law's μ; parameters read back by name
  EXPECT_DOUBLE_EQ(rod.contact(1).mu_s, 0.3);
  EXPECT_DOUBLE_EQ(rod.contact(1).mu_d, 0.3);
  EXPECT_DOUBLE_EQ(rod.parameter("surface.omega"), 4.0);
  EXPECT_DOUBLE_EQ(rod.parameter("contact.P2.e"), 0.6);
  EXPECT_DOUBLE_EQ(rod.surface().omega, 4.0);
  EXPECT_DOUBLE_EQ(s.initial.q.z(), 0.1);
  EXPECT_DOUBLE_EQ(s.options.t_end, 10.0);
  EXPECT_EQ(s.options.chatter, hybrid::ChatterPolicy::kCutoff);
  EXPECT_DOUBLE_EQ(s.options.v_tol, 1e-5);
  EXPECT_EQ(s.options.two_contact, hybrid::TwoContactRule::kSymmetric);
}

TEST(Scenario, BadInputNamesTheKey) {
  EXPECT_EQ(field_of(replace(kRod, "omega = 4.0", "omeg = 4.0")), "surface.omeg");
  EXPECT_EQ(field_of(replace(kRod, "omega = 4.0", "omega = -4.0")), "surface.omega");
  EXPECT_EQ(field_of(replace(kRod, "kind = \"rod\"", "kind = \"cube\"")), "model.kind");
  EXPECT_EQ(field_of(replace(kRod, "kind = \"brach\"", "kind = \"hertz\"")), "law.kind");
  EXPECT_EQ(field_of(replace(kRod, "e = 0.6", "e = 1.6")), "law.e");
  EXPECT_EQ(field_of(replace(kRod, "mu = 0.3", "mu = -0.3")), "law.mu");
  EXPECT_EQ(field_of(replace(kRod, "half_length = 0.5", "")), "model.half_length");
  EXPECT_EQ(field_of(replace(kRod, "mass = 2.0", "mass = \"heavy\"")), "model.mass");
  EXPECT_EQ(field_of(replace(kRod, "t_end = 10.0", "t_end = -1.0")), "t_end");
  EXPECT_EQ(field_of(replace(kRod, "chatter = \"cutoff\"", "chatter = \"never\"")),
            "simulation.chatter");
  EXPECT_EQ(field_of(replace(kRod, "q = [0.0, 3.0, 0.1]", "q = [0.0, 3.0]")), "initial.q");
  EXPECT_EQ(field_of(replace(kRod, "[initial]", "[initial\n")), "test");  // TOML syntax
  EXPECT_EQ(field_of(replace(kRod, "name = \"r\"", "nmae = \"r\"")), "nmae");
}

TEST(Scenario, EveryExampleParses) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(CLATTER_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    EXPECT_NO_THROW((void)load_scenario(entry.path())) << entry.path();
    ++n;
  }
  EXPECT_GE(n, 7);
}

TEST(Scenario, MissingFileIsAnError) {
  EXPECT_THROW((void)load_scenario("/nonexistent/scenario.toml"), InvalidArgument);
}

}  // namespace
}  // namespace clatter::io
