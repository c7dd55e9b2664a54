#pragma once
// Plots are drawn by matplotlib scripts in python/clatter_plots/, run with the interpreter the
// build was configured with (Debian's /usr/bin/python3). CLATTER_PLOT_DIR in the environment
// overrides the script directory.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"
#include "clatter/model/system.hpp"
#include "commands/output_set.hpp"

namespace clatter::cli {

/// The unit of model parameter `name` ("" if dimensionless or unknown), for a plot's axis.
[[nodiscard]] std::string parameter_unit(const model::System& m, const std::string& name);

/// Runs python/clatter_plots/<script> with `args`. Throws std::runtime_error naming the script
/// and its exit status on failure; `what_is_complete` says which outputs are already written.
void run_plot_script(const std::string& script, const std::vector<std::string>& args,
                     const std::string& what_is_complete);

/// Draws `plot` into the temporary of plot.out: its arguments that name one of `files` or the
/// figure are mapped to their temporaries in `set` (OutputSet::draw: a failed plot commits the
/// other files, `last` last, and throws).
void draw_plot(OutputSet& set, const app::PlotCall& plot,
               const std::vector<std::filesystem::path>& files, const std::filesystem::path& last,
               const std::string& what_is_complete);

/// Writes an operation's `files` into `set`, draws `plot` (when given) from their temporaries
/// (python/clatter_plots/<plot->script>, its arguments that name a file or the figure mapped to
/// the temporaries), and commits the set with `last` renamed last. A failed plot leaves the
/// files committed and throws; `what_is_complete` says which (run_plot_script).
void commit_outputs(OutputSet& set, const std::vector<app::OutputFile>& files,
                    const std::optional<app::PlotCall>& plot, const std::filesystem::path& last,
                    const std::string& what_is_complete);

}  // namespace clatter::cli
