"""Cactus and scatter plots from scripts/bench result TSVs.

Usage (through the wrapper scripts/plot, which runs this with solvers/.venv's python):
  scripts/plot [--out DIR] [--timeout S] [--scatter X,Y ...] [--title T]
               [LABEL=]RESULTS.tsv ...

Each RESULTS.tsv is a file written by scripts/bench (columns file, expected, answer,
seconds); LABEL names its solver in the plots (default: the file's stem). A row is
"solved" as scripts/bench counts it: answer sat or unsat, and not the opposite of a sat/unsat
expected answer (wrong answers are not solved).

Writes into DIR (default: the folder of the first TSV), each as .svg and .png:
  cactus       one line per solver: the k-th fastest solved instance's time (log scale)
               over k, the number of instances solved within that time
  scatter-X-vs-Y
               one point per file both TSVs have: X's time across, Y's down; files a
               solver did not solve (timeout, unknown, error, wrong) sit on the border at
               the limit; points under the diagonal are faster for Y
The limit S (the border) is --timeout, else the largest time in the TSVs. Without
--scatter, the first TSV is plotted against each other one (--scatter X,Y by label,
repeatable). Prints the files written.
"""
import argparse
import csv
import os
import re
import sys
from pathlib import Path

try:
    import matplotlib
except ImportError:
    sys.exit("plot: needs matplotlib: run solvers/install (it goes into solvers/.venv)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

SECS = FuncFormatter(lambda v, _: "%g" % v)  # 0.01, 0.1, 1, 10 instead of 10^k

FLOOR = 0.01  # seconds: times below this are drawn at it (log axes)


def is_solved(expected, answer):
    """scripts/bench's rule: sat/unsat that is not wrong."""
    if answer not in ("sat", "unsat"):
        return False
    return not (expected in ("sat", "unsat") and answer != expected)


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if rows and not {"file", "expected", "answer", "seconds"} <= set(rows[0]):
        sys.exit("plot: %s lacks columns file, expected, answer, seconds" % path)
    return {r["file"]: (r["expected"].strip(), r["answer"].strip(), float(r["seconds"]))
            for r in rows}


def parse_args():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].split("\n", 1)[1].strip())
    ap.add_argument("results", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--timeout", type=float)
    ap.add_argument("--scatter", action="append", default=[])
    ap.add_argument("--title", default="")
    return ap.parse_args()


def slug(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s).strip("_") or "solver"


def save(fig, out, stem):
    paths = []
    for ext in ("svg", "png"):
        p = out / ("%s.%s" % (stem, ext))
        fig.savefig(p, dpi=150 if ext == "png" else None, bbox_inches="tight")
        paths.append(p)
    plt.close(fig)
    for p in paths:
        print("plot: wrote %s" % p)


def cactus(runs, limit, out, title):
    fig, ax = plt.subplots(figsize=(7.5, 5))
    total = max(len(r) for _, r in runs)
    for label, res in runs:
        times = sorted(max(FLOOR, s) for e, a, s in res.values() if is_solved(e, a))
        xs = list(range(1, len(times) + 1))
        ax.step(xs, times, where="post", linewidth=1.8,
                label="%s (%d of %d)" % (label, len(times), len(res)))
        if times:
            ax.plot(xs[-1:], times[-1:], "o", color=ax.lines[-1].get_color(), markersize=4)
    ax.set_yscale("log")
    ax.set_xlim(0, total * 1.02)
    ax.set_ylim(FLOOR * 0.8, limit * 1.5)
    ax.axhline(limit, color="grey", linestyle=":", linewidth=1)
    ax.text(1, limit * 1.08, "limit %gs" % limit, color="grey", fontsize=9)
    ax.set_xlabel("instances solved")
    ax.set_ylabel("time per instance (s, log scale)")
    ax.set_title(title or "Cactus plot: solved instances within a time")
    ax.grid(True, which="major", alpha=0.3)
    ax.yaxis.set_major_formatter(SECS)
    ax.legend(loc="lower right", fontsize=9)
    save(fig, out, "cactus")


def scatter(xlabel, xres, ylabel, yres, limit, out, title):
    files = [f for f in xres if f in yres]
    if not files:
        print("plot: %s and %s have no file in common; no scatter plot" % (xlabel, ylabel),
              file=sys.stderr)
        return
    border = limit

    def pos(res, f):
        e, a, s = res[f]
        return max(FLOOR, min(s, border)) if is_solved(e, a) else border

    fig, ax = plt.subplots(figsize=(6, 6))
    groups = {"sat": ("tab:blue", "o"), "unsat": ("tab:red", "^"), "unknown": ("tab:grey", "s")}
    for exp, (color, marker) in groups.items():
        pts = [(pos(xres, f), pos(yres, f)) for f in files
               if (xres[f][0] if xres[f][0] in ("sat", "unsat") else "unknown") == exp]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=18, c=color, marker=marker,
                       alpha=0.6, edgecolors="none", label="expected %s (%d)" % (exp, len(pts)))
    lo, hi = FLOOR * 0.8, border * 1.5
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.8)
    for k in (10,):
        ax.plot([lo, hi], [lo * k, hi * k], color="grey", linewidth=0.5, linestyle="--")
        ax.plot([lo * k, hi * k], [lo, hi], color="grey", linewidth=0.5, linestyle="--")
    ax.axvline(border, color="grey", linestyle=":", linewidth=1)
    ax.axhline(border, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    xs = sum(is_solved(*xres[f][:2]) for f in files)
    ys = sum(is_solved(*yres[f][:2]) for f in files)
    ax.set_xlabel("%s: time (s; solved %d of %d; unsolved at the limit %gs)"
                  % (xlabel, xs, len(files), border))
    ax.set_ylabel("%s: time (s; solved %d of %d)" % (ylabel, ys, len(files)))
    ax.set_title(title or "%s vs %s (below the diagonal: %s faster)" % (xlabel, ylabel, ylabel),
                 fontsize=10)
    ax.xaxis.set_major_formatter(SECS)
    ax.yaxis.set_major_formatter(SECS)
    ax.grid(True, which="major", alpha=0.3)
    # below the axes: inside, it would hide the points on the border
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=3, fontsize=8,
              frameon=False)
    save(fig, out, "scatter-%s-vs-%s" % (slug(xlabel), slug(ylabel)))


def main():
    args = parse_args()
    runs = []
    for spec in args.results:
        label, sep, path = spec.rpartition("=")  # labels may hold "=": z3:a.b=true=F.tsv
        if not sep or not label or os.path.exists(spec):
            label, path = Path(spec).stem, spec
        if not os.path.isfile(path):
            sys.exit("plot: no file %s" % path)
        runs.append((label, load(path)))
    labels = [l for l, _ in runs]
    if len(set(labels)) != len(labels):
        sys.exit("plot: two results have the same label; name them LABEL=FILE.tsv")
    limit = args.timeout or max((s for _, r in runs for _, _, s in r.values()), default=1.0)
    first = args.results[0]
    if "=" in first and not os.path.exists(first):
        first = first.rpartition("=")[2]
    out = Path(args.out) if args.out else Path(first).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    cactus(runs, limit, out, args.title)
    by = dict(runs)
    pairs = [tuple(s.split(",", 1)) for s in args.scatter] or \
        [(labels[0], l) for l in labels[1:]]
    for x, y in pairs:
        if x not in by or y not in by:
            sys.exit("plot: --scatter %s,%s: labels are %s" % (x, y, ", ".join(labels)))
        scatter(x, by[x], y, by[y], limit, out, args.title)


if __name__ == "__main__":
    main()
