#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: compute-benchmarks-cases.py - Intel's compute-benchmarks in the VM: what to run, and the verdict on what ran.

The list (tools/check/compute-benchmarks-cases.txt) names, per benchmark
binary (api_overhead_benchmark, memory_benchmark), the tests run in make
check, and the cases left out with their reasons:

    run BENCHMARK TEST
    exclude BENCHMARK TEST ARGUMENT REASON...
    long BENCHMARK TEST ARGUMENT REASON...
    skip BENCHMARK TEST REASON...

A run line runs all of TEST's Level Zero cases, each once (one iteration,
no warm-up: make check asks whether they work, make bench how fast). An
exclude line leaves out the cases of TEST whose arguments include
ARGUMENT, written as the benchmark prints it ("size=4GB"); a long line names
the cases of TEST with ARGUMENT (or with "*", every case: make check does
not start the test) that work but take too long for make check (make
stress runs them: `plan --long`, `judge --long`); a skip
line names a test not run at all. Every test of a benchmark's own list (its
--noop listing) must be run or skipped: the verdict fails a test the list
does not name, or names but the benchmark does not have.

`compute-benchmarks-cases.py plan LIST` prints the lines tools/vm/init.sh
reads: "BENCHMARK TEST [^ARGUMENT...]" (the benchmark's own argument
filters, negated: the excluded and the long ones). `plan --long LIST`
prints one line per long argument instead, "BENCHMARK TEST ARGUMENT
[^ARGUMENT...]" (those cases, the exclusions still out; for "*", the
argument every case has, "api=l0").

`compute-benchmarks-cases.py judge LIST LOG --layer LAYER` reads what
init.sh printed: each benchmark's cases (its --noop listing, between
"@@ZEX cb-cases BENCHMARK" and "@@ZEX cb-cases-end BENCHMARK"; the
exclusions are applied here), then per test the run (CSV rows between
"@@ZEX cb-begin BENCHMARK TEST" and "@@ZEX cb-end BENCHMARK TEST rc=N
secs=N"), and decides: every test ran to its end and exited 0;
every case listed produced a row of figures, or a row saying the
benchmark's own "not supported here" (NO_SUPPORT, NO_IMPLEMENT: reported
as skipped); no row says ERROR, VERIF_FAIL, KERNEL_BUILD_ERROR or
MISSING_KERNEL. Prints per test "BENCHMARK TEST: N passed of M, K
excluded", one FAIL line per failed case with the benchmark's message, then
"RESULT LAYER passed=N failed=N skipped=N"; exits 1 when anything failed.
"""

import argparse
import re
import sys

BENCHMARKS = ("api_overhead_benchmark", "memory_benchmark")
# A result row: "TEST(api=l0 ARGS),MEAN,..." (CSV; the figures, or one
# status word in every column).
ROW = re.compile(r"^(\w+)\((api=l0[^)]*)\),([^,]+),")
# A case of the --noop listing: "TEST(api=l0 ARGS)", padding, type, unit.
LISTED = re.compile(r"^(\w+)\((api=l0[^)]*)\)\s")
# A long line's argument for every case of its test.
EVERY = "*"
FAILED = ("ERROR", "VERIF_FAIL", "KERNEL_BUILD_ERROR", "MISSING_KERNEL", "INVALID_ARGS")
SKIPPED = ("NO_SUPPORT", "NO_SUPPORT (API)", "NO_IMPLEMENT")


def read_list(path, long_args=None):
    """[(benchmark, test)] run, {(benchmark, test): [arguments]} excluded,
    {(benchmark, test): reason} skipped; with long_args (a dict), also
    {(benchmark, test): [arguments]} long into it; SystemExit on a bad line."""
    runs, excluded, skipped, problems = [], {}, {}, []
    long_args = {} if long_args is None else long_args
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            where = f"{path}:{n}"
            kind = words[0]
            if kind not in ("run", "exclude", "long", "skip") or len(words) < 3:
                problems.append(f"{where}: want 'run BENCHMARK TEST', "
                                "'exclude BENCHMARK TEST ARGUMENT REASON', "
                                "'long BENCHMARK TEST ARGUMENT REASON' or "
                                "'skip BENCHMARK TEST REASON'")
                continue
            key = (words[1], words[2])
            if words[1] not in BENCHMARKS:
                problems.append(f"{where}: {words[1]} is not one of {', '.join(BENCHMARKS)}")
            elif kind == "run" and len(words) == 3:
                if key in runs or key in skipped:
                    problems.append(f"{where}: {words[2]} is listed twice")
                runs.append(key)
            elif kind in ("exclude", "long") and len(words) >= 5 and (
                    "=" in words[3] or (kind == "long" and words[3] == EVERY)):
                if key not in runs:
                    problems.append(f"{where}: {words[2]} is not run (list its run line first)")
                into = excluded if kind == "exclude" else long_args
                into.setdefault(key, []).append(words[3])
            elif kind == "skip" and len(words) >= 4:
                if key in runs or key in skipped:
                    problems.append(f"{where}: {words[2]} is listed twice")
                skipped[key] = " ".join(words[3:])
            else:
                problems.append(f"{where}: a run line has no reason, an exclusion or "
                                "long line names one NAME=VALUE argument (a long line "
                                "'*', every case) and why, a skip says why")
    if problems:
        raise SystemExit("\n".join(problems))
    return runs, excluded, skipped


def main_plan(argv):
    long_only = argv[0] == "--long"
    long_args = {}
    runs, excluded, _ = read_list(argv[-1], long_args)
    for key in runs:
        out = ["^" + a for a in excluded.get(key, [])]
        if not long_only:
            if EVERY not in long_args.get(key, []):
                print(*key, *out, *("^" + a for a in long_args.get(key, [])))
            continue
        if EVERY in long_args.get(key, []):
            # Every case has "api=l0": the filter that keeps them all.
            print(*key, "api=l0", *out)
            continue
        for arg in long_args.get(key, []):
            print(*key, arg, *out)
    return 0


def judge_test(key, listing, body, ends, excluded, long_args, long_run):
    """(passed, failed, skipped, problems, summary, skip lines) for one test;
    listing: the benchmark's --noop rows of it, all of its cases; ends:
    its runs' end marks; long_run: the run was of the long cases."""
    name = " ".join(key)
    want, n_excluded, n_long = [], 0, 0
    for line in listing:
        m = LISTED.match(line)
        if m and m.group(1) == key[1]:
            args = set(m.group(2).split())
            if args & set(excluded):
                n_excluded += 1
            elif (EVERY in long_args or bool(args & set(long_args))) != long_run:
                n_long += 1
            else:
                want.append(m.group(2))
    rows, detail, pending = {}, {}, []
    for line in body:
        m = ROW.match(line)
        if m and m.group(1) == key[1]:
            rows[m.group(2)] = m.group(3)
            # The benchmark prints a case's failure before its row.
            detail[m.group(2)] = [l for l in pending if l.strip()][:6]
            pending = []
        else:
            pending.append(line)
    passed = failed = skipped = 0
    problems, skips = [], []
    for case in want:
        status = rows.get(case)
        if status is None:
            problems.append(f"{name}: ({case}): no row")
            failed += 1
        elif status in FAILED:
            problems.append(f"{name}: ({case}): {status}"
                            + "".join(f"\n    {l}" for l in detail.get(case, [])))
            failed += 1
        elif status in SKIPPED:
            skips.append(f"{name}: ({case}): {status}")
            skipped += 1
        else:
            try:
                float(status)
                passed += 1
            except ValueError:
                problems.append(f"{name}: ({case}): {status}")
                failed += 1
    rcs = [re.search(r"rc=(\d+)", end or "") for end in ends]
    rcs = [int(rc.group(1)) if rc else None for rc in rcs]
    if not ends or None in ends:
        problems.append(f"{name}: did not reach its end (the VM stopped)")
        failed += 1
    elif not want and not n_long:
        problems.append(f"{name}: the benchmark lists no case of it")
        failed += 1
    elif any(rc != 0 for rc in rcs) and not failed:
        problems.append(f"{name}: exited {max(rcs)} with no failed case")
        failed += 1
    summary = (f"{name}: {passed} passed of {len(want)}, {n_excluded} excluded"
               + (f", {n_long} {'not long' if long_run else 'long'}" if n_long else "")
               + (f", {skipped} not supported here" if skipped else "")
               + (f", {failed} failed" if failed else ""))
    return passed, failed, skipped, problems, summary, skips


def main_judge(argv):
    ap = argparse.ArgumentParser(prog="compute-benchmarks-cases.py judge")
    ap.add_argument("list")
    ap.add_argument("log")
    ap.add_argument("--layer", required=True)
    ap.add_argument("--long", action="store_true", help="the log is of plan --long's run")
    args = ap.parse_args(argv)
    long_args = {}
    runs, excluded, skipped = read_list(args.list, long_args)
    listed_tests = runs + list(skipped)
    if args.long:
        runs = [key for key in runs if key in long_args]
    else:
        runs = [key for key in runs if EVERY not in long_args.get(key, [])]
    with open(args.log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]

    listing, body, end = {}, {}, {}
    into, current = None, None
    for line in lines:
        words = line.split()
        if line.startswith("@@ZEX cb-cases ") and len(words) == 3:
            into = listing.setdefault(words[2], [])
        elif line.startswith("@@ZEX cb-cases-end "):
            into = None
        elif line.startswith("@@ZEX cb-begin ") and len(words) == 4:
            current = (words[2], words[3])
            into = body.setdefault(current, [])
            end.setdefault(current, []).append(None)
        elif line.startswith("@@ZEX cb-end ") and current:
            end[current][-1] = line
            into = current = None
        elif into is not None:
            into.append(line)

    passed = failed = skipped_n = 0
    summaries = []
    for key in runs:
        if key[0] not in listing or key not in body:
            print(f"FAIL [{args.layer}] {' '.join(key)}: did not run")
            failed += 1
            continue
        p, f, s, problems, summary, skips = judge_test(
            key, listing[key[0]], body[key], end[key], excluded.get(key, []),
            long_args.get(key, []), args.long)
        for what in problems:
            print(f"FAIL [{args.layer}] {what}")
        for what in skips:
            print(f"SKIP [{args.layer}] {what}")
        passed, failed, skipped_n = passed + p, failed + f, skipped_n + s
        summaries.append(summary)
    for bench, listed in listing.items() if not args.long else ():
        names = {m.group(1) for m in map(LISTED.match, listed) if m}
        named = {t for b, t in listed_tests if b == bench}
        for test in sorted(names - named):
            print(f"FAIL [{args.layer}] {bench} {test}: neither run nor skipped by the list")
            failed += 1
        for test in sorted(named - names):
            print(f"FAIL [{args.layer}] {bench} {test}: the benchmark has no such test")
            failed += 1
    print("\n".join(summaries))
    for key, why in skipped.items() if not args.long else ():
        print(f"not run: {' '.join(key)}: {why}")
    for key, arguments in long_args.items() if not args.long else ():
        what = "every case" if EVERY in arguments else " ".join(arguments)
        print(f"{' '.join(key)}: long cases, left to make stress: {what}")
    print(f"RESULT {args.layer} passed={passed} failed={failed} skipped={skipped_n}")
    return 1 if failed else 0


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "plan":
        return main_plan(sys.argv[2:])
    if len(sys.argv) > 2 and sys.argv[1] == "judge":
        return main_judge(sys.argv[2:])
    print("usage: compute-benchmarks-cases.py plan [--long] LIST | "
          "judge LIST LOG --layer LAYER [--long]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
