#include "clatter/app/regions.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/laws/stronge.hpp"

namespace clatter::app {

namespace {

// [NDC] Fig. 2 / spec §3.3 (scaled, |B| < 1): the sign pattern of the rate constants
char panel(double B, double mu) {
  if (B > mu) return 'd';                    // k_T⁺ > 0: no impulsive stick, + side
  if (B < -mu) return 'e';                   // k_T⁻ < 0
  if (B > 0.0 && mu * B > 1.0) return 'b';   // k_N⁺ < 0: jam for positive slip
  if (B < 0.0 && -mu * B > 1.0) return 'c';  // k_N⁻ < 0
  return 'a';
}

}  // namespace

Regions run_regions(const RegionsRequest& o) {
  require(o.n >= 11 && o.n <= 4001, "n", "must lie in [11, 4001]");
  require(std::isfinite(o.r) && o.r >= 0.0 && o.r <= 1.0, "r", "must lie in [0, 1]", o.r);
  require(o.panels != !o.fix.empty(), "fix", "give either --fix B|mu VALUE or --panels");
  Regions out;
  std::ostringstream csv;
  csv.precision(10);
  if (o.panels) {
    csv << "B,mu,panel\n";
    for (int i = 0; i < o.n; ++i) {
      const double B = -0.999 + 1.998 * i / (o.n - 1);
      for (int j = 0; j < o.n; ++j) {
        const double mu = 3.0 * j / (o.n - 1);
        const char c = panel(B, mu);
        csv << B << ',' << mu << ',' << c << '\n';
        ++out.counts[std::string(1, c)];
      }
    }
    out.title = "parameter panels (a)-(e)";
  } else {
    require(o.fix == "B" || o.fix == "mu", "fix", "give B VALUE or mu VALUE");
    double value = 0.0;
    std::size_t used = 0;
    try {
      value = std::stod(o.value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // the whole word: "1.2.3" is not 1.2
    require(used > 0 && used == o.value.size() && std::isfinite(value), "fix",
            "'" + o.value + "' is not a finite number");
    const bool fixB = o.fix == "B";
    if (fixB) {
      require(std::abs(value) < 1.0, "fix", "the scaled B must lie in (-1, 1)", value);
    } else {
      require(value >= 0.0, "fix", "mu must be >= 0", value);
    }
    const std::string xname = fixB ? "mu" : "B";
    csv << xname << ",v_T,region,ends_in_stick\n";
    for (int i = 0; i < o.n; ++i) {
      const double x = fixB ? 3.0 * i / (o.n - 1) : -0.999 + 1.998 * i / (o.n - 1);
      const double B = fixB ? value : x, mu = fixB ? x : value;
      const ContactMatrix W{1.0, B, 1.0};
      for (int j = 0; j < o.n; ++j) {
        const double vT = -3.0 + 6.0 * (j + 0.5) / o.n;
        const ImpactOutcome r = stronge_closed_form({{vT, -1.0}, W}, {mu, o.r});
        csv << x << ',' << vT << ',' << r.region << ',' << (r.ends_in_stick ? 1 : 0) << '\n';
        ++out.counts[std::to_string(r.region)];
      }
    }
    out.title = "section " + o.fix + " = " + o.value + ", r = " + std::to_string(o.r);
  }
  out.csv = csv.str();
  return out;
}

std::vector<OutputFile> regions_files(const Regions& r, const std::filesystem::path& folder,
                                      bool plot) {
  const auto data = folder / "regions.csv";
  const auto js = folder / "summary.json";
  const nlohmann::json summary = {
      {"title", r.title},
      {"points", r.counts},
      {"files",
       {{"regions", data.string()},
        {"plot", plot ? nlohmann::json((folder / "regions.png").string()) : nlohmann::json()}}}};
  return {{data, r.csv}, {js, summary.dump(2) + "\n"}};
}

}  // namespace clatter::app
