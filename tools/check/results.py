#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: results.py - judge test output: a VM's console log, or a TAP file.

`results.py vm LOG ...` reads the "@@ZEX " lines that tools/vm/init.sh prints and the kernel log it
dumps, and decides:

- the VM reached its end marker;
- in each row of module parameters (a layer of its own, --row-layer):
  zex.ko loaded, every expected kselftest ran (below), `rmmod zex`
  succeeded;
- every kselftest skipped (exit 4) while zex was absent;
- every invalid module parameter was refused, the log naming it;
- every expected kselftest ran (marked by init.sh, or under the kernel's
  run_kselftest.sh, whose own TAP must then be whole), its TAP plan
  matches its results, and
  its exit code agrees with them; a test that tools/check/required-tests.txt
  requires in this layer fails the layer when it skips;
- every expected KUnit suite ran (they run when zex_kunit.ko loads and
  print KTAP to the kernel log), its KTAP parsed with the kernel's
  `kunit.py parse` (debug kernel only);
- the kernel log (its timestamped lines) has no BUG, WARNING, KASAN
  report, lockdep splat, oops, kmemleak report, and the taint is O/E/N at
  most.

`results.py tap LAYER NAME RC FILE` judges one host-side TAP program the
same way as a kselftest in the VM; `results.py kunit-json LAYER RC FILE
SUITE...` the JSON report of `kunit.py run`.

Prints one line per problem, then `RESULT <layer> passed=N failed=N
skipped=N`; exits 1 when anything failed.
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

# Kernel log lines that fail a run whatever the tests said.
BAD_KERNEL_LOG = [
    r"BUG:", r"WARNING:", r"\bOops\b", r"general protection fault",
    r"kernel BUG at", r"Kernel panic", r"UBSAN:",
    r"possible circular locking dependency",
    r"possible recursive locking", r"inconsistent lock state",
    r"possible irq lock inversion", r"suspicious RCU usage",
    r"DEBUG_LOCKS_WARN_ON", r"unreferenced object",
    r"list_add corruption", r"list_del corruption", r"refcount_t: ",
    r"blocked for more than", r"rcu.*self-detected stall",
    r"Unable to handle kernel",
    # A job lost: pushed to a scheduler entity already torn down.
    r"Trying to push to a killed entity",
]
# Only the kernel's own lines, which carry its timestamp ("[   12.345678] ",
# printk.time=1 on every test VM's command line), even where a program's
# output on the console ran into one: a test that prints "WARNING:" itself
# (level-zero-tests' test_p2p does) is not the kernel's log.
BAD_RE = re.compile(r"\[\s*\d+\.\d+\] .*(?:" + "|".join(BAD_KERNEL_LOG) + ")")
# Taint bits allowed: O (out-of-tree, 12), E (unsigned, 13), N (test, 18).
ALLOWED_TAINT = (1 << 12) | (1 << 13) | (1 << 18)
# "ok 3 name", "ok 3 name # SKIP why", and the harness's nameless
# "ok 3 # SKIP why": a directive is never part of the name.
TAP_RESULT = re.compile(r"^(not ok|ok) (\d+)(?: ([^#]*?))?\s*(?:# (SKIP|TODO)\b.*)?$")
TAP_PLAN = re.compile(r"^1\.\.(\d+)")
TAP_RUN = re.compile(r"^#\s+RUN\s+(\S+) \.\.\.$")


class Verdict:
    def __init__(self, layer, required=()):
        self.layer = layer
        self.passed = self.failed = self.skipped = 0
        # (program glob, test glob) pairs that may not skip in this layer
        self.required = [(p, t) for l, p, t in required
                         if fnmatch.fnmatchcase(layer, l)]

    def skip(self, program, test):
        """Count a skip; a test required in this layer fails instead."""
        if any(fnmatch.fnmatchcase(program, p) and fnmatch.fnmatchcase(test, t)
               for p, t in self.required):
            self.problem(f"{program}: {test} skipped, but this layer requires it")
        else:
            self.skipped += 1
            print(f"SKIP [{self.layer}] {program}: {test}")

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL [{self.layer}] {what}")

    def problem(self, what):
        self.failed += 1
        print(f"FAIL [{self.layer}] {what}")


def sections(lines, name):
    """Yield (arg, body lines, end line) for @@ZEX <name>-begin/-end pairs."""
    body, arg = None, None
    for line in lines:
        if line.startswith(f"@@ZEX {name}-begin"):
            arg = line[len(f"@@ZEX {name}-begin"):].strip()
            body = []
        elif line.startswith(f"@@ZEX {name}-end") and body is not None:
            yield arg, body, line
            body = None
        elif body is not None:
            body.append(line)


def judge_kselftest(v, name, body, end_line):
    plan = None
    results = []
    running = None      # the harness's "#  RUN  name ..." before a result
    names = []          # each result's test name
    for line in body:
        m = TAP_PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
        m = TAP_RUN.match(line)
        if m:
            running = m.group(1)
        m = TAP_RESULT.match(line)
        if m:
            results.append(m)
            # The 6.1 harness prints a skip as "ok N # SKIP why", nameless.
            names.append(m.group(3) or running or f"#{m.group(2)}")
            running = None
    rc = int(re.search(r"rc=(-?\d+)", end_line).group(1))
    if plan is None:
        v.problem(f"{name}: no TAP plan (rc={rc})")
        print("\n".join("    " + l for l in body[-20:]))
        return
    if plan == 0:
        # "1..0 # SKIP why": the whole program skipped; never silently.
        v.skip(name, "*")
    for m, test in zip(results, names):
        if m.group(4) == "SKIP":
            v.skip(name, test)
        else:
            v.check(m.group(1) == "ok", f"{name}: {test}")
    if len(results) != plan:
        v.problem(f"{name}: plan 1..{plan} but {len(results)} results")
    any_failed = any(m.group(1) == "not ok" for m in results)
    if rc not in (0, 4) and not any_failed:
        v.problem(f"{name}: exit code {rc} with no failed test")
    if rc in (0, 4) and any_failed:
        v.problem(f"{name}: exit code {rc} despite failed tests")
    if any_failed:
        print("\n".join("    " + l for l in body if not TAP_RESULT.match(l)))


TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")
LOAD_MARK = "zex-vm: loading zex_kunit.ko"
SUITE_RESULT = re.compile(r"^(not ok|ok) \d+ (zex_\w+)")


def kunit_ktap(dmesg):
    """The KTAP that loading zex_kunit.ko printed, made one document.

    Module suites print their KTAP to the kernel log without a top-level
    header; this adds "KTAP version 1" and the plan.
    """
    lines = [TIMESTAMP.sub("", l) for l in dmesg]
    # From the load that init.sh marked on.
    mark = [i for i, l in enumerate(lines) if l.startswith(LOAD_MARK)]
    if mark:
        lines = lines[mark[-1]:]
    first = next((i for i in range(len(lines) - 1)
                  if lines[i].strip() == "KTAP version 1"
                  and lines[i + 1].strip().startswith("# Subtest: zex_")), None)
    if first is None:
        return [], []
    body = lines[first:]
    last = max((i for i, l in enumerate(body) if SUITE_RESULT.match(l)),
               default=len(body) - 1)
    body = body[:last + 1]
    suites = [m.group(2) for m in map(SUITE_RESULT.match, body) if m]
    started = [l.strip()[len("# Subtest: "):] for l in body
               if l.startswith("    # Subtest: zex_")]
    plan = max(len(suites), len(started))
    return ["KTAP version 1", f"1..{plan}"] + body, started


def judge_kunit(v, kunit_py, dmesg, expected):
    ktap, started = kunit_ktap(dmesg)
    for suite in expected:
        v.check(suite in started, f"KUnit suite {suite} ran")
    if not ktap:
        return
    proc = subprocess.run([sys.executable, kunit_py, "parse"],
                          input="\n".join(ktap) + "\n", text=True,
                          capture_output=True)
    out = proc.stdout + proc.stderr
    m = re.search(r"Ran (\d+) tests?: passed: (\d+)(?:, failed: (\d+))?"
                  r"(?:, crashed: (\d+))?(?:, skipped: (\d+))?"
                  r"(?:, errors: (\d+))?", out)
    if not m:
        v.problem("kunit.py parse gave no summary")
        print(out)
        return
    ran, passed = int(m.group(1)), int(m.group(2))
    failed = sum(int(m.group(i) or 0) for i in (3, 4, 6))
    skipped = int(m.group(5) or 0)
    v.passed += passed
    v.skipped += skipped
    if failed or proc.returncode:
        v.failed += max(failed, 1)
        print(out)
    print(f"kunit [{v.layer}]: ran {ran}, passed {passed}, failed {failed}, "
          f"skipped {skipped}")


def judge_load(v, marks):
    v.check("insmod rc=0" in marks, "insmod zex.ko succeeded")
    v.check("rmmod rc=0" in marks, "rmmod zex succeeded")


RUNNER_HEAD = re.compile(r"^# selftests: (\S+): (\S+)$")
RUNNER_RESULT = re.compile(
    r"^(not ok|ok) (\d+) selftests: (\S+): (\S+)(?: # (SKIP|TIMEOUT|exit=(-?\d+)).*)?$")


def runner_tests(v, body):
    """The kernel's kselftest runner (run_kselftest.sh): its TAP judged, and
    each program's output (which it prefixes with "# ") given back as
    (name, output, "rc=N"), as a kselftest-begin/-end section would be.
    """
    plan = next((int(m.group(1)) for m in map(TAP_PLAN.match, body) if m), None)
    name, out, results = None, [], 0
    for line in body:
        m = RUNNER_HEAD.match(line)
        if m:
            name, out = m.group(2), []
            continue
        m = RUNNER_RESULT.match(line)
        if m and m.group(4) == name:
            results += 1
            if m.group(5) == "SKIP":
                rc = 4
            elif m.group(5) == "TIMEOUT":
                rc = 124
            elif m.group(6):
                rc = int(m.group(6))
            else:
                rc = 0 if m.group(1) == "ok" else 1
            yield name, out, f"rc={rc}"
            name = None
        elif name is not None:
            out.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
    v.check(plan is not None and plan == results,
            f"run_kselftest.sh: plan 1..{plan}, {results} results")


def judge_row(v, body, expected):
    """One row: the load, every expected kselftest, the unload."""
    judge_load(v, [l[len("@@ZEX "):] for l in body if l.startswith("@@ZEX ")])
    ran = set()
    runs = list(sections(body, "kselftest"))
    for _, rbody, _ in sections(body, "ksft-runner"):
        runs += runner_tests(v, rbody)
    for name, tbody, end in runs:
        ran.add(name)
        judge_kselftest(v, name, tbody, end)
    for name in expected:
        v.check(name in ran, f"{name} ran")


def read_required(path):
    """(layer glob, program glob, test glob) triples from a required-tests file."""
    if not path:
        return []
    with open(path) as f:
        rows = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for r in rows:
        if len(r) != 3:
            raise SystemExit(f"{path}: want '<layer> <program> <test>': {r}")
    return [tuple(r) for r in rows]


REQUIRED_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "required-tests.txt")


def main_tap(argv):
    layer, name, rc, path = argv
    with open(path, errors="replace") as f:
        body = [l.rstrip("\r\n") for l in f]
    v = Verdict(layer, read_required(REQUIRED_DEFAULT))
    judge_kselftest(v, name, body, f"rc={rc}")
    print(f"RESULT {v.layer} passed={v.passed} failed={v.failed} "
          f"skipped={v.skipped}")
    return 1 if v.failed else 0


def main_kunit_json(argv):
    """`results.py kunit-json LAYER RC FILE SUITE...`: kunit.py run's --json.

    Every expected suite ran, every case in the run passed or skipped, and
    kunit.py's exit code agrees.
    """
    layer, rc, path, expected = argv[0], int(argv[1]), argv[2], argv[3:]
    v = Verdict(layer)
    try:
        with open(path) as f:
            top = json.load(f)
    except (OSError, ValueError) as e:
        top = None
        v.problem(f"kunit.py wrote no JSON ({e})")
    failed = 0

    def walk(group, suite):
        nonlocal failed
        for case in group.get("test_cases", []):
            what = f"{suite}: {case['name']}" if suite else case["name"]
            if case["status"] == "SKIP":
                v.skip(suite or "kunit", case["name"])
            else:
                v.check(case["status"] == "PASS", f"{what} ({case['status']})")
                failed += case["status"] != "PASS"
        for sub in group.get("sub_groups", []):
            walk(sub, suite or sub["name"])

    if top is not None:
        suites = [g["name"] for g in top.get("sub_groups", [])]
        for name in expected:
            v.check(name in suites, f"KUnit suite {name} ran under kunit.py")
        walk(top, None)
    if rc != 0 and not failed:
        v.problem(f"kunit.py exited {rc} with no failed test")
    print(f"RESULT {v.layer} passed={v.passed} failed={v.failed} "
          f"skipped={v.skipped}")
    return 1 if v.failed else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "tap":
        return main_tap(sys.argv[2:])
    if len(sys.argv) > 1 and sys.argv[1] == "kunit-json":
        return main_kunit_json(sys.argv[2:])
    if len(sys.argv) > 1 and sys.argv[1] == "vm":
        del sys.argv[1]
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--layer", required=True,
                    help="the layer of what concerns the whole VM")
    ap.add_argument("--row-layer",
                    help="the layer of each row of module parameters, "
                    "{row} naming it (default: --layer)")
    ap.add_argument("--first-row-only", nargs="*", default=[],
                    help="kselftests expected in the first row only")
    ap.add_argument("--rows", type=int, default=1,
                    help="how many rows of module parameters the VM runs")
    ap.add_argument("--selftests", nargs="*", default=[])
    ap.add_argument("--kunit-suites", nargs="*", default=[])
    ap.add_argument("--kunit-py")
    ap.add_argument("--mode", default="check")
    ap.add_argument("--bad-params",
                    help="file of parameter values whose load must be refused")
    ap.add_argument("--no-absent", action="store_true",
                    help="the VM skipped the zex-absent runs (checked on the stock kernels)")
    ap.add_argument("--kmemleak", action="store_true",
                    help="the kernel has kmemleak: its report must be empty")
    ap.add_argument("--required", default=REQUIRED_DEFAULT,
                    help="tests that may not skip in a layer (file)")
    args = ap.parse_args()

    args.row_layer = args.row_layer or args.layer
    with open(args.log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]
    v = Verdict(args.layer, read_required(args.required))
    marks = [l[len("@@ZEX "):] for l in lines if l.startswith("@@ZEX ")]

    v.check("end" in marks, "VM reached its end marker")
    for name in [] if args.no_absent else args.selftests:
        v.check(f"absent {name} rc=4" in marks,
                f"{name} skips (exit 4) while zex is absent")
    if args.bad_params:
        with open(args.bad_params) as f:
            bad = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        for b in bad:
            tried = [m for m in marks if m.startswith(f"badparam {b} ")]
            # busybox insmod retries with init_module() after finit_module()
            # fails, so the message may appear twice.
            v.check(tried and " rc=0 " not in tried[0]
                    and not tried[0].endswith(" logged=0"),
                    f"insmod zex.ko {b} refused, naming the parameter")
    for m in marks:
        if m.startswith("fail "):
            v.problem(m)

    rows = []
    if args.mode == "check":
        # Each row of module parameters is its own layer: zex.ko loaded
        # with them, every kselftest, zex.ko unloaded.
        for tag, body, _ in sections(lines, "row"):
            rv = Verdict(args.row_layer.format(row=tag), read_required(args.required))
            expected = args.selftests if not rows else [
                t for t in args.selftests if t not in args.first_row_only]
            judge_row(rv, body, expected)
            rows.append(rv)
        v.check(len(rows) == args.rows,
                f"{len(rows)} of {args.rows} rows of module parameters ran to their end")
        if args.kunit_suites:
            v.check("kunit-insmod rc=0" in marks, "insmod zex_kunit.ko succeeded")
            v.check("kunit-rmmod rc=0" in marks, "rmmod zex_kunit succeeded")
            dmesg = [l for _, body, _ in sections(lines, "dmesg") for l in body]
            judge_kunit(v, args.kunit_py, dmesg, args.kunit_suites)
    else:
        judge_load(v, marks)
        if args.mode == "run":
            v.check("zex-info rc=0" in marks, "zex-info succeeded")

    if args.kmemleak:
        reports = list(sections(lines, "kmemleak"))
        leaks = [l for _, body, _ in reports for l in body if l.strip()]
        v.check(reports and not leaks, "kmemleak scanned and found no leak")
        if leaks:
            print("\n".join("    " + l for l in leaks[:60]))

    taint = [m for m in marks if m.startswith("taint ")]
    if taint:
        t = int(taint[-1].split()[1])
        v.check(t & ~ALLOWED_TAINT == 0, f"kernel taint {t} is O/E/N at most")
    else:
        v.problem("no taint reported")

    bad = [l for l in lines if not l.startswith("@@ZEX ") and BAD_RE.search(l)]
    v.check(not bad, "kernel log clean (no BUG/WARNING/KASAN/lockdep/oops)")
    if bad:
        first = lines.index(bad[0])
        print("\n".join("    " + l for l in lines[max(0, first - 5):first + 60]))

    for r in rows + [v]:
        print(f"RESULT {r.layer} passed={r.passed} failed={r.failed} "
              f"skipped={r.skipped}")
    return 1 if any(r.failed for r in rows + [v]) else 0


if __name__ == "__main__":
    sys.exit(main())
