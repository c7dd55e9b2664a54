#pragma once
// Plots are drawn by matplotlib scripts in python/clatter_plots/, run with the interpreter the
// build was configured with (Debian's /usr/bin/python3). CLATTER_PLOT_DIR in the environment
// overrides the script directory.

#include <string>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::cli {

/// The unit of model parameter `name` ("" if dimensionless or unknown), for a plot's axis.
[[nodiscard]] std::string parameter_unit(const model::System& m, const std::string& name);

/// Runs python/clatter_plots/<script> with `args`. Throws std::runtime_error naming the script
/// and its exit status on failure; `what_is_complete` says which outputs are already written.
void run_plot_script(const std::string& script, const std::vector<std::string>& args,
                     const std::string& what_is_complete);

}  // namespace clatter::cli
