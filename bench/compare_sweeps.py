#!/usr/bin/python3
"""Compares two sweep output folders value by value (docs/performance.md, "Sweeps fast with
default options"): for each omega, bifurcation.csv's records and summary.csv's distinct counts.

    /usr/bin/python3 bench/compare_sweeps.py FULL_DIR OTHER_DIR

Prints how many values periodic in both (distinct != -1) have the same records to 1e-8 relative
in order, the same as sets (a shifted cycle), or differ; how many are chaotic (-1) in either; and
the differing values of period <= 16: (omega, distinct, distinct, samples, samples) when the
counts differ, else (omega, distinct, distinct, largest difference of the sorted records).
"""
import collections
import csv
import os
import sys

import numpy as np


def load(folder):
    records = collections.defaultdict(list)
    with open(os.path.join(folder, "bifurcation.csv")) as fh:
        for row in csv.DictReader(fh):
            records[float(row["omega"])].append(float(row["y_apex"]))
    with open(os.path.join(folder, "summary.csv")) as fh:
        distinct = {float(r["omega"]): int(r["distinct"]) for r in csv.DictReader(fh)}
    return records, distinct


def main():
    (a, da), (b, db) = load(sys.argv[1]), load(sys.argv[2])
    periodic = same = shifted = 0
    differ = []
    for w in sorted(da):
        if da[w] == -1 or db.get(w, -1) == -1:
            continue
        periodic += 1
        x, y = np.array(a.get(w, [])), np.array(b.get(w, []))
        if da[w] != db[w] or len(x) != len(y):
            differ.append((w, da[w], db[w], len(x), len(y)))
            continue
        scale = np.maximum(1.0, np.abs(x))
        if len(x) == 0 or np.max(np.abs(x - y) / scale) <= 1e-8:
            same += 1
            continue
        xs, ys = np.sort(x), np.sort(y)
        if np.max(np.abs(xs - ys) / np.maximum(1.0, np.abs(xs))) <= 1e-8:
            shifted += 1
            continue
        differ.append((w, da[w], db[w], float(np.max(np.abs(xs - ys)))))
    chaotic = sum(1 for w in da if da[w] == -1 or db.get(w, -1) == -1)
    print(f"periodic in both: {periodic}; equal in order: {same}; equal as sets (cycle "
          f"shifted): {shifted}; different: {len(differ)}; chaotic (-1) in either: {chaotic}")
    low = [d for d in differ if 0 <= d[1] <= 16 and 0 <= d[2] <= 16]
    print(f"different with period <= 16 in both: {len(low)}")
    for d in low:
        print(" ", d)


if __name__ == "__main__":
    main()
