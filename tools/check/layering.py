#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""DOC: layering.py - the arrows between rooms, held to the map in rooms.txt

Usage:
  layering.py ROOMS TREE [--objects OBJROOT [--src DIR]... OBJECT...]
  layering.py ROOMS --map
  layering.py ROOMS --check-doc PAGE

ROOMS is tools/check/rooms.txt: for each tree (a folder of the repository,
"." for the repository itself) its rooms in rank order, top first. The
first form checks TREE. A source file points at another when it calls a
function the other defines: with --objects, each object file under
OBJROOT stands for the source of the same relative path (.o for .c) under
the first --src folder (relative to TREE) that has it, and nm's text
symbols give the calls; a reference to data is no arrow, so a dispatch
table points down at the entry points it lists while the handles that
carry the table's address do not point back up. An #include of a file of
the repository is an arrow too, from every C source and header of the
tree (git's list of files, untracked ones included): looked up in the
including file's folder, then in the tree's "include:" folders. A file's
room is its folder relative to the tree (the top folder, for "."). The
checks, as TAP: no circle between files, no circle between rooms, every
folder with sources is a listed room and every listed room exists, no
arrow from a room to one ranked above it, and no call a "deny" line
forbids.

--map prints the map that Documentation/index.rst shows, between its
marker comments; --check-doc fails when PAGE's map differs from it.
"""

import os
import re
import subprocess
import sys

SOURCES = (".c", ".h", ".cc", ".cu", ".cuh", ".cl")
MAP_BEGIN = ".. map generated from tools/check/rooms.txt: begin"
MAP_END = ".. map generated from tools/check/rooms.txt: end"
TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def read_rooms(path):
    """{tree: {"rooms": [(room, text)], "include": [dirs], "deny": [(prefix, syms)]}}"""
    trees, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = re.fullmatch(r"\[(.+)\]", line.strip())
            if m:
                cur = trees.setdefault(m.group(1), {"rooms": [], "include": [], "deny": []})
                continue
            if cur is None:
                sys.exit(f"{path}:{n}: a line before the first [tree]")
            word, _, rest = line.strip().partition(" ")
            if word == "include:":
                cur["include"] += rest.split()
            elif word == "deny":
                prefix, *syms = rest.split()
                cur["deny"].append((prefix, set(syms)))
            else:
                if word in (r for r, _ in cur["rooms"]):
                    sys.exit(f"{path}:{n}: room {word} listed twice")
                cur["rooms"].append((word, rest.strip()))
    return trees


def tree_files(tree):
    """The C sources and headers of @tree, relative to it (git's list)."""
    out = subprocess.run(["git", "-C", TOP, "ls-files", "--cached", "--others",
                          "--exclude-standard", "--", tree],
                         check=True, capture_output=True, text=True).stdout
    files = []
    for path in sorted(set(out.split())):
        if path.endswith(SOURCES) and os.path.exists(os.path.join(TOP, path)):
            files.append(os.path.relpath(path, tree))
    return files


def room_of(tree, rel):
    if tree == ".":
        return rel.split(os.sep, 1)[0] if os.sep in rel else "."
    return os.path.dirname(rel) or "."


def include_arrows(tree, files, include_dirs):
    """{(from room, to room): [example]} from the #includes of @files."""
    arrows = {}
    root = os.path.join(TOP, tree)
    known = set(files)
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for inc in re.findall(r'^\s*#\s*include\s*["<]([^">]+)[">]', text, re.M):
            for d in (os.path.dirname(rel), *include_dirs):
                cand = os.path.normpath(os.path.join(d, inc))
                if not os.path.isfile(os.path.join(root, cand)):
                    continue
                if cand.startswith(".."):
                    break  # another tree's file: the "." tree sees that arrow
                if cand in known:
                    a, b = room_of(tree, rel), room_of(tree, cand)
                    if a != b:
                        arrows.setdefault((a, b), f"{rel} includes {cand}")
                break
    return arrows


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


def call_graph(tree, objroot, srcs, objs):
    """({file: {file}}, {file: {symbols used}}) from the objects."""
    owner, uses = {}, {}
    for obj in objs:
        rel = os.path.relpath(obj, objroot)[:-2] + ".c"
        name = rel
        for s in srcs:
            if os.path.exists(os.path.join(TOP, tree, s, rel)):
                name = os.path.normpath(os.path.join(s, rel))
                break
        defined, used = symbols(obj)
        uses[name] = used
        for s in defined:
            owner[s] = name
    files = {f: {owner[s] for s in u if s in owner and owner[s] != f}
             for f, u in uses.items()}
    return files, uses


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


def check_tree(rooms, tree, objroot, srcs, objs):
    spec = rooms[tree]
    rank = {r: i for i, (r, _) in enumerate(spec["rooms"])}
    files = tree_files(tree)
    calls, uses = call_graph(tree, objroot, srcs, objs) if objroot else ({}, {})
    arrows = {}
    for f, targets in calls.items():
        for t in sorted(targets):
            a, b = room_of(tree, f), room_of(tree, t)
            if a != b:
                arrows.setdefault((a, b), f"{f} calls {t}")
    for key, why in include_arrows(tree, files, spec["include"]).items():
        arrows.setdefault(key, why)
    graph = {}
    for a, b in arrows:
        graph.setdefault(a, set()).add(b)

    results = []
    found = cycles(calls)
    results.append((not found, "no circle between files",
                    [f"circle: {' <-> '.join(c)}" for c in found]))
    found = cycles(graph)
    results.append((not found, "no circle between rooms",
                    [f"circle: {' <-> '.join(c)}" for c in found]))
    present = {room_of(tree, f) for f in files}
    missing = sorted(present - set(rank))
    stale = sorted(set(rank) - present)
    results.append((not missing and not stale, f"every room of {tree} is on the map",
                    [f"not on the map: {r}" for r in missing] +
                    [f"on the map, not in the tree: {r}" for r in stale]))
    up = [f"{a} -> {b} ({why})" for (a, b), why in sorted(arrows.items())
          if a in rank and b in rank and rank[b] < rank[a]]
    results.append((not up, "no arrow up the map", [f"up: {u}" for u in up]))
    denied = []
    for prefix, syms in spec["deny"]:
        for f, used in sorted(uses.items()):
            room = room_of(tree, f)
            if room == prefix or room.startswith(prefix + "/"):
                denied += [f"{f} calls {s}" for s in sorted(used & syms)]
    if spec["deny"]:
        results.append((not denied, "no denied call", denied))

    print(f"TAP version 13\n1..{len(results)}")
    for n, (ok, what, notes) in enumerate(results, 1):
        print(f"{'' if ok else 'not '}ok {n} {what}")
        for note in notes:
            print(f"# {note}")
    for (a, b), why in sorted(arrows.items()):
        print(f"#   {a} -> {b}  ({why})")
    return 0 if all(ok for ok, _, _ in results) else 1


def render_map(rooms):
    """The map index.rst shows: each tree's rooms, top first."""
    out = [MAP_BEGIN, ""]
    for tree, spec in rooms.items():
        title = "the repository" if tree == "." else f"``{tree}/``"
        out += [f"Rooms of {title}, top first::", ""]
        width = max(len(r) for r, _ in spec["rooms"]) + 2
        for r, text in spec["rooms"]:
            name = r if r == "." else r + "/"
            lines, line = [], ""
            for word in text.split():
                if line and len(line) + 1 + len(word) > 72 - width:
                    lines.append(line)
                    line = word
                else:
                    line = f"{line} {word}".strip()
            lines.append(line)
            out.append(f"    {name:<{width}}{lines[0]}")
            out += [f"    {'':<{width}}{more}" for more in lines[1:]]
        out.append("")
    out.append(MAP_END)
    return "\n".join(out) + "\n"


def check_doc(rooms, page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    want = render_map(rooms)
    begin, end = text.find(MAP_BEGIN), text.find(MAP_END)
    have = text[begin:end + len(MAP_END) + 1] if begin >= 0 and end > begin else ""
    print("TAP version 13\n1..1")
    if have == want:
        print(f"ok 1 {page}'s map is rooms.txt's")
        return 0
    print(f"not ok 1 {page}'s map is rooms.txt's")
    print("# regenerate it: tools/check/layering.py tools/check/rooms.txt --map")
    return 1


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    rooms = read_rooms(args[0])
    if args[1] == "--map":
        sys.stdout.write(render_map(rooms))
        return 0
    if args[1] == "--check-doc":
        return check_doc(rooms, args[2])
    tree, rest, objroot, srcs = args[1], args[2:], None, []
    if tree not in rooms:
        sys.exit(f"layering: no tree [{tree}] in {args[0]}")
    if rest and rest[0] == "--objects":
        objroot, rest = rest[1], rest[2:]
        while rest and rest[0] == "--src":
            srcs.append(rest[1])
            rest = rest[2:]
    return check_tree(rooms, tree, objroot, srcs, rest)


if __name__ == "__main__":
    sys.exit(main())
