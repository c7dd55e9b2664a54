#pragma once
// Subcommands of the clatter command-line tool. Each registers its options on the parent app and
// returns a callable that runs it after parsing; errors are thrown (InvalidArgument names the
// field) and turned into a message and a non-zero exit by main.cpp.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace clatter::cli {

using Run = std::function<int()>;
/// Runs a clatter command line (without the program name) in a fresh parser: for `reproduce`.
using Dispatch = std::function<int(const std::vector<std::string>&)>;

Run add_impact(CLI::App& app);
Run add_impact_sweep(CLI::App& app);
Run add_simulate(CLI::App& app);
Run add_compliant(CLI::App& app);
Run add_compliant_sweep(CLI::App& app);
Run add_multipoint(CLI::App& app);
Run add_sweep(CLI::App& app);
Run add_orbits(CLI::App& app);
Run add_continue(CLI::App& app);
Run add_section(CLI::App& app);
Run add_dib(CLI::App& app);
Run add_regions(CLI::App& app);
Run add_painleve(CLI::App& app);
Run add_models(CLI::App& app);
Run add_reproduce(CLI::App& app, Dispatch dispatch);

}  // namespace clatter::cli
