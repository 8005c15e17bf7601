#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: doc-layout.py - the byte layouts the documentation draws, held to the structs

Usage: doc-layout.py OUTDIR PAGE.rst...

A page marks a layout table with a comment naming the struct and its
header, ``.. layout: struct NAME, PATH``; the literal block after it has a
line starting "offset  size  field" and then one row per field: offset,
size, field name, what it holds. This writes a C program that includes the
header and compares every row with offsetof() and sizeof() of the field,
checks that the rows cover the struct from its first byte to its last with
no gap, that a row whose text is a quoted string ("ZEXW") names bytes the
header defines as that string literal, and that a version row's number is
the header's *_VERSION; builds it with cc and runs it. Prints TAP; exits
non-zero on any difference, and when the pages mark no table at all.
"""

import os
import re
import subprocess
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ROW = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\w+)(?:\s+(.*))?$")


def tables(page):
    """[(struct, header, [(offset, size, field, text)], where)] of @page."""
    lines = open(page, encoding="utf-8").read().splitlines()
    out = []
    for n, line in enumerate(lines):
        m = re.match(r"^\s*\.\. layout: struct (\w+), (\S+)\s*$", line)
        if not m:
            continue
        rows, start = [], None
        for k in range(n + 1, len(lines)):
            text = lines[k]
            if start is None:
                if re.match(r"^\s+offset\s+size\s+field\b", text):
                    start = len(text) - len(text.lstrip())
                continue
            if text.strip() and len(text) - len(text.lstrip()) < start:
                break
            r = ROW.match(text)
            if r and len(text) - len(text.lstrip(" ")) <= start + 6:
                rows.append((int(r.group(1)), int(r.group(2)), r.group(3),
                             (r.group(4) or "").strip()))
        out.append((m.group(1), m.group(2), rows, f"{os.path.relpath(page, TOP)}:{n + 1}"))
    return out


def main():
    outdir, pages = sys.argv[1], sys.argv[2:]
    found = [t for p in pages for t in tables(p)]
    checks, static = [], []
    for struct, header, rows, where in found:
        htext = open(os.path.join(TOP, header), encoding="utf-8").read()
        if not rows:
            static.append((False, f"{where}: struct {struct} has a table with rows"))
            continue
        end = 0
        for off, size, field, text in rows:
            checks.append((struct, field, off, size, where))
            if off != end:
                static.append((False, f"{where}: {struct}.{field} starts at {end}, not {off}"))
            end = off + size
            q = re.fullmatch(r'"([^"]*)"', text)
            if q:
                ok = len(q.group(1)) == size and re.search(
                    r'#define\s+\w+\s+"%s"' % re.escape(q.group(1)), htext)
                static.append((bool(ok), f"{where}: {struct}.{field} holds the bytes "
                               f"\"{q.group(1)}\" that {header} defines"))
            if field == "version" and re.fullmatch(r"\d+", text):
                ok = re.search(r"#define\s+\w*VERSION\s+%s\b" % text, htext)
                static.append((bool(ok), f"{where}: {struct}.version is {text} as {header} says"))
        checks.append((struct, None, 0, end, where))
    print("TAP version 13")
    if not found:
        print("1..1\nnot ok 1 the pages mark layout tables (.. layout: struct NAME, PATH)")
        return 1
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(outdir, "doc_layout.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("#include <stddef.h>\n#include <stdio.h>\n")
        for header in sorted({h for _, h, _, _ in found}):
            f.write(f'#include "{os.path.join(TOP, header)}"\n')
        f.write("int main(void)\n{\n\tint failed = 0, n = %d;\n" % len(static))
        for k, (struct, field, off, size, where) in enumerate(checks):
            if field:
                got_off = f"offsetof(struct {struct}, {field})"
                got_size = f"sizeof(((struct {struct} *)0)->{field})"
                what = f"{where}: {struct}.{field} at {off}, {size} bytes"
            else:
                got_off, got_size = "0", f"sizeof(struct {struct})"
                what = f"{where}: struct {struct} is the table's {size} bytes"
            f.write(f"\t{{\n\t\tsize_t o = {got_off}, z = {got_size};\n"
                    f"\t\tint ok = o == {off} && z == {size};\n\n"
                    f"\t\tfailed |= !ok;\n"
                    f"\t\tprintf(\"%sok %d {what}\\n\", ok ? \"\" : \"not \", ++n);\n"
                    f"\t\tif (!ok)\n\t\t\tprintf(\"# the struct: offset %zu, size %zu\\n\", o, z);\n"
                    f"\t}}\n")
        f.write("\treturn failed;\n}\n")
    total = len(static) + len(checks)
    print(f"1..{total}")
    failed = 0
    for n, (ok, what) in enumerate(static, 1):
        print(f"{'' if ok else 'not '}ok {n} {what}")
        failed |= not ok
    exe = os.path.join(outdir, "doc_layout")
    cflags = subprocess.run(["pkg-config", "--cflags", "libdrm"], capture_output=True,
                            text=True).stdout.split()
    cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", *cflags,
                         "-I" + os.path.join(TOP, "libzex/src"),
                         "-I" + os.path.join(TOP, "libzex/include"),
                         "-I" + os.path.join(TOP, "uapi"), src, "-o", exe],
                        capture_output=True, text=True)
    if cc.returncode:
        for line in cc.stderr.splitlines():
            print(f"# {line}")
        print(f"not ok {len(static) + 1} the layout program builds")
        return 1
    run = subprocess.run([exe], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    return 1 if failed or run.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
