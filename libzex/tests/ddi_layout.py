#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""DOC: ddi_layout.py - libzex's DDI layout against the real loader's headers

Usage: ddi_layout.py LOADER_PREFIX LOADER_SOURCE BUILD_DIR

LOADER_PREFIX is an installed Level Zero loader (include/level_zero/*_ddi.h,
from tools/check/l0-loader.sh), LOADER_SOURCE its source tree (the loader's
zeGet*ProcAddrTable functions say in which API version each entry came).
Compiles two probes, one against the loader's headers and one against
libzex's (ddi_tables.h, <zex/zex_ddi.h>, <zex/zex_api.h> on Debian's 1.4
headers), each printing the offset of every field it knows, and checks, as
TAP:

  - every table of libzex is the loader's table cut after API 1.15: the same
    fields in the same order at the same offsets, and the first field libzex
    lacks is newer than 1.15 (so is every entry of a table it lacks);
  - the three *_dditable_driver_t containers and ze_handle_t: every field at
    the loader's offset, none missing;
  - the newer public types and values libzex defines for 1.4 builds.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
API_MINOR = 15
APIS = ("ze", "zet", "zes")
PUBLIC_TYPES = {
    "ze_init_driver_type_desc_t": ("stype", "pNext", "flags"),
    "ze_driver_ddi_handles_ext_properties_t": ("stype", "pNext", "flags"),
    "ze_external_memmap_sysmem_ext_desc_t": ("stype", "pNext", "pSystemMemory", "size"),
    "ze_group_size_t": ("groupSizeX", "groupSizeY", "groupSizeZ"),
    "ze_event_counter_based_desc_t": ("stype", "pNext", "flags", "signal", "wait"),
    "ze_ipc_mem_handle_type_ext_desc_t": ("stype", "pNext", "typeFlags"),
    "ze_physical_mem_properties_t": ("stype", "pNext", "id", "size"),
    "ze_event_pool_counter_based_exp_desc_t": ("stype", "pNext", "flags"),
}
PUBLIC_VALUES = (
    "ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC", "ZE_INIT_DRIVER_TYPE_FLAG_GPU",
    "ZE_INIT_DRIVER_TYPE_FLAG_NPU", "ZE_STRUCTURE_TYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES",
    "ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED",
    "ZE_DRIVER_DDI_HANDLES_EXT_VERSION_1_0",
    "ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC", "ZE_MEMORY_TYPE_HOST_IMPORTED",
    "ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY",
    "ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC", "ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC",
    "ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES", "ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE",
    "ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE", "ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE",
    "ZE_EVENT_COUNTER_BASED_FLAG_IPC", "ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP",
    "ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP", "ZE_EVENT_COUNTER_BASED_FLAG_GRAPH_EXTERNAL",
    "ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT", "ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE",
    "ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC",
    "ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_IMMEDIATE",
    "ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_NON_IMMEDIATE",
    "ZE_EVENT_POOL_COUNTER_BASED_EXP_VERSION_1_0",
)


def struct_fields(text, name):
    m = re.search(r"typedef struct _%s\s*\{(.*?)\}\s*%s;" % (name, name), text, re.S)
    return re.findall(r"(\w+)\s*\*?\s*(\w+);", m.group(1)) if m else None


def loader_tables(include):
    tables, containers = {}, {}
    for api in APIS:
        text = (include / f"{api}_ddi.h").read_text()
        for name, body in re.findall(r"typedef struct _(\w+_dditable_t)\s*\{(.*?)\}\s*\1;", text, re.S):
            if name.count("_") == 2:
                continue
            tables[name] = [f for _, f in re.findall(r"(\w+)\s+(\w+);", body)]
        containers[f"{api}_dditable_driver_t"] = [
            f for _, f in struct_fields(text, f"{api}_dditable_driver_t")]
    return tables, containers


def loader_versions(source):
    """(table, field) -> the API minor version the loader fills it from."""
    versions = {}
    for api in APIS:
        text = (source / "source" / "loader" / f"{api}_ldrddi.cpp").read_text()
        for m in re.finditer(r"ProcAddrTable\(\s*ze_api_version_t version,[^\n]*\n\s*"
                             r"(\w+_dditable_t)\* pDdiTable(.*?)\n\}", text, re.S):
            for minor, field in re.findall(r"if \(version >= ZE_API_VERSION_1_(\d+)\) \{\s*"
                                           r"pDdiTable->(\w+)\s*=", m.group(2)):
                versions.setdefault((m.group(1), field), int(minor))
    return versions


def libzex_tables():
    text = (ROOT / "libzex" / "src" / "ddi" / "ddi_tables.h").read_text()
    tables = {}
    for name, body in re.findall(r"struct zex_(\w+_dditable) \{(.*?)\};", text, re.S):
        tables[name + "_t"] = [f for _, f in re.findall(r"(\w+) (\w+);", body)]
    return tables


def probe(cc_args, lines, workdir, name):
    src = workdir / f"{name}.c"
    exe = workdir / name
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n" + lines[0] +
                   "\nint main(void)\n{\n" + "\n".join(lines[1:]) + "\n\treturn 0;\n}\n")
    subprocess.run(["cc", "-std=c11", "-w", *cc_args, str(src), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return dict(line.rsplit(" ", 1) for line in out.splitlines())


def offsets(kind, ctype, fields):
    return [f'\tprintf("{kind} {ctype}.{f} %zu\\n", offsetof({ctype}, {f}));' for f in fields]


def main():
    prefix, source, _build = map(pathlib.Path, sys.argv[1:4])
    include = prefix / "include" / "level_zero"
    tables, containers = loader_tables(include)
    versions = loader_versions(source)
    ours = libzex_tables()
    results = []

    def check(ok, what, why=""):
        results.append((ok, what, why))

    loader_lines = ["#include <ze_api.h>\n#include <ze_ddi.h>\n#include <zet_ddi.h>\n"
                    "#include <zes_ddi.h>\n#include <zer_ddi.h>\n#include <ze_ddi_common.h>"]
    zex_lines = ['#include "ddi/ddi_tables.h"']
    for table, fields in ours.items():
        loader_lines += offsets("t", table, [f for f in fields if f in tables.get(table, [])])
        zex_lines += offsets("t", f"struct zex_{table[:-2]}", fields)
        zex_lines.append(f'\tprintf("size {table} %zu\\n", sizeof(struct zex_{table[:-2]}));')
    ddi_h = (ROOT / "libzex" / "include" / "zex" / "zex_ddi.h").read_text()
    our_containers = {c: [f for _, f in struct_fields(ddi_h, c) or []] for c in containers}
    for container, fields in containers.items():
        loader_lines += offsets("c", container, fields)
        zex_lines += offsets("c", container, our_containers[container])
    for ctype, fields in list(PUBLIC_TYPES.items()) + [("ze_handle_t", ("pCore", "pTools", "pSysman"))]:
        loader_lines += offsets("p", ctype, fields)
        zex_lines += offsets("p", ctype, fields)
    for value in PUBLIC_VALUES:
        for lines in (loader_lines, zex_lines):
            lines.append(f'\tprintf("v {value} %lld\\n", (long long){value});')

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        theirs = probe([f"-I{include}"], loader_lines, tmp, "loader")
        mine = probe([f"-I{ROOT / 'libzex' / 'include'}", f"-I{ROOT / 'libzex' / 'src'}",
                      "-I/usr/include/level_zero"], zex_lines, tmp, "libzex")

    for table, fields in sorted(tables.items()):
        have = ours.get(table, [])
        if have != fields[:len(have)]:
            check(False, f"{table}: libzex's fields are the loader's, in order",
                  f"libzex {have}, loader {fields[:len(have)]}")
            continue
        bad = [f for f in have
               if mine[f"t struct zex_{table[:-2]}.{f}"] != theirs.get(f"t {table}.{f}")]
        check(not bad, f"{table}: every field at the loader's offset", f"differ: {bad}")
        if have:
            check(int(mine[f"size {table}"]) == 8 * len(have),
                  f"{table}: no padding or extra field", mine[f"size {table}"])
        lacking = fields[len(have):]
        early = [f for f in lacking if versions.get((table, f), 99) <= API_MINOR]
        check(not early, f"{table}: every entry of API 1.{API_MINOR} present ({len(have)} of "
              f"{len(fields)})", f"missing: {early}")
    for table in sorted(set(ours) - set(tables)):
        check(False, f"{table}: a table of the loader", "the loader has no such table")
    for container, fields in containers.items():
        bad = [f for f in fields if mine.get(f"c {container}.{f}") != theirs[f"c {container}.{f}"]]
        bad += [f for f in our_containers[container] if f not in fields]
        check(not bad, f"{container}: {len(fields)} fields at the loader's offsets",
              f"differ: {bad}")
    for key in sorted(k for k in theirs if k[0] in "pv"):
        check(mine.get(key) == theirs[key], f"public {key[2:]} as the loader's headers",
              f"libzex {mine.get(key)}, loader {theirs[key]}")

    print("TAP version 13")
    print(f"1..{len(results)}")
    for i, (ok, what, why) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {what}")
        if not ok:
            print(f"#   {why}")
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
