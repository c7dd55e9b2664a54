"""The module under a fuzzer ([issue 27] items 2 and 5): every public function called with valid
arguments and with each argument replaced by None, NaN, ±inf, extremes, wrong shapes and types
(fuzz_calls.py). A call may return or raise a Python exception; it must not crash the
interpreter (clatter.state_names(None) used to end in a segmentation fault) nor run for ever,
and it must not return when given a value no argument takes (NaN, a stray string, an empty
list or dict, an object), except where that value happens to be valid (listed in VALID).

The calls run in a child process that names each call before making it, so a crash or a hang is
reported by name and the child is restarted from the next call."""
import os
import re
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PER_CALL_S = 60.0  # a call still running after this long counts as a hang
NAMES = {}  # call index -> its name ("simulate progress = 'x'"), filled by run_from

# bad values that no argument takes (None may mean "default"; numbers may be in range)
NEVER_VALID = re.compile(r"= (nan|'x'|''|\[\]|\{\}|<object object)")
# where such a value is valid: 'x' names the ball's x coordinate
# solve = '' or [] is the default (every component but the anchor), as `orbits` without --solve
VALID = {"periodic_orbit solve = 'x'", "periodic_orbit solve = ''", "periodic_orbit solve = []",
         "continue_orbit arg 1 = 'x'", "continue_orbit arg 1 = ''", "continue_orbit arg 1 = []"}


def run_from(first, env):
    """Runs the calls from `first`; returns (count, outcomes {i: text}, failure or None) where
    failure is (i, name, "crash: signal N" | "hang")."""
    child = subprocess.Popen([sys.executable, os.path.join(HERE, "fuzz_calls.py"), str(first)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=env)
    count, outcomes, current = None, {}, None
    deadline = time.monotonic() + PER_CALL_S
    while True:
        ready, _, _ = select.select([child.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            child.kill()
            child.wait()
            if current is None:  # the child did not reach its first call in time
                return count, outcomes, (first, "(start-up)", "hang")
            return count, outcomes, (current[0], current[1], "hang")
        line = child.stdout.readline()
        if not line:
            rc = child.wait()
            if rc == 0:
                return count, outcomes, None
            assert current is not None, f"the fuzz child failed before its first call: exit {rc}"
            return count, outcomes, (current[0], current[1], f"crash: exit {rc}")
        word, rest = line.rstrip("\n").split(" ", 1)
        if word == "count":
            count = int(rest)
        elif word == "call":
            i, name = rest.split(" ", 1)
            current = (int(i), name)
            NAMES[int(i)] = name
            deadline = time.monotonic() + PER_CALL_S
        elif word == "done":
            i, seconds, outcome = rest.split(" ", 2)
            outcomes[int(i)] = outcome


def test_no_call_crashes_or_hangs():
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", "")
    failures, outcomes, first, count = [], {}, 0, None
    while count is None or first < count:
        count, got, failure = run_from(first, env)
        outcomes.update(got)
        if failure is None:
            break
        failures.append(failure)
        first = failure[0] + 1
    assert count is not None and count > 300
    assert not failures, "\n".join(f"call {i} ({name}): {what}" for i, name, what in failures)
    # every call ended in a return or a Python exception of an expected kind
    other = {i: o for i, o in outcomes.items() if o.startswith("raised-other")}
    assert not other, other
    assert len(outcomes) == count
    # no silent accept: a value no argument takes is refused ([issue 27] item 5; `progress="x"`
    # or NaN was taken for its truth value)
    silent = [NAMES[i] for i, o in outcomes.items()
              if o == "returned" and NEVER_VALID.search(NAMES.get(i, "")) and NAMES[i] not in VALID]
    assert not silent, silent
