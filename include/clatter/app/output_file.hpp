#pragma once
/// @file
/// A file an operation of the application layer writes: its final path and its whole content.
/// The operations compose their files; the front ends write them (the CLI all together through
/// its output set, Python each atomically, io/atomic_file.hpp), so that given the same request
/// both write the same bytes.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clatter::app {

struct OutputFile {
  std::filesystem::path path;
  std::string content;
};

/// A figure of an operation: python/clatter_plots/<script> run with `args`, which name the
/// operation's files by their final paths and the figure by `out`. A front end that draws before
/// the files are in place (the CLI, through temporaries) maps those paths to where the files are.
struct PlotCall {
  std::string script;
  std::vector<std::string> args;
  std::filesystem::path out;
};

/// What an operation that prints a report gives its front ends: its files (CSV, in the order
/// its header names them), its figure when asked for, and the report (JSON text with a final
/// newline; it names the files and the figure).
struct ReportFiles {
  std::vector<OutputFile> files;
  std::optional<PlotCall> plot;
  std::string summary;
};

}  // namespace clatter::app
