#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: table.py - the benchmark tables from a bench VM's console log.

Reads the "BENCH …" lines: export and import of N pieces, one by one
against vgem's N PRIME round trips (goal: at most 1.1 x) and batched in one
ioctl each way (what batching saves), a 1 GiB userptr import, pinned and
mirrored, on 4 KiB pages and on transparent huge pages, against io_uring's
fixed-buffer registration of the same range (goal: at most 1.5 x), every
byte an import keeps (page tables and its records) per mapped byte (goals:
at most 0.2 % on 4 KiB pages, 0.01 % on 2 MiB leaves), and hostrpc round
trips against a cache-line ping-pong (polling, goal: at most 1.5 x) and an
eventfd ping-pong (blocking, goal: at most 1.2 x) with doorbell syscalls
per call under sustained load (goal: at most 0.1), and Level Zero calls
through the loader (goal: at most 1.2 x) and through the handles' DDI
headers (goal: at most 1.05 x) against libzex's own function, and Level Zero
execution (immediate-list copies, goal at most 1.1 x; an empty list's round
trip, goal at most 1.2 x; an event's signal to wake) against libzex's core
calls doing the same work, and an empty launch on a long-running exec
queue against the smallest job (goal: at most 1.5 x), and Level Zero
kernels against PoCL called directly (an empty launch's round trip, goal
at most 1.5 x; a compute-bound kernel, goal at least 0.9 x PoCL's speed,
and the same loop in C printed; the root device's launch split between
the tiles against one tile, goal at least 1.7 x with a CPU per tile), and,
where the VM carries them, compute-benchmarks' API overhead cases with libzex
alone and beside the loader's null driver (goal: at most 1.05 x), and UCX's
perftest moving a tile's memory between two processes over ze_ipc against
the same test in host memory.
Prints each with its
floor and goal. Figures, not a test: it exits 1 only when a run is
missing.
"""
import re
import sys

GOAL = 1.1

rows, userptr, ptmem, rpc, l0, cb, ucx = [], [], [], [], {}, {}, {}
exec_copy, exec_lat, exec_split, exec_launch = None, None, None, None
l0x_copy, l0x_rt = None, None
kern_launch, kern_spin, kern_scale = None, None, None
with open(sys.argv[1], errors="replace") as f:
    for line in f:
        m = re.match(r"BENCH kernel launch zex_us=([\d.]+) pocl_us=([\d.]+)", line)
        if m:
            kern_launch = tuple(float(g) for g in m.groups())
        m = re.match(r"BENCH kernel spin zex_ms=([\d.]+) pocl_ms=([\d.]+) c_ms=([\d.]+)", line)
        if m:
            kern_spin = tuple(float(g) for g in m.groups())
        m = re.match(r"BENCH kernel scale tile_ms=([\d.]+) root_ms=([\d.]+) cpus=(\d+)", line)
        if m:
            kern_scale = (float(m.group(1)), float(m.group(2)), int(m.group(3)))
        m = re.match(r"BENCH ipc n=(\d+) zex_us=([\d.]+) zex_single_us=([\d.]+) "
                     r"vgem_us=([\d.]+)", line)
        if m:
            rows.append((int(m.group(1)), float(m.group(2)), float(m.group(3)),
                         float(m.group(4))))
        m = re.match(r"BENCH userptr pages=(\w+) size_mib=(\d+) pin_ms=([\d.]+) "
                     r"mirror_ms=([\d.]+) uring_ms=([\d.]+) thp_kb=(-?\d+)", line)
        if m:
            userptr.append((m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4)),
                            float(m.group(5)), int(m.group(6))))
        m = re.match(r"BENCH hostrpc mode=(\S+) devices=(\d+) servers=(\d+) median_us=([\d.]+) "
                     r"p99_us=([\d.]+) calls_per_s=(\d+) rings_per_call=([\d.]+)", line)
        if m:
            rpc.append((m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4)),
                        float(m.group(5)), int(m.group(6)), float(m.group(7))))
        m = re.match(r"BENCH exec copy mib=(\d+) queue_ms=([\d.]+) ioctl_ms=([\d.]+) "
                     r"memcpy_ms=([\d.]+)", line)
        if m:
            exec_copy = (int(m.group(1)),) + tuple(float(g) for g in m.groups()[1:])
        m = re.match(r"BENCH exec latency job_us=([\d.]+) pingpong_us=([\d.]+) "
                     r"syncobj_us=([\d.]+)", line)
        if m:
            exec_lat = tuple(float(g) for g in m.groups())
        m = re.match(r"BENCH exec launch launch_us=([\d.]+) job_us=([\d.]+) "
                     r"pingpong_us=([\d.]+)", line)
        if m:
            exec_launch = tuple(float(g) for g in m.groups())
        m = re.match(r"BENCH exec split tiles=(\d+) root_ms=([\d.]+) tile_ms=([\d.]+)", line)
        if m:
            exec_split = (int(m.group(1)), float(m.group(2)), float(m.group(3)))
        m = re.match(r"BENCH l0exec copy mib=(\d+) h2d_ms=([\d.]+) d2d_ms=([\d.]+) "
                     r"core_h2d_ms=([\d.]+) core_d2d_ms=([\d.]+)", line)
        if m:
            l0x_copy = (int(m.group(1)),) + tuple(float(g) for g in m.groups()[1:])
        m = re.match(r"BENCH l0exec roundtrip empty_list_us=([\d.]+) event_us=([\d.]+) "
                     r"core_job_us=([\d.]+)", line)
        if m:
            l0x_rt = tuple(float(g) for g in m.groups())
        m = re.match(r"BENCH cb cfg=(\w+) median_us=(\S+) case=(.*)", line)
        if m:
            cb.setdefault(m.group(3).strip(), {})[m.group(1)] = m.group(2)
        m = re.match(r"BENCH ucx test=(\w+) memory=([\w-]+) size_mib=(\d+) mbps=(\S+) via=(\w+)",
                     line)
        if m:
            ucx.setdefault((m.group(1), int(m.group(3))), {})[m.group(2)] = (m.group(4),
                                                                             m.group(5))
        m = re.match(r"BENCH l0 call=(\w+) path=(\w+) ns=([\d.]+)", line)
        if m:
            l0.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))
        m = re.match(r"BENCH ptmem pages=(\w+) kind=(\w+) mapped=(\d+) tables=(\d+) "
                     r"huge=(\d+) table_bytes=(\d+) record_bytes=(\d+)", line)
        if m:
            ptmem.append((m.group(1), m.group(2)) + tuple(int(g) for g in m.groups()[2:]))

if exec_copy:
    mib, q, io, mc = exec_copy
    r = q / io if io else float("inf")
    print(f"exec queues, median of 5 rounds")
    print(f"  {mib} MiB copy, tile copy queue (submit to user fence) against the copy ioctl")
    print(f"  and memcpy() of the same bytes: queue {q:.2f} ms, ioctl {io:.2f} ms, memcpy {mc:.2f} ms;")
    print(f"  queue/ioctl {r:.2f} (goal <= 1.1: {'met' if r <= 1.1 else 'MISSED'}), "
          f"queue/memcpy {q / mc if mc else float('inf'):.2f}")
if exec_lat:
    job, pp, sync = exec_lat
    r = job / pp if pp else float("inf")
    print(f"  smallest job, submit to signal: {job:.2f} us against a syncobj ping-pong with a")
    print(f"  second thread, no job {pp:.2f} us: {r:.2f} x (goal <= 2: {'met' if r <= 2 else 'MISSED'});")
    print(f"  one thread signalling and waiting, no sleep: {sync:.2f} us")
if exec_split:
    tiles, root, tile = exec_split
    print(f"  {exec_copy[0] if exec_copy else 64} MiB copy into an object coloured over {tiles} tiles: "
          f"root queue (split) {root:.2f} ms, tile queue {tile:.2f} ms: "
          f"speed-up {tile / root if root else 0:.2f} x")
if exec_launch:
    launch, job, pp = exec_launch
    r = launch / job if job else float("inf")
    print(f"  empty launch on a long-running queue, submit to user fence (a second thread")
    print(f"  serves it): {launch:.2f} us against the smallest job {job:.2f} us: {r:.2f} x "
          f"(goal <= 1.5: {'met' if r <= 1.5 else 'MISSED'}); ping-pong floor {pp:.2f} us")
if exec_copy or exec_lat or exec_split or exec_launch:
    print()


def verdict(r, goal):
    return f"goal <= {goal}: {'met' if r <= goal else 'MISSED'}"


if l0x_copy:
    mib, h2d, d2d, ch2d, cd2d = l0x_copy
    print("Level Zero execution against libzex's core calls, median of 5 rounds")
    print(f"  {mib} MiB copy, synchronous immediate list on tile 0's copy engine against one")
    print("  core COPY job of the same bytes on the same engine (the floor's source is a buffer")
    print("  object, the list's host source imported host pages):")
    for name, l0v, core in (("host to device", h2d, ch2d), ("device to device", d2d, cd2d)):
        r = l0v / core if core else float("inf")
        print(f"    {name}: list {l0v:.2f} ms, core {core:.2f} ms: {r:.2f} x ({verdict(r, 1.1)})")
if l0x_rt:
    empty, event, job = l0x_rt
    r = empty / job if job else float("inf")
    print(f"  empty regular list, execute + synchronize: {empty:.2f} us against the smallest core job")
    print(f"  (one STORE, a timeline point waited for) {job:.2f} us: {r:.2f} x ({verdict(r, 1.2)})")
    print(f"  event signalled by an asynchronous immediate list, host wait woken: {event:.2f} us "
          f"({event / job if job else 0:.2f} x the core job)")
if l0x_copy or l0x_rt:
    print()
if kern_launch or kern_spin or kern_scale:
    print("Level Zero kernels against PoCL called directly, median of 5 rounds")
if kern_launch:
    z, p = kern_launch
    r = z / p
    print(f"  empty kernel, one work-item, synchronous immediate list on tile 0: {z:.2f} us against")
    print(f"  the same SPIR-V enqueued and finished on PoCL {p:.2f} us: {r:.2f} x ({verdict(r, 1.5)})")
if kern_spin:
    z, p, c = kern_spin
    r = p / z
    print(f"  spin(), 4096 work-items on tile 0: {z:.2f} ms against PoCL {p:.2f} ms: {r:.2f} x PoCL's")
    print(f"  speed (goal >= 0.9: {'met' if r >= 0.9 else 'MISSED'}); the loop in C -O2, one thread: "
          f"{c:.2f} ms")
if kern_scale:
    t, rt, cpus = kern_scale
    r = t / rt
    goal = 'met' if r >= 1.7 else 'MISSED'
    print(f"  spin() on the root device, split between the tiles: {rt:.2f} ms against tile 0 alone "
          f"{t:.2f} ms:")
    print(f"  {r:.2f} x (goal >= 1.7 with a CPU per tile: {goal}; {cpus} CPUs)")
if kern_launch or kern_spin or kern_scale:
    print()
print("export + import of N pieces, microseconds per operation (median of 7 rounds)")
print("  zex 1 by 1 and vgem: 2N ioctls each (like for like, the goal);")
print("  zex batched: 2 ioctls in all (what batching saves, no goal)")
print(f"{'pieces':>6}  {'zex 1 by 1':>10}  {'vgem floor':>10}  {'1by1/vgem':>9}  "
      f"{'zex batched':>11}  {'batched/vgem':>12}  goal <= {GOAL}")
for n, z, single, v in rows:
    ratio = single / v if v else float("inf")
    batched = z / v if v else float("inf")
    print(f"{n:>6}  {single:>10.2f}  {v:>10.2f}  {ratio:>9.2f}  {z:>11.2f}  {batched:>12.2f}  "
          f"{'met' if ratio <= GOAL else 'MISSED'}")
print()
if userptr:
    print("userptr import of 1 GiB, ms (median of 5): pinned (long-term pin + page tables),")
    print("  mirrored (MMU interval notifier + hmm_range_fault of every page + page tables),")
    print("  against io_uring's fixed-buffer registration (long-term pin + a bio_vec per page)")
    print(f"{'pages':<5} {'MiB':>5} {'THP MiB':>7}  {'pinned':>8} {'mirror':>8} {'io_uring':>8}  "
          f"{'pin/uring':>9} {'mirror/uring':>12}  goal <= 1.5")
    for pages, mib, pin, mirror, uring, thp_kb in userptr:
        rp = pin / uring if uring else float("inf")
        rm = mirror / uring if uring else float("inf")
        verdict = ("met" if rp <= 1.5 else "MISSED") + " / " + ("met" if rm <= 1.5 else "MISSED")
        print(f"{pages:<5} {mib:>5} {thp_kb // 1024:>7}  {pin:>8.2f} {mirror:>8.2f} {uring:>8.2f}  "
              f"{rp:>9.2f} {rm:>12.2f}  {verdict}")
    print()
if ptmem:
    print("what a 2 MiB-aligned import keeps: page tables (2 MiB leaves live in level-1 tables)")
    print("  and its records (the mapping; a mirror's notifier and list of level-1 entries)")
    print(f"{'pages':<5} {'kind':<6} {'mapped':>12} {'tables':>6} {'2M leaves':>9} {'records':>7} "
          f"{'bytes':>9} {'per byte':>9}  goal")
    for pages, kind, mapped, tables, huge, table_bytes, record_bytes in ptmem:
        nbytes = table_bytes + record_bytes
        pct = 100.0 * nbytes / mapped
        goal = 0.01 if huge else 0.2
        print(f"{pages:<5} {kind:<6} {mapped:>12} {tables:>6} {huge:>9} {record_bytes:>7} "
              f"{nbytes:>9} {pct:>8.4f}%  <= {goal} % {'met' if pct <= goal else 'MISSED'}")
if rpc:
    floors = {r[0]: r[3] for r in rpc if r[0].startswith("floor")}
    print()
    print("hostrpc synchronous round trips (us), beside floors measured in the same run")
    print(f"{'mode':<20} {'dev':>3} {'srv':>3} {'median':>9} {'p99':>10} {'calls/s':>8} "
          f"{'rings/call':>10}  vs floor")
    for mode, d, sv, med, p99, cps, rings in rpc:
        note = ""
        if mode == "polling" and d == 1 and sv == 1:
            ratio = med / floors.get("floor-pingpong", float("inf"))
            note = f"{ratio:.2f} x ping-pong, goal <= 1.5 {'met' if ratio <= 1.5 else 'MISSED'}"
        elif mode == "blocking-think":
            ratio = med / floors.get("floor-eventfd-think", float("inf"))
            note = f"{ratio:.2f} x eventfd, goal <= 1.2 {'met' if ratio <= 1.2 else 'MISSED'}"
        elif mode == "blocking" and d >= 4:
            note = f"rings/call goal <= 0.1 {'met' if rings <= 0.1 else 'MISSED'}"
        print(f"{mode:<20} {d:>3} {sv:>3} {med:>9.2f} {p99:>10.2f} {cps:>8} {rings:>10.4f}  {note}")
if l0:
    print()
    print("Level Zero call cost (ns per call, median of 9 rounds) against the direct call")
    print(f"{'call':<26} {'direct':>8} {'header':>8} {'loader':>8} {'hdr/dir':>8} {'ldr/dir':>8}"
          "  goals <= 1.05 / 1.2")
    for call, p in l0.items():
        d, h, ld = p.get("direct", 0), p.get("header", 0), p.get("loader", 0)
        rh, rl = (h / d, ld / d) if d else (float("inf"), float("inf"))
        verdict = ("met" if rh <= 1.05 else "MISSED") + " / " + ("met" if rl <= 1.2 else "MISSED")
        print(f"{call:<26} {d:>8.1f} {h:>8.1f} {ld:>8.1f} {rh:>8.2f} {rl:>8.2f}  {verdict}")
if cb:
    print()
    print("compute-benchmarks api_overhead_benchmark through loader 1.32.0 (median us of 30):")
    print("  libzex alone; beside the null driver (two drivers, the DDI handles' path, goal")
    print("  <= 1.05 x alone); beside it with ZE_ENABLE_LOADER_INTERCEPT=1 (the loader's maps)")
    print(f"{'case':<62} {'alone':>8} {'2 drivers':>9} {'x':>5} {'intercept':>9} {'x':>5}")

    def us(v):
        """A median as a number, or None for a case that did not run."""
        try:
            return float(v)
        except (TypeError, ValueError):
            return None

    def cell(v, width, digits):
        return f"{v:>{width}.{digits}f}" if v is not None else f"{'-':>{width}}"

    for case, c in cb.items():
        a, n, i = us(c.get("alone")), us(c.get("null")), us(c.get("intercept"))
        rn = n / a if a and n is not None else None
        ri = i / a if a and i is not None else None
        verdict = "" if rn is None else ("met" if rn <= 1.05 else "MISSED")
        print(f"{case[:62]:<62} {cell(a, 8, 3)} {cell(n, 9, 3)} {cell(rn, 5, 2)} "
              f"{cell(i, 9, 3)} {cell(ri, 5, 2)}  {verdict}")
if ucx:
    print()
    print("UCX ucx_perftest between two processes on a tile (FLAT), MB/s overall: device")
    print("memory (ze_ipc: a copy through the other's IPC handle) against the floor, the same")
    print("test in host memory (UCX's shared-memory transports; not like for like: one copy")
    print("each, by different paths)")
    print(f"{'test':<12} {'MiB':>4} {'ze-device':>10} {'host':>10} {'x host':>7}  via")
    for (test, mib), r in ucx.items():
        dev, via = r.get("ze-device", ("none", "-"))
        host = r.get("host", ("none", "-"))[0]
        try:
            ratio = f"{float(dev) / float(host):>7.2f}"
        except (ValueError, ZeroDivisionError):
            ratio = f"{'-':>7}"
        print(f"{test:<12} {mib:>4} {dev:>10} {host:>10} {ratio}  {via}")
sys.exit(0 if len(rows) == 4 and userptr and ptmem and rpc and l0 and l0x_copy and l0x_rt
         and kern_launch and kern_spin and kern_scale else 1)
