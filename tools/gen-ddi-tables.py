#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""DOC: gen-ddi-tables.py - libzex's Level Zero dispatch tables, generated

Reads the loader's DDI headers (<level_zero/{ze,zet,zes}_ddi.h>) and the
functions libzex implements (every `ZE_APIEXPORT ze_result_t ZE_APICALL
zeXxx(` definition under libzex/src/), and writes libzex/src/ddi/ddi_tables.c:

  - for every table entry libzex does not implement, a stub with the entry's
    exact prototype that returns ZE_RESULT_ERROR_UNSUPPORTED_FEATURE (the
    loader must never find a NULL entry);
  - one static table per DDI table, each entry the implementation or the stub;
  - the zeGet*ProcAddrTable / zetGet*ProcAddrTable / zesGet*ProcAddrTable
    exports the loader calls;
  - the three *_dditable_driver_t containers every handle's DDI header points
    at (their layout is in <zex/zex_ddi.h>).

Usage: gen-ddi-tables.py [--check] [--include DIR] [--out FILE]
--check regenerates in memory and fails when the checked-in file differs.
"""

import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "libzex" / "src"
OUT = SRC / "ddi" / "ddi_tables.c"
APIS = ("ze", "zet", "zes")

PFN_RE = re.compile(
    r"/// @brief Function-pointer for (\w+)\s*\n"
    r"typedef ze_result_t \(ZE_APICALL \*(\w+)\)\(\s*(.*?)\s*\);", re.S)
TABLE_RE = re.compile(r"typedef struct _(\w+_dditable_t)\s*\{(.*?)\}\s*\1;", re.S)
GETTER_RE = re.compile(
    r"ZE_DLLEXPORT ze_result_t ZE_APICALL\s*(\w+ProcAddrTable)\(\s*"
    r"ze_api_version_t version,[^\n]*\n\s*(\w+_dditable_t)\* pDdiTable")
IMPL_RE = re.compile(r"ZE_APIEXPORT ze_result_t ZE_APICALL\s*\n?\s*(ze\w+)\(")


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


def implemented_functions():
    names = set()
    for path in sorted(SRC.rglob("*.c")):
        if path == OUT:
            continue
        names.update(IMPL_RE.findall(path.read_text()))
    return names


def generate(include):
    impl = implemented_functions()
    used, stubs_seen = set(), set()
    stubs, tables_c, getters_c, drivers_c = [], [], [], []

    for api in APIS:
        pfns, tables, containers, getters = parse_header(include / f"{api}_ddi.h")
        fields_of_driver = []
        for table, fields in tables:
            var = f"zex_{table[:-2]}"
            entries = []
            for pfn_type, field in fields:
                api_name, types = pfns[pfn_type]
                if api_name in impl:
                    target = api_name
                    used.add(api_name)
                else:
                    target = f"zex_unsupported_{api_name}"
                    if target not in stubs_seen:
                        stubs_seen.add(target)
                        args = ", ".join(f"{t} a{i}" for i, t in enumerate(types)) or "void"
                        stubs.append(f"static ze_result_t ZE_APICALL\n{target}({args})\n"
                                     "{\n\treturn ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;\n}\n")
                entries.append(f"\t.{field} = {target},")
            tables_c.append(f"static const {table} {var} = {{\n" + "\n".join(entries) + "\n};\n")
            getters_c.append(
                f"ZE_DLLEXPORT ze_result_t ZE_APICALL\n{getters[table]}(ze_api_version_t version, "
                f"{table} *pDdiTable)\n{{\n"
                f"\treturn zex_ddi_fill(version, pDdiTable, &{var}, sizeof({var}));\n}}\n")
            # The container's fields are not const in the loader's ABI; the
            # tables stay in read-only memory all the same.
            fields_of_driver.append(f"\t.{containers[table]} = ({table} *)&{var},")
        drivers_c.append(f"const {api}_dditable_driver_t zex_ddi_{api} = {{\n"
                         "\t.version = ZEX_API_VERSION,\n\t.isValidFlag = 1,\n"
                         + "\n".join(fields_of_driver) + "\n};\n")

    # zex* are extensions, reached through zeDriverGetExtensionFunctionAddress.
    missing = sorted(n for n in impl - used if not n.startswith("zex"))
    if missing:
        sys.exit(f"gen-ddi-tables: implemented but in no DDI table: {', '.join(missing)}")

    head = (
        "// SPDX-License-Identifier: MIT\n"
        "/*\n * Copyright © 2026 The zex authors\n *\n"
        " * Generated by tools/gen-ddi-tables.py from <level_zero/{ze,zet,zes}_ddi.h>\n"
        " * and the functions libzex implements. Do not edit: run the script.\n */\n\n"
        "/*\n * DOC: ddi_tables.c - every Level Zero DDI table of libzex\n *\n"
        " * One table per DDI table of the loader's headers; entries libzex does not\n"
        " * implement are stubs returning ZE_RESULT_ERROR_UNSUPPORTED_FEATURE. The\n"
        " * zeGet*ProcAddrTable exports copy a table out for the loader; the\n"
        " * zex_ddi_{ze,zet,zes} containers are what every handle's DDI header\n"
        " * points at.\n */\n\n"
        "#include \"ddi.h\"\n\n"
        "/* The stubs have the entries' prototypes; their parameters go unused. */\n"
        "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n\n")
    return head + "\n".join(stubs) + "\n" + "\n".join(tables_c) + "\n" + \
        "\n".join(getters_c) + "\n" + "\n".join(drivers_c)



def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--include", type=pathlib.Path,
                    default=pathlib.Path("/usr/include/level_zero"))
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    args = ap.parse_args()
    text = generate(args.include)
    if args.check:
        old = args.out.read_text() if args.out.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), str(args.out), "regenerated"))
            sys.exit(f"gen-ddi-tables: {args.out} is stale; run tools/gen-ddi-tables.py")
        print(f"gen-ddi-tables: {args.out.relative_to(ROOT)} is up to date")
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)


if __name__ == "__main__":
    main()
