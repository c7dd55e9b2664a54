#pragma once
/// @file
/// The records clatter writes, each as one field list: the name, unit and one-line doc of every
/// column or key. The CSV headers of the commands' files and of Python's tables are expanded
/// from these lists (csv_columns), the docs' column tables are generated from them
/// (docs/columns.md, scripts/columns.py), and Python reads them (clatter.schema). A writer
/// writes its rows in the order of its record's fields.
///
/// A field may repeat: once per coordinate ("{q}", "{q}dot_pre"), auxiliary state ("{a}"),
/// contact ("{c}_gap"), swept parameter ("{p}"), state component ("{x}", the names of
/// analysis::state_names), solved component ("{s}"), multiplier ("lambda{k}_re", k from 1) or
/// the sweep's observable ("{o}"). A field marked `with_previous` is written in the same loop as
/// the field before it ({c}_x, {c}_y, {c}_gap, {c}_mode per contact, one contact after the
/// other); otherwise each repeated field is one loop of its own ({q} for every coordinate, then
/// {q}dot for every coordinate). A field may be present only under a condition (`when`).
///
/// Units: SI; "1" for a dimensionless number, "" for text or an integer count; "[q]" the
/// coordinate's own unit (m or rad), "[q]/s" its rate, "[a]" the auxiliary state's, "[p]" the
/// parameter's, "[x]" the state component's, "[o]" the observable's.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace clatter::io {

/// What a repeated field repeats over.
enum class Repeat : unsigned char {
  kOnce,
  kCoordinate,  ///< {q}: model::System::coordinate_names
  kAux,         ///< {a}: aux_names
  kContact,     ///< {c}: the contacts' names
  kParameter,   ///< {p}: the swept parameters (surface.omega as "omega")
  kState,       ///< {x}: analysis::state_names
  kSolved,      ///< {s}: the solved state components
  kMultiplier,  ///< {k}: 1, 2, ... (the Floquet multipliers)
  kObservable,  ///< {o}: the sweep's observed quantity (analysis::column_name)
};

/// When a field is present.
enum class When : unsigned char {
  kAlways,
  kPlanarBody,           ///< the model is a planar body (model::PlanarBodyModel)
  kSeveralInitials,      ///< a sweep from more than one initial state
  kBothDirections,       ///< a sweep carried over both ways
  kPeriodicShortcut,     ///< a sweep with the periodic shortcut on
  kSummaryJson,          ///< the sweep's summary.json points and sweep.h5 only (not summary.csv)
  kSummaryJsonShortcut,  ///< the same, with the periodic shortcut on
};

struct Field {
  std::string_view name;  ///< the column or key; a repeated field's pattern
  std::string_view unit;
  std::string_view doc;
  Repeat repeat{Repeat::kOnce};
  When when{When::kAlways};
  bool with_previous{false};  ///< repeated in the loop of the field before it
};

/// The kinds of record.
enum class RecordKind : unsigned char {
  kSample,          ///< timeseries.csv
  kEvent,           ///< events.csv
  kRunSummary,      ///< simulate's summary.json
  kSweepValue,      ///< the sweep's bifurcation.csv
  kSweepPoint,      ///< the sweep's summary.csv
  kSweepTiming,     ///< the sweep's --timings file
  kBranchPoint,     ///< continue's branch.csv
  kBifurcation,     ///< continue's bifurcations.csv
  kDibBranchPoint,  ///< dib's branches.csv
  kSectionPoint,    ///< section's section.csv
  kImpact,          ///< impact's JSON report
};

struct RecordSchema {
  RecordKind kind;
  std::string_view name;   ///< "event"
  std::string_view where;  ///< the files and commands that write it
  std::string_view doc;
  std::span<const Field> fields;
  bool json{false};  ///< keys of a JSON object (else CSV columns)
};

/// Every record, in the order of RecordKind.
[[nodiscard]] std::span<const RecordSchema> schemas();
[[nodiscard]] const RecordSchema& schema(RecordKind kind);
/// The record of that name; throws InvalidArgument naming "kind" for an unknown one.
[[nodiscard]] const RecordSchema& schema(std::string_view name);

/// The names repeated fields expand with, and the conditions that hold.
struct SchemaNames {
  std::vector<std::string> coordinates, aux, contacts, parameters, state, solved;
  int multipliers{0};
  std::string observable;
  bool planar_body{false};
  bool several_initials{false};
  bool both_directions{false};
  bool periodic_shortcut{false};
  bool summary_json{false};  ///< the fields of summary.json's points (kSummaryJson…) too
};

/// One column of a record with its repeated field expanded.
struct Column {
  std::string name;
  std::string_view unit, doc;
};

/// A record's columns with its repeated fields expanded and its absent fields left out.
[[nodiscard]] std::vector<Column> csv_fields(const RecordSchema& record, const SchemaNames& names);
/// Their names.
[[nodiscard]] std::vector<std::string> csv_columns(const RecordSchema& record,
                                                   const SchemaNames& names);
/// The same, joined by commas (no line break).
[[nodiscard]] std::string csv_header(const RecordSchema& record, const SchemaNames& names);

/// The label of a swept parameter's column: its name, except surface.omega → "omega".
[[nodiscard]] std::string parameter_label(const std::string& name);

[[nodiscard]] std::string_view to_string(Repeat r);
[[nodiscard]] std::string_view to_string(When w);

}  // namespace clatter::io
