#pragma once
// Records between the MPI ranks of one sweep: a rank packs its records into byte strings as it
// finishes them and sends them to rank 0 (MpiWorld::send), which unpacks them. The ranks run the
// same binary on machines of one architecture (as mpirun launches them), so numbers travel as their
// bytes in memory: exact, and far cheaper than the checkpoint's text lines (sweep_checkpoint.hpp),
// which must survive a crash and be read by a later run.
//
// Layout of a record: point, run, reason, distinct, impacts, events, rk_steps, cycle, closed_at,
// refused (int64 each); impacts_per_period, seconds, t (double each); q, q̇, a and the values (an
// int64 count, then the doubles); message and error (an int64 length, then the bytes).

#include <cstddef>
#include <string>

#include "clatter/analysis/parameter_sweep.hpp"

namespace clatter::cli {

/// Appends record r to `out`.
void pack_record(const analysis::SweepRecord& r, std::string& out);
/// Reads one record from [p, end) and advances p past it; false if the bytes end inside it or a
/// field is out of range (point ≥ points, run ≥ runs, an unknown stop reason, a negative or
/// oversized count); p is then unspecified.
bool unpack_record(const char*& p, const char* end, std::size_t points, int runs,
                   analysis::SweepRecord& out);

}  // namespace clatter::cli
