"""Shared input and output of the plot scripts: CSV reading with a clean error, atomic saving."""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (the scripts import pyplot from here)


def read_csv(path, script):
    """(rows as dicts, field names); on failure a message on stderr and exit 2."""
    try:
        with open(path) as f:
            reader = csv.DictReader(f)
            return list(reader), reader.fieldnames or []
    except (OSError, ValueError) as e:
        print(f"{script}: {e}", file=sys.stderr)
        sys.exit(2)


def save(fig, out):
    """Writes the figure atomically: a temporary beside `out`, then a rename."""
    fig.tight_layout()
    tmp = f"{out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, out)
