#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""DOC: gen-ddi-tables.py - libzex's Level Zero dispatch tables, generated

Reads the loader's DDI headers (<level_zero/{ze,zet,zes}_ddi.h>, Debian 12's
are API 1.4), the entries of API 1.5 to ZEX_API_MINOR that those headers
lack (libzex/src/ddi/entries_after_1_4.txt), and the functions libzex
implements (every `ZE_APIEXPORT ze_result_t ZE_APICALL zeXxx(` definition
under libzex/src/), and writes libzex/src/ddi/ddi_tables.h and .c:

  - ddi_tables.h: each table's layout at API 1.ZEX_API_MINOR, a struct of
    function pointers (libzex/tests/ddi_layout.py compares it with the
    loader's own headers);

  - for every table entry libzex does not implement, a stub with the entry's
    exact prototype that returns ZE_RESULT_ERROR_UNSUPPORTED_FEATURE (the
    loader must never find a NULL entry);
  - one static table per DDI table, each entry the implementation or the stub,
    and the API minor version each entry appeared in, so that a loader of an
    older version (Debian's asks for 1.4) gets only the entries it knows;
  - the zeGet*ProcAddrTable / zetGet*ProcAddrTable / zesGet*ProcAddrTable
    exports the loader calls;
  - the three *_dditable_driver_t containers every handle's DDI header points
    at (their layout is in <zex/zex_ddi.h>).

Usage: gen-ddi-tables.py [--check] [--include DIR] [--out FILE.c]
--check regenerates in memory and fails when a checked-in file differs.
"""

import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "libzex" / "src"
OUT = SRC / "ddi" / "ddi_tables.c"
NEWER = SRC / "ddi" / "entries_after_1_4.txt"
APIS = ("ze", "zet", "zes")
# The API version libzex reports (1.ZEX_API_MINOR) and that of the headers'
# tables: entries up to the first are in the tables, the headers' are 1.4.
ZEX_API_MINOR = 15
HEADER_MINOR = 4

PFN_RE = re.compile(
    r"/// @brief Function-pointer for (\w+)\s*\n"
    r"typedef ze_result_t \(ZE_APICALL \*(\w+)\)\(\s*(.*?)\s*\);", re.S)
TABLE_RE = re.compile(r"typedef struct _(\w+_dditable_t)\s*\{(.*?)\}\s*\1;", re.S)
GETTER_RE = re.compile(
    r"ZE_DLLEXPORT ze_result_t ZE_APICALL\s*(\w+ProcAddrTable)\(\s*"
    r"ze_api_version_t version,[^\n]*\n\s*(\w+_dditable_t)\* pDdiTable")
IMPL_RE = re.compile(r"ZE_APIEXPORT \w+ ZE_APICALL\s*\n?\s*(ze\w+)\(")


def format_changed(path, what):
    sys.exit(f"gen-ddi-tables: {path}: {what}; the header's format is not the one "
             "this script parses (see its regular expressions), so no table is written")


def parse_header(path):
    if not path.exists():
        sys.exit(f"gen-ddi-tables: {path} not found (install libze-dev, or pass --include)")
    text = path.read_text()
    pfns = {}
    for api_name, pfn_type, params in PFN_RE.findall(text):
        types = [" ".join(p.split()) for p in params.split(",") if p.strip()]
        pfns[pfn_type] = (api_name, types)
    tables = []
    containers = {}
    for name, body in TABLE_RE.findall(text):
        fields = re.findall(r"(\w+)\s+(\w+);", body)
        if name.endswith("_dditable_t") and name.count("_") == 2:
            # ze_dditable_t and friends: the container, table type -> field
            containers = {t: f for t, f in fields}
            continue
        tables.append((name, fields))
    getters = {table: getter for getter, table in GETTER_RE.findall(text)}
    if not pfns:
        format_changed(path, "no '/// @brief Function-pointer for' typedef found")
    if not tables or not containers:
        format_changed(path, "no DDI table struct or no *_dditable_t container found")
    for table, fields in tables:
        if not fields:
            format_changed(path, f"{table} has no fields")
        for pfn_type, field in fields:
            if pfn_type not in pfns:
                format_changed(path, f"{table}.{field} has type {pfn_type}, of no typedef found")
        if table not in getters:
            format_changed(path, f"no ProcAddrTable getter takes {table}")
        if table not in containers:
            format_changed(path, f"{table} is in no *_dditable_t container")
    return pfns, tables, containers, getters


def parse_newer(path):
    """The entries after 1.4: {table: (container field, getter) or None, [entries]}."""
    tables, current = {}, None
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        words = line.split()
        if words[0] == "table" and len(words) == 4:
            current = tables[words[1]] = ((words[2], words[3]), [])
        elif words[0] == "extend" and len(words) == 2:
            current = tables[words[1]] = (None, [])
        else:
            m = re.fullmatch(r"\t1\.(\d+)\t(pfn\w+)\t(?:(\w+) )?(\w+)\((.*)\)", line)
            if not m or current is None:
                sys.exit(f"gen-ddi-tables: {where}: not 'table', 'extend' or an entry")
            minor, field, ret, api_name, params = int(m[1]), m[2], m[3], m[4], m[5]
            entries = current[1]
            if entries and minor < entries[-1][0]:
                sys.exit(f"gen-ddi-tables: {where}: {field} is older than the entry before it")
            types = [" ".join(t.split()) for t in params.split(",") if t.strip()]
            entries.append((minor, field, api_name, types, ret or "ze_result_t"))
    return tables


def implemented_functions():
    names = set()
    for path in sorted(SRC.rglob("*.c")):
        if path == OUT:
            continue
        names.update(IMPL_RE.findall(path.read_text()))
    return names


HEAD = (
    "{comment}\n"
    "/*\n * Copyright © 2026 The zex authors\n *\n"
    " * Generated by tools/gen-ddi-tables.py from <level_zero/{{ze,zet,zes}}_ddi.h>,\n"
    " * entries_after_1_4.txt and the functions libzex implements. Do not edit:\n"
    " * run the script.\n */\n\n")


def generate(include):
    impl = implemented_functions()
    newer = parse_newer(NEWER)
    used, stubs_seen, newer_seen = set(), set(), set()
    pfn_c, structs_h, stubs, tables_c, getters_c, drivers_c = [], [], [], [], [], []

    for api in APIS:
        pfns, tables, containers, getters = parse_header(include / f"{api}_ddi.h")
        # Tables of the headers, grown by the newer entries, then the new tables.
        full = []
        for table, fields in tables:
            entries = [(HEADER_MINOR, field, *pfns[pfn_type], pfn_type, "ze_result_t")
                       for pfn_type, field in fields]
            full.append((table, containers[table], getters[table], True, entries))
        for table, (made, entries) in newer.items():
            if not table.startswith(api + "_"):
                continue
            newer_seen.add(table)
            rows = [(minor, field, api_name, types, None, ret)
                    for minor, field, api_name, types, ret in entries if minor <= ZEX_API_MINOR]
            if made is None:
                known = [t for t in full if t[0] == table]
                if not known:
                    sys.exit(f"gen-ddi-tables: 'extend {table}': no such table in {api}_ddi.h")
                have = {e[1] for e in known[0][4]}
                known[0][4].extend(r for r in rows if r[1] not in have)
            elif rows:
                full.append((table, made[0], made[1], False, rows))
        fields_of_driver = []
        for table, container_field, getter, in_header, entries in full:
            var = f"zex_{table[:-2]}"
            struct = f"struct zex_{table[:-2]}"
            members, inits, since = [], [], []
            for minor, field, api_name, types, pfn_type, ret in entries:
                if pfn_type is None:
                    pfn_type = f"zex_pfn_{api_name}_t"
                    pfn_c.append(f"typedef {ret} (ZE_APICALL *{pfn_type})("
                                 f"{', '.join(types) or 'void'});")
                members.append(f"\t{pfn_type} {field};")
                if api_name in impl:
                    target = api_name
                    used.add(api_name)
                else:
                    target = f"zex_unsupported_{api_name}"
                    if target not in stubs_seen:
                        stubs_seen.add(target)
                        args = ", ".join(f"{t} a{i}" for i, t in enumerate(types)) or "void"
                        why = (": the compute engine takes no images or samplers"
                               if re.search(r"Image|Sampler", api_name)
                               else "")
                        why = f"zex does not support {api_name}{why}"
                        # An entry returning a handle says why and returns NULL.
                        body = ("\treturn zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,\n"
                                f"\t\t\t   \"{why}\");\n" if ret == "ze_result_t" else
                                "\tzex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,\n"
                                f"\t\t    \"{why}\");\n\treturn NULL;\n")
                        stubs.append(f"static {ret} ZE_APICALL\n{target}({args})\n"
                                     "{\n" + body + "}\n")
                inits.append(f"\t.{field} = {target},")
                since.append(str(minor))
            structs_h.append(f"/* {table} at API 1.{ZEX_API_MINOR} */\n{struct} {{\n"
                             + "\n".join(members) + "\n};\n")
            tables_c.append(f"static const {struct} {var} = {{\n" + "\n".join(inits) + "\n};\n\n"
                            f"static const uint8_t {var}_since[] = {{ {', '.join(since)} }};\n")
            param = f"{table} *" if in_header else f"{struct} *"
            getters_c.append(
                f"ZE_DLLEXPORT ze_result_t ZE_APICALL\n{getter}(ze_api_version_t version, "
                f"{param}pDdiTable)\n{{\n"
                f"\treturn zex_ddi_fill(version, pDdiTable, &{var}, {var}_since,\n"
                f"\t\t\t    sizeof({var}_since));\n}}\n")
            # The container's fields are not const in the loader's ABI; the
            # tables stay in read-only memory all the same.
            cast = f"({table} *)" if in_header else "(void *)"
            fields_of_driver.append(f"\t.{container_field} = {cast}&{var},")
        drivers_c.append(f"const {api}_dditable_driver_t zex_ddi_{api} = {{\n"
                         "\t.version = ZEX_API_VERSION,\n\t.isValidFlag = 1,\n"
                         + "\n".join(fields_of_driver) + "\n};\n")

    unknown = sorted(set(newer) - newer_seen)
    if unknown:
        sys.exit(f"gen-ddi-tables: {NEWER.name}: tables of no API: {', '.join(unknown)}")
    # zex* are extensions, reached through zeDriverGetExtensionFunctionAddress.
    missing = sorted(n for n in impl - used if not n.startswith("zex"))
    if missing:
        sys.exit(f"gen-ddi-tables: implemented but in no DDI table: {', '.join(missing)}")

    header = (
        HEAD.format(comment="/* SPDX-License-Identifier: MIT */") +
        f"/*\n * DOC: ddi_tables.h - the layout of libzex's DDI tables at API 1.{ZEX_API_MINOR}\n *\n"
        " * One struct per DDI table: the entries of the 1.4 headers' table, then\n"
        " * those of entries_after_1_4.txt up to libzex's API version. The entries\n"
        " * the 1.4 headers lack get a function pointer type here.\n */\n\n"
        "#ifndef ZEX_DDI_TABLES_H\n#define ZEX_DDI_TABLES_H\n\n"
        "#include \"zex/zex_api.h\"\n#include \"zex/zex_ddi.h\"\n#include \"zex/zex_zes_api.h\"\n\n"
        f"#define ZEX_DDI_API_MINOR {ZEX_API_MINOR}\n\n"
        + "\n".join(pfn_c) + "\n\n" + "\n".join(structs_h) + "\n#endif /* ZEX_DDI_TABLES_H */\n")
    source = (
        HEAD.format(comment="// SPDX-License-Identifier: MIT") +
        "/*\n * DOC: ddi_tables.c - every Level Zero DDI table of libzex\n *\n"
        " * One table per DDI table of API 1.%d; entries libzex does not implement\n"
        " * are stubs returning ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, and saying\n"
        " * so to zeDriverGetLastErrorDescription (why, for images and\n"
        " * samplers: the compute engine takes none). The\n"
        " * zeGet*ProcAddrTable exports copy a table out for the loader, as far as\n"
        " * the loader's version knows it; the zex_ddi_{ze,zet,zes} containers are\n"
        " * what every handle's DDI header points at.\n */\n\n" % ZEX_API_MINOR +
        "#include \"ddi.h\"\n#include \"ddi_tables.h\"\n#include \"l0/base/l0.h\"\n\n"
        "_Static_assert(ZEX_API_VERSION == ZE_MAKE_VERSION(1, ZEX_DDI_API_MINOR),\n"
        "\t       \"the tables are those of the version libzex reports\");\n\n"
        "/* The stubs have the entries' prototypes; their parameters go unused. */\n"
        "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n\n")
    source += "\n".join(stubs) + "\n" + "\n".join(tables_c) + "\n" + \
        "\n".join(getters_c) + "\n" + "\n".join(drivers_c)
    return header, source


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--include", type=pathlib.Path,
                    default=pathlib.Path("/usr/include/level_zero"))
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    args = ap.parse_args()
    header, source = generate(args.include)
    outputs = ((args.out.with_suffix(".h"), header), (args.out, source))
    if args.check:
        for path, text in outputs:
            old = path.read_text() if path.exists() else ""
            if old != text:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), str(path), "regenerated"))
                sys.exit(f"gen-ddi-tables: {path} is stale; run tools/gen-ddi-tables.py")
            print(f"gen-ddi-tables: {path.relative_to(ROOT)} is up to date")
        return
    for path, text in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    main()
