#pragma once
/// @file
/// The region maps of Stronge's law in the scaled variables of [NDC] §3.2 (A = C = 1,
/// v_N⁻ = −1; spec/003_dib.md §3.2–3.6), as one operation for every front end (`clatter regions`,
/// Python's regions): [NDC] Fig. 4(b)–(d), the region (0–10) of every pre-impact v_T on a
/// section of fixed B (axes μ ∈ [0, 3], v_T ∈ [−3, 3]) or of fixed μ (axes B ∈ (−1, 1), v_T), and
/// Fig. 2, the parameter panels (a)–(e) of the (B, μ) plane (spec §3.3). Files:
/// @verbatim
///   regions.csv   x,v_T,region,ends_in_stick (a section; x = mu or B)  or  B,mu,panel
///                 (10 significant digits)
///   summary.json  title, the points per region or panel, files
/// @endverbatim

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter regions`, with their defaults: a section (`fix` = "B" or "mu" and
/// its value as written, which the title repeats) or the panels.
struct RegionsRequest {
  std::string fix;     ///< "B" or "mu" (a section); empty with panels
  std::string value;   ///< the fixed value, as text ("0.5"): B in (−1, 1), μ ≥ 0
  bool panels{false};  ///< the (B, μ) parameter panels instead of a section
  double r{0.9};       ///< e* (the paper's r), in [0, 1]
  int n{301};          ///< grid points per axis, in [11, 4001]
};

/// regions.csv's text, the points per region or panel, and the title.
struct Regions {
  std::string csv;
  std::map<std::string, int> counts;
  std::string title;
};

/// Checks the request (InvalidArgument naming "n", "r" or "fix") and maps the grid.
[[nodiscard]] Regions run_regions(const RegionsRequest& request);

/// regions.csv and summary.json (last) in `folder`; `plot`: regions.png is drawn beside them.
[[nodiscard]] std::vector<OutputFile> regions_files(const Regions& regions,
                                                    const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
