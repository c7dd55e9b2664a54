#!/usr/bin/python3
"""Writes docs/columns.md, the columns and keys of clatter's files, from the records' field lists
(include/clatter/io/schema.hpp, read through the Python module).

    PYTHONPATH=build/python /usr/bin/python3 scripts/columns.py > docs/columns.md

tests/python/test_schema.py checks that docs/columns.md is what this prints."""
import sys

import clatter


def markdown():
    lines = ["# Columns and keys of clatter's files", "",
             "Generated from the field lists of `include/clatter/io/schema.hpp` by "
             "`scripts/columns.py` (do not edit: `tests/python/test_schema.py` checks it). The "
             "commands' CSV headers and Python's tables (`.units`, `.docs`) come from the same "
             "lists; `clatter.schema()` returns them.", "",
             "A name in braces repeats: `{q}` per coordinate, `{a}` per auxiliary state, `{c}` "
             "per contact, `{p}` per swept parameter (`surface.omega` as `omega`), `{x}` per "
             "state component, `{s}` per solved component, `{k}` per Floquet multiplier "
             "(1, 2, ...), `{o}` the sweep's observable. Units are SI; `1` is dimensionless, an "
             "empty unit is text or a count; `[q]` is the coordinate's own unit (m or rad), `[a]`, "
             "`[p]`, `[x]`, `[o]` likewise.", ""]
    for r in clatter.schema():
        kind = "key" if r["json"] else "column"
        lines += [f"## {r['name']}: {r['where']}", "", r["doc"][0].upper() + r["doc"][1:] + ".",
                  "", f"| {kind} | unit | meaning | present |", "|---|---|---|---|"]
        for f in r["fields"]:
            when = "" if f["when"] == "always" else f["when"]
            doc = f["doc"].replace("|", "\\|")
            lines.append(f"| `{f['name']}` | {f['unit']} | {doc} | {when} |")
        lines.append("")
    lines += ["## Status words", "",
              "Every result's status, stop reason or end, from the one table of names beside "
              "each enumeration (`include/clatter/core/enum_names.hpp`). Words shared between "
              "results mean the same in each: `ok` a valid result, `energy_gain` valid as the law "
              "prescribes it but the kinetic energy grew, `no_termination` an impulse-space "
              "integration that did not end, `max_events` an event cap reached, `grazing` a "
              "branch ended by a grazing.", "", "| result | words |", "|---|---|"]
    for result, words in clatter._clatter._status_words():
        lines.append(f"| {result} | {', '.join(f'`{w}`' for w in words)} |")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(markdown())
