#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: conformance.py - level-zero-tests in the VM: what to run, and the verdict on what ran.

The list (tools/check/l0-conformance.txt) names the conformance binaries
run (and those only built so far), the helper programs they start, and the gtest cases excluded from the run,
each exclusion with its reason:

    group GROUP     (the suite's test group of the binaries: l0-tests.sh's)
    kernel PATH     (a kernel file of the suite the binaries load: l0-tests.sh's)
    binary NAME
    build NAME
    helper NAME FOLDER
    exclude NAME PATTERN REASON...
    long NAME PATTERN REASON...
    flat NAME PATTERN REASON...

A long line names cases that pass but take too long for make check (why,
with the time, is its reason): make check leaves them out beside the
exclusions (of the FLAT run too), make stress runs them (a built binary's
under FLAT, the only hierarchy it runs under). A flat line names cases run a second
time under ZE_FLAT_DEVICE_HIERARCHY=FLAT (each tile a root device), where
they find the several devices they ask for (why, is its reason): that run
is judged as the binary "NAME@FLAT". A built binary with flat lines runs
under FLAT only (its cases all want several root devices).

`conformance.py plan LIST` checks the list and prints, per binary, the
line tools/vm/init.sh reads: "NAME FILTER", FILTER the exclusion and long
patterns joined with ':' ("-" when there are none), then per binary with
flat lines "NAME +PATTERNS-EXCLUDED FLAT" (the hierarchy to run under). `conformance.py plan
--long LIST` prints the long cases' lines instead, "NAME +PATTERNS-EXCLUDED"
(a positive gtest filter, the exclusions still out), for the binaries that
have some.

`conformance.py judge LIST LOG --layer LAYER` reads what init.sh printed
per binary between "@@ZEX conformance-begin NAME" and "@@ZEX
conformance-end NAME rc=N secs=N" (gtest's own output, and the number of
cases the exclusions matched, "@@ZEX conformance-excluded NAME N"), and
decides: every listed binary ran to its end and exited 0; every case gtest
started passed or skipped (gtest's GTEST_SKIP: the suite's own
"not supported here" answer, reported); gtest's count of cases run agrees
with the cases seen. Prints, per binary, "NAME: N passed of M run, K
excluded" (and the skips), one FAIL line per failed case with the
failure's first lines, then "RESULT LAYER passed=N failed=N skipped=N",
each case counted once; exits 1 when anything failed.
"""

import argparse
import re
import sys

CASE_START = re.compile(r"^\[ RUN      \] (\S+)")
CASE_END = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+?)(?:, where .*)? \(\d+ ms\)$")
CASES_RAN = re.compile(r"^\[==========\] (\d+) tests? from \d+ test suites? ran\.")


FLAT = "FLAT"


def read_list(path, flat=None):
    """(binaries, {binary: [excluded patterns]}, built, {binary: [long patterns]});
    with flat (a dict), also {binary: [patterns run under FLAT]} into it;
    SystemExit on a bad line."""
    binaries, built, excluded, long_cases, problems = [], [], {}, {}, []
    flat_cases = {} if flat is None else flat
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            where = f"{path}:{n}"
            if words[0] == "binary" and len(words) == 2:
                binaries.append(words[1])
            elif words[0] == "build" and len(words) == 2:
                built.append(words[1])
            elif words[0] == "helper" and len(words) == 3:
                pass
            elif words[0] in ("group", "kernel") and len(words) == 2:
                pass
            elif words[0] in ("exclude", "long", "flat"):
                if len(words) < 4:
                    problems.append(f"{where}: {words[0]} needs a binary, a pattern and a reason")
                elif words[1] not in binaries + built:
                    problems.append(f"{where}: {words[1]} is not a listed binary (list it first)")
                elif ":" in words[2] or words[2].startswith("-"):
                    problems.append(f"{where}: one positive pattern per line")
                else:
                    into = {"exclude": excluded, "long": long_cases,
                            "flat": flat_cases}[words[0]]
                    into.setdefault(words[1], []).append(words[2])
            else:
                problems.append(f"{where}: want 'binary NAME', 'helper NAME', "
                                "'exclude NAME PATTERN REASON', 'long NAME PATTERN REASON' "
                                "or 'flat NAME PATTERN REASON'")
    if problems:
        raise SystemExit("\n".join(problems))
    return binaries, excluded, built, long_cases


def main_plan(argv):
    long_only = argv[0] == "--long"
    flat = {}
    binaries, excluded, built, long_cases = read_list(argv[-1], flat)

    def positive(patterns, left_out):
        return "+" + ":".join(patterns) + ("-" + ":".join(left_out) if left_out else "")

    for b in binaries:
        if long_only:
            if b in long_cases:
                print(b, positive(long_cases[b], excluded.get(b, [])))
        else:
            print(b, ":".join(excluded.get(b, []) + long_cases.get(b, [])) or "-")
    for b in built:
        # A built binary runs under FLAT only: its long cases too.
        if long_only and b in flat and b in long_cases:
            print(b, positive(long_cases[b], excluded.get(b, [])), FLAT)
    if not long_only:
        for b in binaries + built:
            if b in flat:
                print(b, positive(flat[b], excluded.get(b, []) + long_cases.get(b, [])), FLAT)
    return 0


def judge_binary(name, body, end, excluded_n):
    """(passed, failed, skipped, problems, summary) for one binary's output."""
    passed, skipped = set(), set()
    failed = {}         # case -> the lines gtest printed while it ran
    running, lines_of_case, ran = None, [], None
    for line in body:
        m = CASE_START.match(line)
        if m:
            running, lines_of_case = m.group(1), []
            continue
        m = CASE_END.match(line)
        if m and m.group(2) == running:
            status, case = m.groups()
            if status == "OK":
                passed.add(case)
            elif status == "SKIPPED":
                skipped.add(case)
            else:
                failed[case] = lines_of_case
            running = None
            continue
        m = CASES_RAN.match(line)
        if m:
            ran = int(m.group(1))
        elif running:
            lines_of_case.append(line)
    problems = []
    for case, out in failed.items():
        detail = [l for l in out if l.strip()][:12]
        problems.append(f"{name}: {case}" + "".join(f"\n    {l}" for l in detail))
    rc = re.search(r"rc=(\d+)", end or "")
    rc = int(rc.group(1)) if rc else None
    if end is None:
        problems.append(f"{name}: did not reach its end (the VM stopped"
                        + (f" in {running})" if running else ")"))
    elif running:
        problems.append(f"{name}: ended (rc={rc}) inside {running}, which never finished")
    elif ran is None:
        problems.append(f"{name}: exited {rc} before gtest's summary")
    elif ran != len(passed) + len(failed) + len(skipped):
        problems.append(f"{name}: gtest ran {ran} cases, "
                        f"{len(passed) + len(failed) + len(skipped)} were seen")
    elif rc != 0 and not failed:
        problems.append(f"{name}: exited {rc} with no failed case")
    total = len(passed) + len(failed) + len(skipped)
    summary = (f"{name}: {len(passed)} passed of {total} run, "
               f"{excluded_n if excluded_n is not None else '?'} excluded"
               + (f", {len(skipped)} skipped by the suite" if skipped else "")
               + (f", {len(failed)} failed" if failed else ""))
    return len(passed), len(failed), len(skipped), problems, summary, skipped


def main_judge(argv):
    ap = argparse.ArgumentParser(prog="conformance.py judge")
    ap.add_argument("list")
    ap.add_argument("log")
    ap.add_argument("--layer", required=True)
    ap.add_argument("--long", action="store_true",
                    help="the log is of the long cases' run (plan --long)")
    args = ap.parse_args(argv)
    flat = {}
    binaries, _, built, long_cases = read_list(args.list, flat)
    built_flat = {b for b in built if b in flat}
    if args.long:
        binaries = [b for b in binaries if b in long_cases] + \
            [f"{b}@{FLAT}" for b in built if b in flat and b in long_cases]
        built = []
    else:
        binaries = binaries + [f"{b}@{FLAT}" for b in binaries + built if b in flat]
        built = [b for b in built if b not in flat]
    with open(args.log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]

    runs = {}           # name -> (body, end line or None)
    excluded_n = {}
    current = None
    for line in lines:
        if line.startswith("@@ZEX conformance-begin "):
            current = line.split()[2]
            runs[current] = ([], None)
        elif line.startswith("@@ZEX conformance-excluded "):
            _, _, name, n = line.split()
            excluded_n[name] = int(n)
        elif line.startswith("@@ZEX conformance-end ") and current:
            runs[current] = (runs[current][0], line)
            current = None
        elif current:
            runs[current][0].append(line)

    passed = failed = skipped = 0
    summaries = []
    for name in binaries:
        if name not in runs:
            print(f"FAIL [{args.layer}] {name}: did not run")
            failed += 1
            continue
        p, f, s, problems, summary, skips = judge_binary(
            name, runs[name][0], runs[name][1], excluded_n.get(name))
        for what in problems:
            print(f"FAIL [{args.layer}] {what}")
        for case in sorted(skips):
            print(f"SKIP [{args.layer}] {name}: {case}")
        passed, skipped = passed + p, skipped + s
        # Each failed case, and a crash or a missing summary beyond them.
        failed += len(problems)
        summaries.append(summary)
    print("\n".join(summaries))
    if built:
        print("built, not run in this layer yet: " + " ".join(built))
    for name in binaries:
        base = name.removesuffix("@" + FLAT)
        # Said once per binary: of its own run (a built binary's is under FLAT).
        if base in long_cases and not args.long and (name == base or base in built_flat):
            print(f"{name}: long cases, left to make stress: " + " ".join(long_cases[base]))
    print(f"RESULT {args.layer} passed={passed} failed={failed} skipped={skipped}")
    return 1 if failed else 0


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "plan":
        return main_plan(sys.argv[2:])
    if len(sys.argv) > 2 and sys.argv[1] == "judge":
        return main_judge(sys.argv[2:])
    print("usage: conformance.py plan [--long] LIST | judge LIST LOG --layer LAYER [--long]",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
