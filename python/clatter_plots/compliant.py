#!/usr/bin/python3
"""Thesis-style plots of the compliant contact (Birlik) for `clatter compliant-sweep`.

    /usr/bin/python3 python/clatter_plots/compliant.py --kind KIND --csv FILE [--csv FILE ...] \
        --out OUT.png [--title "..."]

The CSV files are recognised by their names (written by the CLI, all quantities normalised as
described in apps/clatter/commands/compliant_common.hpp: time in the thesis's unit, velocities by
|zdot0|, forces by k3 |zdot0| t_ref, impulses by |zdot0|/a33):

KIND = history   history.csv (one curve): 2x2 panels as [Bi] Figs 3.4-3.9, 4.5-4.6:
                 (a) F1/mu with the +-F3 envelope, (b) spring deformations u1, u3,
                 (c) velocities u3dot, u1dot, s, xdot, (d) xdot and zdot against the normal impulse
                 P3. Phase boundaries are thin vertical lines.
KIND = impulse   history.csv (several curves): (a) xdot and zdot against P3, (b) F1 and F3
                 against time, one colour per curve ([Bi] Figs 4.7, 4.8, 4.15).
KIND = sweep     sweep.csv (group,curve,x,...,V_f,loss,outcome): one row of panels per group
                 (x axis labelled by --xlabel),
                 final velocity V_f and loss 1 - KE_f/KE0 against x; wedges drawn at V_f = 0 with
                 crosses; optional markers.csv (name,x) as vertical lines ([Bi] Figs 3.6, 4.11-4.13,
                 4.16, 4.17).
KIND = theta-cr  theta_cr.csv (eta,mu,theta_cr_deg): one line per eta, rigid atan(mu) dashed
                 ([Bi] Fig 4.14).
KIND = rigid-limit  rigid_limit.csv (case,eta,V_f,V_rigid,error): V_f against eta with the rigid
                 value, and the error on log-log axes with a slope-1 guide.
KIND = flow      flow_field.csv, flow_lines.csv, flow_trajectories.csv: normalised direction field
                 of the stretched slip flow in (V1, V2), invariant directions solid, flow-change
                 directions dashed, sample trajectories ([Bi] Fig 4.2).

Output: OUT.png written atomically (temporary file + os.replace). Errors are reported on stderr
with exit status 2.
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
import numpy as np  # noqa: E402


class InputError(Exception):
    """A problem with the input files; reported on stderr, exit status 2."""


def read_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e}") from e
    if not rows:
        raise InputError(f"{path}: no data rows")
    return rows


def col(rows, name, cast=float):
    try:
        return np.array([cast(r[name]) for r in rows])
    except KeyError as e:
        raise InputError(f"missing column {name}") from e
    except ValueError as e:
        raise InputError(f"bad value in column {name}: {e}") from e


def by(rows, key):
    groups = {}
    for r in rows:
        groups.setdefault(r[key], []).append(r)
    return groups


def phase_lines(ax, rows):
    mode = [r["mode"] + r["slip_sign"] for r in rows]
    t = col(rows, "t_norm")
    for i in range(1, len(rows)):
        if mode[i] != mode[i - 1]:
            ax.axvline(t[i], color="0.7", lw=0.6, zorder=0)


def plot_history(files, fig):
    rows = read_csv(files["history.csv"])
    axs = fig.subplots(2, 2)
    t = col(rows, "t_norm")
    F1, F3 = col(rows, "F1"), col(rows, "F3")
    muF3 = col(rows, "mu_F3")
    mu = np.nanmax(np.where(F3 > 0, muF3 / np.where(F3 > 0, F3, 1), np.nan)) if np.any(F3 > 0) else 1
    mu = mu if np.isfinite(mu) and mu > 0 else 1.0
    ax = axs[0, 0]
    ax.plot(t, F1 / mu, label="F1/mu")
    ax.plot(t, F3, "k--", lw=0.8, label="+F3")
    ax.plot(t, -F3, "k--", lw=0.8, label="-F3")
    ax.set(xlabel="normalised time", ylabel="force", title="(a) tangential force / mu, normal envelope")
    ax.legend(fontsize=7)
    ax = axs[0, 1]
    ax.plot(t, col(rows, "u1"), label="u1")
    ax.plot(t, col(rows, "u3"), label="u3")
    ax.set(xlabel="normalised time", ylabel="deformation", title="(b) spring deformations")
    ax.legend(fontsize=7)
    ax = axs[1, 0]
    for name, label in (("u3_dot", "u3dot = zdot"), ("u1_dot", "u1dot"), ("s", "s = xdot - u1dot"),
                        ("x_dot", "xdot")):
        ax.plot(t, col(rows, name), label=label, lw=1.0)
    ax.set(xlabel="normalised time", ylabel="velocity / |zdot0|", title="(c) velocities")
    ax.legend(fontsize=7)
    for a in (axs[0, 0], axs[0, 1], axs[1, 0]):
        phase_lines(a, rows)
        a.axhline(0, color="0.5", lw=0.5)
    ax = axs[1, 1]
    P3 = col(rows, "P3")
    ax.plot(P3, col(rows, "x_dot"), label="xdot")
    ax.plot(P3, col(rows, "z_dot"), label="zdot")
    ax.axhline(0, color="0.5", lw=0.5)
    ax.set(xlabel="normal impulse P3 a33/|zdot0|", ylabel="velocity / |zdot0|",
           title="(d) velocities against normal impulse")
    ax.legend(fontsize=7)


def plot_impulse(files, fig):
    rows = read_csv(files["history.csv"])
    axs = fig.subplots(1, 2)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, rs) in enumerate(by(rows, "curve").items()):
        c = colors[k % len(colors)]
        P3 = col(rs, "P3")
        axs[0].plot(P3, col(rs, "x_dot"), color=c, label=f"{name}: xdot")
        axs[0].plot(P3, col(rs, "z_dot"), color=c, ls="--", label=f"{name}: zdot")
        t = col(rs, "t_norm")
        axs[1].plot(t, col(rs, "F1"), color=c, label=f"{name}: F1")
        axs[1].plot(t, col(rs, "F3"), color=c, ls="--", label=f"{name}: F3")
    axs[0].set(xlabel="normal impulse P3 a33/|zdot0|", ylabel="velocity / |zdot0|",
               title="(a) velocities against normal impulse")
    axs[1].set(xlabel="normalised time", ylabel="force", title="(b) forces")
    for a in axs:
        a.axhline(0, color="0.5", lw=0.5)
        a.legend(fontsize=8)


XLABEL = ["x"]


def plot_sweep(files, fig):
    rows = read_csv(files["sweep.csv"])
    markers = read_csv(files["markers.csv"]) if "markers.csv" in files else []
    groups = by(rows, "group")
    axs = fig.subplots(len(groups), 2, squeeze=False)
    for g, (gname, rs) in enumerate(groups.items()):
        for cname, cs in by(rs, "curve").items():
            x = col(cs, "x")
            outcome = [r["outcome"] for r in cs]
            V = col(cs, "V_f")
            if all(o == "rigid" for o in outcome) and np.all(np.isnan(V)):
                # the sphere's rigid comparison is in x_dot_f
                V = col(cs, "x_dot_f")
            is_sphere = gname == "sphere"
            y = col(cs, "x_dot_f") if is_sphere else V
            line = axs[g, 0].plot(x, y, label=cname, lw=1.0 if "rigid" not in cname else 1.5,
                                  ls="-" if "rigid" not in outcome else "--")[0]
            wedge = np.array([o == "wedge" for o in outcome])
            if wedge.any():
                axs[g, 0].plot(x[wedge], np.zeros(wedge.sum()), "x", color=line.get_color(), ms=3)
            loss = col(cs, "loss")
            if not np.all(np.isnan(loss)):
                axs[g, 1].plot(x, loss, label=cname, color=line.get_color(), lw=1.0)
        for m in markers:
            for a in axs[g]:
                a.axvline(float(m["x"]), color="0.6", ls=":", lw=0.8)
                a.text(float(m["x"]), a.get_ylim()[1], m["name"], rotation=90, fontsize=7,
                       va="top", ha="right")
        ylabel = "xdot_f / |zdot0|" if gname == "sphere" else "V_f / V_0 (0 = wedge)"
        axs[g, 0].set(ylabel=ylabel, title=f"{gname}: final velocity")
        axs[g, 1].set(ylabel="1 - KE_f/KE_0", title=f"{gname}: dissipation")
        for a in axs[g]:
            # one curve needs no legend (the title says it); several get a readable one
            if len(by(rs, "curve")) > 1:
                a.legend(fontsize=8)
            a.axhline(0, color="0.5", lw=0.5)
    for a in axs[-1]:
        a.set_xlabel(XLABEL[0])


def plot_theta_cr(files, fig):
    rows = read_csv(files["theta_cr.csv"])
    ax = fig.subplots()
    for eta, rs in by(rows, "eta").items():
        mu, th = col(rs, "mu"), col(rs, "theta_cr_deg")
        if eta == "rigid":
            ax.plot(mu, th, "k--", label="rigid: atan(mu)")
        else:
            ax.plot(mu, th, label=f"eta = k3/k1 = {eta}")
    ax.set(xlabel="mu", ylabel="critical angle theta_cr (deg)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)


def plot_rigid_limit(files, fig):
    rows = read_csv(files["rigid_limit.csv"])
    axs = fig.subplots(1, 2)
    for name, rs in by(rows, "case").items():
        eta, V, Vr, err = col(rs, "eta"), col(rs, "V_f"), col(rs, "V_rigid"), col(rs, "error")
        label = name.replace("theta", r"$\theta$").replace("mu", r"$\mu$")
        line = axs[0].semilogx(eta, V, "o-", ms=3, label=label)[0]
        axs[0].axhline(Vr[0], color=line.get_color(), ls="--", lw=0.8)
        # the error is signed: its magnitude on the log axis, negative values as open markers
        mag = np.abs(err)
        ok = mag > 0
        axs[1].loglog(eta[ok], mag[ok], "-", color=line.get_color(), label=label)
        pos, neg = ok & (err > 0), ok & (err < 0)
        axs[1].loglog(eta[pos], mag[pos], "o", ms=3, color=line.get_color())
        axs[1].loglog(eta[neg], mag[neg], "o", ms=4, mfc="none", color=line.get_color())
    e = np.logspace(-6, 0, 10)
    axs[1].loglog(e, e, "k:", lw=0.8, label=r"slope 1 ($\eta$)")
    axs[1].plot([], [], "ko", ms=3, label=r"$V_f > V_{rigid}$")
    axs[1].plot([], [], "ko", ms=4, mfc="none", label=r"$V_f < V_{rigid}$")
    axs[0].set(xlabel=r"$\eta = k_3/k_1$", ylabel=r"$V_f / V_0$",
               title="(a) compliant $V_f$; dashed: rigid energetic limit")
    axs[1].set(xlabel=r"$\eta = k_3/k_1$", ylabel=r"$|V_f - V_{rigid}|$",
               title=r"(b) distance to the rigid limit: first order in $\eta$")
    axs[0].legend(fontsize=9, loc="upper left")
    axs[1].legend(fontsize=9, loc="lower right")
    for a in axs:
        a.grid(alpha=0.3, which="both")


def plot_flow(files, fig):
    field = read_csv(files["flow_field.csv"])
    lines = read_csv(files["flow_lines.csv"])
    traj = read_csv(files["flow_trajectories.csv"]) if "flow_trajectories.csv" in files else []
    ax = fig.subplots()
    V1, V2, d1, d2 = (col(field, k) for k in ("V1", "V2", "dV1", "dV2"))
    norm = np.hypot(d1, d2)
    norm[norm == 0] = 1
    ax.quiver(V1, V2, d1 / norm, d2 / norm, color="0.55", angles="xy", scale=40, width=0.002)
    for k, rs in by(traj, "start").items():
        ax.plot(col(rs, "V1"), col(rs, "V2"), color="tab:blue", lw=0.7)
    for r in lines:
        phi = float(r["phi"])
        style = "-" if r["kind"] == "invariant" else "--"
        color = "k" if r["kind"] == "invariant" else "tab:red"
        ax.plot([0, 1.4 * math.cos(phi)], [0, 1.4 * math.sin(phi)], style, color=color, lw=1.2)
        label = f"{phi:.4f}" + (f" {r['type']}" if r["kind"] == "invariant" else "")
        ax.text(0.8 * math.cos(phi), 0.8 * math.sin(phi) + 0.04, label, fontsize=7,
                bbox={"facecolor": "white", "alpha": 0.7, "lw": 0})
    ax.set(xlim=(-1.05, 1.05), ylim=(-1.05, 1.05), xlabel="V1", ylabel="V2", aspect="equal",
           title="solid: invariant directions, dashed: flow-change directions")


KINDS = {"history": plot_history, "impulse": plot_impulse, "sweep": plot_sweep,
         "theta-cr": plot_theta_cr, "rigid-limit": plot_rigid_limit, "flow": plot_flow}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kind", required=True, choices=sorted(KINDS))
    p.add_argument("--csv", action="append", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    p.add_argument("--xlabel", default="x", help="sweep: label of the swept variable")
    a = p.parse_args(argv)
    XLABEL[0] = a.xlabel
    # files are known by their name; the CLI passes its temporaries NAME.tmp-<pid>.csv
    files = {re.sub(r"\.tmp-\d+(?=\.csv$)", "", os.path.basename(f)): f for f in a.csv}
    fig = plt.figure(figsize=(11, 8) if a.kind not in ("theta-cr", "flow") else (7, 6))
    try:
        KINDS[a.kind](files, fig)
    except KeyError as e:
        raise InputError(f"kind {a.kind} needs the file {e}") from e
    fig.suptitle(a.title, fontsize=10)
    fig.tight_layout()
    tmp = f"{a.out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print(f"compliant.py: error: {e}", file=sys.stderr)
        sys.exit(2)
