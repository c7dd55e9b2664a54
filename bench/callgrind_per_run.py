#!/usr/bin/python3
"""Instructions per hybrid::simulate() call of one engine_bench benchmark, counted by callgrind
(deterministic for one compiler and library, so old and new libraries compare without the noise
of a shared machine): the inclusive count of simulate() over its calls in one benchmark run.

Usage: /usr/bin/python3 bench/callgrind_per_run.py ENGINE_BENCH BENCHMARK_NAME
(an old binary with its old library: LD_LIBRARY_PATH=OLD/lib ... OLD/engine_bench)
"""
import os
import subprocess
import sys
import tempfile

binary, name = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--compress-strings=no", "--compress-pos=no", binary,
                    f"--benchmark_filter={name}$", "--benchmark_min_time=0.01"],
                   capture_output=True, check=True)
    calls = inclusive = 0
    pending = False
    with open(out) as f:
        for line in f:
            if line.startswith("cfn=") and "clatter::hybrid::simulate(" in line:
                pending = True
            elif pending and line.startswith("calls="):
                calls += int(line.split()[0][len("calls="):])
            elif pending and line[:1].isdigit():
                inclusive += int(line.split()[1])
                pending = False
            else:
                pending = False
if calls == 0:
    sys.exit(f"{name}: no call of hybrid::simulate was counted")
print(f"{name:22s} calls {calls:6d} instructions per simulate() {inclusive / calls:12.0f}")
