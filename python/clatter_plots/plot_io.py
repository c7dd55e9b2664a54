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
    """Lays the figure out tightly and writes it atomically (save_atomic)."""
    fig.tight_layout()
    save_atomic(fig, out)


def save_atomic(fig, out, dpi=110):
    """Writes the figure as it is laid out: a temporary beside `out`, then a rename."""
    tmp = f"{out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    os.replace(tmp, out)
