#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A replay as a matplotlib figure: one numeric property of every entity of a type over game
time, and their positions seen from above.

    examples/plot_replay.py REPLAY.vtx [--type Player] [--property Health] [--out figure.png]

Needs the vtxscope package (built: PYTHONPATH=build/<dir>/python; installed with the .deb) and
Debian's python3-matplotlib.
"""

import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import vtxscope  # noqa: E402


def position_property(schema: dict, type_name: str):
    fields = schema["types"][type_name]["fields"]
    for name in ("Position", "Location", "Origin"):
        if name in fields and fields[name]["type"] == "Vector":
            return name
    return next((n for n, f in fields.items() if f["type"] == "Vector" and f["container"] == "scalar"), None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("replay")
    ap.add_argument("--type", default="Player")
    ap.add_argument("--property", default="Health")
    ap.add_argument("--out", default="replay.png")
    args = ap.parse_args()

    with vtxscope.open(args.replay) as r:
        if args.type not in r.schema["types"]:
            print(f"no type {args.type!r}; types: {', '.join(r.schema['types'])}", file=sys.stderr)
            return 2
        pos = position_property(r.schema, args.type)
        props = [args.property] + ([pos] if pos else [])
        t = r.table(args.type, props)
        title = f"{r.info['file']}: {len(r)} frames, {r.backend}"

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    names = t["display_name"]
    for name in t.categories("display_name"):
        rows = names == name
        ax1.plot(t["game_time"][rows], t[args.property][rows], linewidth=0.8, label=name)
        if pos:
            ax2.plot(t[f"{pos}.x"][rows], t[f"{pos}.y"][rows], linewidth=0.6)
    ax1.set_xlabel("game time (s)")
    ax1.set_ylabel(args.property)
    ax1.set_title(f"{args.type}.{args.property}")
    if len(t.categories("display_name")) <= 12:
        ax1.legend(fontsize="small")
    if pos:
        ax2.set_aspect("equal", adjustable="datalim")
        ax2.set_title(f"{args.type}.{pos} (x, y)")
    else:
        ax2.set_axis_off()
    fig.suptitle(title)
    fig.savefig(args.out, dpi=110)
    print(f"{args.out}: {len(t)} rows, {len(t.categories('display_name'))} entities, "
          f"{np.nanmin(t[args.property]) if len(t) else 'n/a'}..{np.nanmax(t[args.property]) if len(t) else 'n/a'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
