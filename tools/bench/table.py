#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: table.py - the benchmark tables from a bench VM's console log.

Reads the "BENCH …" lines: multi-fd IPC against vgem (goal: at most
1.1 x), a 1 GiB userptr import against mlock() (goal: at most 1.5 x), and
page-table memory per mapped byte (goal: at most 0.2 %). Prints each with
its floor and goal. Figures, not a test: it exits 1 only when a run is
missing.
"""
import re
import sys

GOAL = 1.1

rows, userptr, ptmem = [], None, None
with open(sys.argv[1], errors="replace") as f:
    for line in f:
        m = re.match(r"BENCH ipc n=(\d+) zex_us=([\d.]+) vgem_us=([\d.]+)", line)
        if m:
            rows.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))
        m = re.match(r"BENCH userptr size_mib=(\d+) zex_ms=([\d.]+) mlock_ms=([\d.]+)", line)
        if m:
            userptr = (int(m.group(1)), float(m.group(2)), float(m.group(3)))
        m = re.match(r"BENCH ptmem mapped=(\d+) tables=(\d+) table_bytes=(\d+)", line)
        if m:
            ptmem = (int(m.group(1)), int(m.group(2)), int(m.group(3)))

print("multi-fd export + import, microseconds per operation (median of 7 rounds)")
print(f"{'pieces':>6}  {'zex':>10}  {'vgem floor':>10}  {'zex/vgem':>8}  goal <= {GOAL}")
for n, z, v in rows:
    ratio = z / v if v else float("inf")
    print(f"{n:>6}  {z:>10.2f}  {v:>10.2f}  {ratio:>8.2f}  {'met' if ratio <= GOAL else 'MISSED'}")
print()
if userptr:
    mib, z, m = userptr
    ratio = z / m if m else float("inf")
    print(f"userptr import of {mib} MiB (pin + page tables), ms (median of 5)")
    print(f"{'zex':>10}  {'mlock floor':>11}  {'zex/mlock':>9}  goal <= 1.5")
    print(f"{z:>10.2f}  {m:>11.2f}  {ratio:>9.2f}  {'met' if ratio <= 1.5 else 'MISSED'}")
    print()
if ptmem:
    mapped, tables, nbytes = ptmem
    pct = 100.0 * nbytes / mapped
    print("page-table memory for a 2 MiB-aligned import")
    print(f"{'mapped':>12}  {'tables':>6}  {'bytes':>9}  {'per byte':>8}  goal <= 0.2 %")
    print(f"{mapped:>12}  {tables:>6}  {nbytes:>9}  {pct:>7.3f}%  {'met' if pct <= 0.2 else 'MISSED'}")
sys.exit(0 if len(rows) == 4 and userptr and ptmem else 1)
