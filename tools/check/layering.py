#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: layering.py - the arrows between source files, from their objects

Usage: layering.py ROOT OBJECT... [--src DIR]...

Each object file stands for the source file of its name (its path relative
to ROOT, .o for .c). A file points at another when it calls a function the
other defines (nm's text symbols); a reference to data is no arrow, so a
dispatch table that lists entry points points down at them while the
objects that carry the table's address do not point back up. The check
fails when files call each other in a circle, or folders do: a folder is a
room of the design, and the arrows between rooms go one way. With --src
(the folders the objects' sources are relative to, first match wins), a
quoted #include of a header in another folder is an arrow between folders
too: includes point down the same map. Prints TAP, one test per rule, with
the arrows found.
"""

import os
import re
import subprocess
import sys


def symbols(obj):
    """(functions defined, symbols used) of an object file."""
    out = subprocess.run(["nm", "-g", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TW":
            defined.add(parts[2])
    return defined, used


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def relative(path, srcs):
    """(src dir, path relative to it) of the first src dir holding @path."""
    for src in srcs:
        rel = os.path.relpath(path, src)
        if not rel.startswith(".."):
            return src, rel
    return None, None


def include_arrows(srcs, folders_seen):
    """Folder arrows from quoted includes in the objects' folders."""
    arrows = {}
    for src in srcs:
        for folder in folders_seen:
            d = os.path.join(src, folder)
            if not os.path.isdir(d) or relative(d, srcs)[0] != src:
                continue
            for name in sorted(os.listdir(d)):
                if not name.endswith((".c", ".h")):
                    continue
                with open(os.path.join(d, name), encoding="utf-8") as f:
                    text = f.read()
                for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
                    for cand in (os.path.join(d, inc), *(os.path.join(s, inc) for s in srcs)):
                        if os.path.exists(cand):
                            _, rel = relative(os.path.normpath(cand), srcs)
                            if rel is not None:
                                to = os.path.dirname(rel) or "."
                                if to != folder:
                                    arrows.setdefault(folder, set()).add(to)
                            break
    return arrows


def main():
    args, srcs = sys.argv[1:], []
    while "--src" in args:
        i = args.index("--src")
        srcs.append(args[i + 1])
        del args[i:i + 2]
    root, objs = args[0], args[1:]
    owner, uses = {}, {}
    for obj in objs:
        name = os.path.relpath(obj, root)[:-2] + ".c"
        defined, used = symbols(obj)
        uses[name] = used
        for s in defined:
            owner[s] = name
    files = {f: {owner[s] for s in u if s in owner and owner[s] != f}
             for f, u in uses.items()}
    folders = {}
    for f, targets in files.items():
        for t in targets:
            a, b = os.path.dirname(f) or ".", os.path.dirname(t) or "."
            if a != b:
                folders.setdefault(a, set()).add(b)
    seen = {os.path.dirname(f) or "." for f in files}
    for a, targets in include_arrows(srcs, seen).items():
        folders.setdefault(a, set()).update(targets)
    print("TAP version 13\n1..2")
    failed = 0
    for n, (what, graph) in enumerate((("files", files), ("folders", folders)), 1):
        found = cycles(graph)
        print(f"{'not ' if found else ''}ok {n} no circle between {what}")
        for comp in found:
            print(f"# circle: {' <-> '.join(comp)}")
        failed += bool(found)
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f"#   {a} -> {b}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
