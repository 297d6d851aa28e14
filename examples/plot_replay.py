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


NUMERIC = {"Int32", "Int64", "Float", "Double", "Bool"}


def position_columns(schema: dict, type_name: str):
    """The table columns of the type's position, x / y / z: a Vector named like a position, else
    a Transform's translation (the SDK's CS-like and RL-like schemas keep positions in
    `Transform`), else the first scalar Vector. None when the type has no position."""
    fields = schema["types"][type_name]["fields"]
    scalar = {n: f for n, f in fields.items() if f["container"] == "scalar"}
    name = next((n for n in ("Position", "Location", "Origin") if scalar.get(n, {}).get("type") == "Vector"), None)
    if name:
        return name, [f"{name}.{c}" for c in "xyz"]
    name = next((n for n, f in scalar.items() if f["type"] == "Transform"), None)
    if name:
        return name, [f"{name}.translation.{c}" for c in "xyz"]
    name = next((n for n, f in scalar.items() if f["type"] == "Vector"), None)
    return (name, [f"{name}.{c}" for c in "xyz"]) if name else (None, [])


def numeric_properties(schema: dict, type_name: str):
    return [n for n, f in schema["types"][type_name]["fields"].items() if f["container"] == "scalar" and f["type"] in NUMERIC]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("replay")
    ap.add_argument("--type", default="Player")
    ap.add_argument("--property", help="a numeric property of the type (default: Health, else the first numeric one)")
    ap.add_argument("--out", default="replay.png")
    args = ap.parse_args()

    with vtxscope.open(args.replay) as r:
        if args.type not in r.schema["types"]:
            print(f"no type {args.type!r}; types: {', '.join(r.schema['types'])}", file=sys.stderr)
            return 2
        numeric = numeric_properties(r.schema, args.type)
        # Default: Health, else the first float, else the first integer that is not an id.
        types = {n: r.schema["types"][args.type]["fields"][n]["type"] for n in numeric}
        floats = [n for n in numeric if types[n] in ("Float", "Double")]
        counts = [n for n in numeric if not n.lower().endswith("id") and types[n] in ("Int32", "Int64")]
        prop = args.property or ("Health" if "Health" in numeric else next(iter(floats + counts + numeric), None))
        if prop not in numeric:
            print(f"{args.type} has no numeric property {prop!r}; numeric properties: {', '.join(numeric) or 'none'}", file=sys.stderr)
            return 2
        pos, pos_columns = position_columns(r.schema, args.type)
        t = r.table(args.type, [prop] + ([pos] if pos else []))
        title = f"{r.info['file']}: {len(r)} frames, {r.backend}"
    args.property = prop
    # Seen from above: the two position axes the entities spread most along (CS-like files are
    # z-up, the arena and RL-like ones y-up).
    plane = []
    if pos and len(t):
        spread = [float(np.nanmax(t[c]) - np.nanmin(t[c])) if np.isfinite(t[c]).any() else 0.0 for c in pos_columns]
        plane = sorted(sorted(range(3), key=lambda i: -spread[i])[:2])

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    names = t["display_name"]
    for name in t.categories("display_name"):
        rows = names == name
        ax1.plot(t["game_time"][rows], t[args.property][rows], linewidth=0.8, label=name)
        if plane:
            ax2.plot(t[pos_columns[plane[0]]][rows], t[pos_columns[plane[1]]][rows], linewidth=0.6)
    ax1.set_xlabel("game time (s)")
    ax1.set_ylabel(args.property)
    ax1.set_title(f"{args.type}.{args.property}")
    if len(t.categories("display_name")) <= 12:
        ax1.legend(fontsize="small")
    if plane:
        ax2.set_aspect("equal", adjustable="datalim")
        ax2.set_xlabel("xyz"[plane[0]])
        ax2.set_ylabel("xyz"[plane[1]])
        ax2.set_title(f"{args.type}.{pos} from above ({'xyz'[plane[0]]}, {'xyz'[plane[1]]})")
    else:
        ax2.set_axis_off()
    fig.suptitle(title)
    fig.savefig(args.out, dpi=110)
    print(f"{args.out}: {len(t)} rows, {len(t.categories('display_name'))} entities, "
          f"{np.nanmin(t[args.property]) if len(t) else 'n/a'}..{np.nanmax(t[args.property]) if len(t) else 'n/a'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
