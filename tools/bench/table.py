#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: table.py - the benchmark table from a bench VM's console log.

Reads the "BENCH ipc n=… zex_us=… vgem_us=…" lines and prints one row per
N with the ratio to the floor and whether it meets the goal (zex at most
1.1 x vgem). Figures, not a test: it exits 1 only when a run is missing.
"""
import re
import sys

GOAL = 1.1

rows = []
with open(sys.argv[1], errors="replace") as f:
    for line in f:
        m = re.match(r"BENCH ipc n=(\d+) zex_us=([\d.]+) vgem_us=([\d.]+)", line)
        if m:
            rows.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))

print("multi-fd export + import, microseconds per operation (median of 7 rounds)")
print(f"{'pieces':>6}  {'zex':>10}  {'vgem floor':>10}  {'zex/vgem':>8}  goal <= {GOAL}")
for n, z, v in rows:
    ratio = z / v if v else float("inf")
    print(f"{n:>6}  {z:>10.2f}  {v:>10.2f}  {ratio:>8.2f}  {'met' if ratio <= GOAL else 'MISSED'}")
sys.exit(0 if len(rows) == 4 else 1)
