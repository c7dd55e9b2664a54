#!/usr/bin/python3
"""Plots of an event-driven simulation for `clatter simulate`.

    /usr/bin/python3 python/clatter_plots/simulate.py --style STYLE --timeseries TS.csv \
        --events EV.csv --out OUT.png [--title "..."]

TS.csv: t,x,y,theta,xdot,ydot,thetadot,energy,surface_h[,surface_u], then per contact
<name>_x,<name>_y,<name>_gap,<name>_mode.  EV.csv: one row per event (kind, t, ...).

STYLE = rod   [BP] Fig. 5 / [B] Fig. 5.4: (a) theta mod 2 pi against t, (b) a close-up of (a)
              around the first symmetric event (or the last 10 % of the run), (c) the heights of
              the end points P1, P2 and of the surface over the same window.
STYLE = ball  (a) the height of the contact point and of the surface against t, impacts marked;
              (b) a close-up of the last chatter (closure) or of the last 10 % of the run.
STYLE = body  (a) the heights of all contact points and of the surface, (b) theta against t.
              A single contact that stays closed on a moving belt (surface_u not 0, no
              flight) is drawn as stick-slip instead: (a) the body's velocity x' and the belt's
              u(t), with the contact mode shaded (stick, slide+, slide-); (b) the slip velocity
              x' - u(t) with the stick, slip-onset and slip-reversal events marked.
STYLE = generic  any model (TS.csv: t, the model's coordinates and velocities, energy, then
              <name>_gap,<name>_mode per contact): (a) the coordinates against t (those named
              like angles, theta, phi, ..., dashed on their own axis in rad when there are
              others), (b) every contact's gap with its events marked; legends beside the axes.

Below every style: the total energy against t with the events marked.
Output: OUT.png, written atomically (temporary file + os.replace). Bad input: message on
stderr, exit status 2.
"""

import argparse
import csv
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return rows


def column(rows, name):
    return [float(r[name]) for r in rows]


def contact_names(header):
    return [h[:-2] for h in header if h.endswith("_x") and h != "x"]


def window(t, events, kind):
    """A close-up window: around the first event of `kind`, else the last 10 % of the run."""
    if not t:
        return 0.0, 1.0
    marks = [float(e["t"]) for e in events if e["kind"] == kind]
    span = t[-1] - t[0]
    if marks:
        centre = marks[0]
        half = max(0.02 * span, min(1.0, 0.1 * span))
        return max(t[0], centre - half), min(t[-1], centre + half)
    return t[-1] - 0.1 * span, t[-1]


# coordinate names read as angles in the generic plot (their own axis, in rad)
ANGLE_NAME = re.compile(r"(theta|phi|psi|alpha|beta|gamma|angle)", re.IGNORECASE)


def broken_at_wraps(t, theta):
    """theta mod 2 pi as a line that is broken (NaN) where it wraps, never joined across."""
    tt, yy = [], []
    for i, (a, b) in enumerate(zip(t, theta)):
        if i and abs(b - theta[i - 1]) > math.pi:
            tt.append(float("nan"))
            yy.append(float("nan"))
        tt.append(a)
        yy.append(b)
    return tt, yy


def in_window(t, ys, lo, hi):
    idx = [i for i, x in enumerate(t) if lo <= x <= hi]
    return [t[i] for i in idx], [[y[i] for i in idx] for y in ys]


def belt_stick_slip(rows, names):
    """One contact, always closed, on a belt that moves: a stick-slip run."""
    if len(names) != 1 or "surface_u" not in rows[0]:
        return False
    closed = all(r[names[0] + "_mode"] != "open" for r in rows[1:])
    moving = any(abs(float(r["surface_u"])) > 0.0 for r in rows)
    return closed and moving


def plot(style, ts_path, ev_path, out, title):
    rows = read_csv(ts_path)
    events = read_csv(ev_path)
    if not rows:
        raise ValueError(f"{ts_path}: no samples")
    header = list(rows[0].keys())
    names = contact_names(header)
    t = column(rows, "t")
    if style == "generic":
        return plot_generic(rows, events, header, t, out, title)
    h = column(rows, "surface_h")
    energy = column(rows, "energy")
    impacts = [float(e["t"]) for e in events if e["kind"] == "impact"]

    fig, axes = plt.subplots(4 if style == "rod" else 3, 1, figsize=(10, 11), constrained_layout=True)
    if style == "rod":
        raw = column(rows, "theta")
        theta = [math.fmod(x, 2 * math.pi) % (2 * math.pi) for x in raw]
        # (a) the whole run in turns: a spinning rod is a slope, not a band of 2 pi wraps
        axes[0].plot(t, [x / (2 * math.pi) for x in raw], color="C0", lw=0.8)
        axes[0].set_ylabel(r"$\theta / 2\pi$ [turns]")
        axes[0].set_title(r"(a) rod angle in turns (unwrapped; (b) shows $\theta$ mod $2\pi$ as [BP])")
        sym = [float(e["t"]) for e in events if e["kind"] == "symmetric"]
        if sym:
            axes[0].axvline(sym[0], color="C3", lw=0.8, ls="--", label=f"symmetric from t = {sym[0]:.3f}")
            axes[0].legend(loc="upper right")
        # the close-up: the first symmetric event, else the first Painleve resolution, else the end
        focus = next((k for k in ("symmetric", "impact_without_collision", "painleve")
                      if any(e["kind"] == k for e in events)), None)
        lo, hi = window(t, events, focus or "symmetric")
        where = (f"around the first {focus.replace('_', ' ')} event" if focus
                 else "the last 10 % of the run")
        tw, (thw,) = in_window(t, [theta], lo, hi)
        axes[1].plot(*broken_at_wraps(tw, thw), color="C0", lw=0.9)
        axes[1].set_ylabel(r"$\theta$ mod $2\pi$ [rad]")
        axes[1].set_title(rf"(b) close-up, {where}: $\theta$ mod $2\pi$")
        tw, ys = in_window(t, [h] + [column(rows, n + "_y") for n in names], lo, hi)
        axes[2].plot(tw, ys[0], color="k", lw=1.2, label="surface S(t)")
        for k, n in enumerate(names):
            axes[2].plot(tw, ys[k + 1], lw=0.9, label=f"{n}(t)")
        axes[2].set_ylabel("height [m]")
        axes[2].set_title("(c) end points against the surface")
        axes[2].margins(y=0.3)  # room for the legend above the arcs
        axes[2].legend(loc="upper right", ncol=3, fontsize=8)
        ax_e = axes[3]
    elif style == "ball":
        n = names[0]
        y = column(rows, n + "_y")
        axes[0].plot(t, h, color="k", lw=1.2, label="surface")
        axes[0].plot(t, y, color="C0", lw=0.9, label="contact point")
        for ti in impacts[:2000]:
            axes[0].axvline(ti, color="C1", lw=0.2, alpha=0.3)
        # a complete chatter the engine jumped over (accumulation point): shaded, so that the
        # flat line is not read as the ball lying still
        jumped = [(float(e["t"]), float(e["t_accumulation"])) for e in events
                  if e["kind"] == "closure" and e.get("t_accumulation", "") not in ("", "0")]
        for k, (a, b) in enumerate(jumped[:200]):
            for ax in (axes[0], axes[2]):
                ax.axvspan(a, b, color="C1", alpha=0.15, lw=0,
                           label="chatter jumped over (bounces not simulated)"
                           if k == 0 and ax is axes[0] else None)
        axes[0].set_ylabel("height [m]")
        axes[0].set_title("(a) height against time (impacts: thin lines)")
        axes[0].legend(loc="upper right")
        lo, hi = window(t, events, "closure")
        tw, ys = in_window(t, [h, y], lo, hi)
        axes[1].plot(tw, ys[0], color="k", lw=1.2)
        axes[1].plot(tw, ys[1], ".-", ms=2, color="C0", lw=0.6)
        for e in events:
            if e["kind"] in ("closure", "chatter_end") and lo <= float(e["t"]) <= hi:
                axes[1].axvline(float(e["t"]), color="C3", lw=0.8, ls="--")
        for a, b in jumped[:200]:
            if b > lo and a < hi:
                axes[1].axvspan(max(a, lo), min(b, hi), color="C1", alpha=0.15, lw=0)
        axes[1].set_xlim(lo, hi)
        axes[1].set_ylabel("height [m]")
        axes[1].set_title("(b) close-up (dashed: contact closed / predicted chatter end)")
        ax_e = axes[2]
    elif belt_stick_slip(rows, names):
        n = names[0]
        u = column(rows, "surface_u")
        xdot = column(rows, "xdot")
        modes = [r[n + "_mode"] for r in rows]
        colours = {"stick": "0.75", "slide+": "#f4c7a1", "slide-": "#a9c9ec"}
        for ax in axes[:2]:
            start = 0
            for i in range(1, len(t) + 1):
                if i == len(t) or modes[i] != modes[start]:
                    if modes[start] in colours:
                        ax.axvspan(t[start], t[i - 1], color=colours[modes[start]], lw=0,
                                   alpha=0.6)
                    start = i
        axes[0].plot(t, u, color="k", lw=1.2, label="belt u(t)")
        axes[0].plot(t, xdot, color="C0", lw=1.0, label=r"body $\dot x$")
        for mode, colour in colours.items():
            axes[0].fill_between([], [], color=colour, label=mode)
        axes[0].set_ylabel("velocity [m/s]")
        axes[0].set_title("(a) body and belt velocity (background: contact mode)")
        axes[0].margins(y=0.3)  # room for the legend above the curves
        axes[0].legend(loc="upper right", ncol=5, fontsize=8)
        slip = [a - b for a, b in zip(xdot, u)]
        axes[1].plot(t, slip, color="C0", lw=1.0)
        axes[1].axhline(0.0, color="k", lw=0.6)
        marks = {"stick": ("o", "C2"), "slip_onset": ("^", "C3"), "slip_reversal": ("s", "C1")}
        for kind, (marker, colour) in marks.items():
            te = [float(e["t"]) for e in events if e["kind"] == kind]
            if te:
                axes[1].plot(te, [0.0] * len(te), marker, color=colour, ms=6, ls="none",
                             label=kind.replace("_", " "))
        axes[1].set_ylabel(r"slip $\dot x - u$ [m/s]")
        axes[1].set_title("(b) slip velocity, events marked")
        axes[1].margins(y=0.3)
        axes[1].legend(loc="upper right", ncol=3, fontsize=8)
        ax_e = axes[2]
    else:
        axes[0].plot(t, h, color="k", lw=1.2, label="surface")
        for n in names:
            axes[0].plot(t, column(rows, n + "_y"), lw=0.8, label=n)
        axes[0].set_ylabel("height [m]")
        axes[0].set_title("(a) contact points against the surface")
        axes[0].legend(loc="upper right", ncol=4)
        axes[1].plot(t, column(rows, "theta"), color="C0")
        axes[1].set_ylabel(r"$\theta$ [rad]")
        axes[1].set_title("(b) body angle")
        ax_e = axes[2]
    finish(fig, axes, ax_e, t, energy, out, title)


def finish(fig, axes, ax_e, t, energy, out, title):
    """The energy panel, common axis labels and grid, then an atomic save."""
    ax_e.plot(t, energy, color="C2", lw=0.9)
    ax_e.set_ylabel("energy T + V [J]")
    ax_e.set_title(f"({'abcd'[len(axes) - 1]}) energy (sampled)")
    for ax in axes:
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    tmp = f"{out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, out)


def plot_generic(rows, events, header, t, out, title):
    gaps = [h[:-4] for h in header if h.endswith("_gap")]
    coords = header[1:header.index("energy")]
    coords = [c for c in coords if not c.endswith("dot")]
    fig, axes = plt.subplots(3, 1, figsize=(10, 10), constrained_layout=True)
    # angles (by name) on their own axis in rad, the other coordinates on the left one: one scale
    # for x [m] and theta [rad] squeezes one of them flat
    angles = [c for c in coords if ANGLE_NAME.search(c)]
    lengths = [c for c in coords if c not in angles]
    left = axes[0]
    right = left.twinx() if angles and lengths else None
    handles = []
    for k, c in enumerate(coords):
        ax = right if (right is not None and c in angles) else left
        handles += ax.plot(t, column(rows, c), lw=0.9, color=f"C{k % 10}",
                           ls="--" if ax is right else "-", label=c)
    if right is not None:
        left.set_ylabel("coordinates (solid)")
        right.set_ylabel("angles [rad] (dashed)")
    else:
        left.set_ylabel("angles [rad]" if angles else "coordinates")
    left.set_title("(a) generalized coordinates")
    left.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.08 if right else 1.01, 1.0),
                fontsize=8)
    colours = {"impact": "C1", "stick": "C2", "slip_onset": "C3", "lift_off": "C4",
               "slip_reversal": "C5", "closure": "C6", "impact_without_collision": "C3"}
    for n in gaps:
        axes[1].plot(t, column(rows, n + "_gap"), lw=0.9, label=f"gap of {n}")
    seen = set()
    for e in events:
        k = e["kind"]
        if k in colours:
            axes[1].axvline(float(e["t"]), color=colours[k], lw=0.8, ls="--",
                            label=k if k not in seen else None)
            seen.add(k)
    axes[1].axhline(0.0, color="k", lw=0.8)
    axes[1].set_ylabel("gap [m]")
    axes[1].set_title("(b) contact gaps and events")
    axes[1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    finish(fig, axes, axes[2], t, column(rows, "energy"), out, title)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--style", choices=["rod", "ball", "body", "generic"], required=True)
    p.add_argument("--timeseries", required=True)
    p.add_argument("--events", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    a = p.parse_args()
    try:
        plot(a.style, a.timeseries, a.events, a.out, a.title)
    except (OSError, KeyError, ValueError) as e:
        print(f"simulate.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
