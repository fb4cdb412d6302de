#!/usr/bin/env python3
"""Checks every #include "..." of the project against the layers' order of docs/design.md.

The folders are the pipeline; a file may include its own layer and the layers its row of the
table in docs/design.md names ("may use"), never one further down the pipeline. Inside
physics/, the engines have an order of their own (the second table). A project header is one
whose first path component is a layer; system and library headers (<...>) are not checked.
The tables must also match the folders: a library folder without a row, or a row without a
folder, is a failure. ROOT without a docs/design.md (a test tree) is checked against this
repository's.

Usage: check_includes.py ROOT [--expect N]
  prints one line per forbidden include; exits 1 if there is any (with --expect N: unless
  there are exactly N, which is how the check is itself tested on a tree that breaks the rule).
"""
import pathlib
import re
import sys

DESIGN = "docs/design.md"
CELL_NAME = re.compile(r"`([a-z_]+)/`")
CELL_USES = re.compile(r"`([a-z_]+)`")


def read_layer_tables(root):
    """The layer table and the physics engines' table of docs/design.md, as
    {folder: [folders it may use]}: the document and this check cannot disagree."""
    layers, engines = {}, {}
    for line in (root / DESIGN).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or not CELL_NAME.match(cells[0]):
            continue
        names = CELL_NAME.findall(cells[0])
        uses = CELL_USES.findall(cells[-1])
        if len(cells) == 3:
            for name in names:
                layers[name] = "every layer" if cells[-1] == "every layer" else uses
        elif len(cells) == 2:
            for name in names:
                engines[name] = uses
    everything = [name for name, uses in layers.items() if uses != "every layer"]
    for name, uses in layers.items():
        if uses == "every layer":
            layers[name] = everything
    # What only uses the libraries may include any layer; the tests and the benchmarks share
    # their model fixtures.
    for top in ("examples",):
        layers[top] = everything
    layers["tests"] = everything + ["bench"]
    layers["bench"] = everything + ["tests"]
    return layers, engines


def check_table_matches_folders(root, layers, engines):
    """docs/design.md names every library folder, and only folders that exist."""
    problems = []
    libraries = sorted(p.parent.name for p in root.glob("*/CMakeLists.txt")
                       if "twinblocks_layer(" in p.read_text())
    for name in libraries:
        if name not in layers:
            problems.append(f"{DESIGN}: no row for the library folder {name}/")
    for name in layers:
        if not (root / name).is_dir() and name not in ("python", "examples", "tests", "bench"):
            problems.append(f"{DESIGN}: row for {name}/, which is not a folder")
    for path in sorted((root / "physics").glob("*/")):
        if path.is_dir() and path.name not in engines:
            problems.append(f"{DESIGN}: no row for the engine physics/{path.name}/")
    return problems


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = {".h", ".cc", ".cpp", ".hpp"}


def forbidden(source_parts, included, allowed, engines):
    """The reason `included` may not be included from the file at `source_parts`, or None."""
    def layer_of(path_parts):
        return path_parts[0] if path_parts and path_parts[0] in allowed else None

    target_parts = pathlib.PurePosixPath(included).parts
    target = layer_of(target_parts)
    source = layer_of(source_parts)
    if target is None or source is None:
        return None
    if target != source and target not in allowed[source]:
        return f"layer {source}/ may not include {target}/ (it may use: " \
               f"{', '.join(allowed[source]) or 'nothing else'})"
    if source == target == "physics" and len(source_parts) > 2 and len(target_parts) > 2:
        s, t = source_parts[1], target_parts[1]
        if s in engines and t in engines and s != t \
                and t not in engines[s]:
            return f"physics/{s}/ may not include physics/{t}/ (it may use: " \
                   f"{', '.join(engines[s]) or 'nothing else'})"
    return None


def main(argv):
    expect = 0
    if len(argv) == 4 and argv[2] == "--expect" and argv[3].isdigit():
        expect = int(argv[3])
    elif len(argv) != 2:
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    if not root.is_dir():
        print(f"{root}: not a directory", file=sys.stderr)
        return 2
    design_root = root if (root / DESIGN).is_file() else pathlib.Path(__file__).parents[2]
    allowed, engines = read_layer_tables(design_root)
    mismatches = check_table_matches_folders(root, allowed, engines) if design_root == root else []
    for line in mismatches:
        print(line)
    problems = 0
    checked = 0
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        rel = path.relative_to(root)
        if rel.parts[0].startswith("build") or rel.parts[0] not in allowed:
            continue
        checked += 1
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            reason = forbidden(rel.parts, m.group(1), allowed, engines)
            if reason:
                print(f"{rel}:{number}: #include \"{m.group(1)}\": {reason}")
                problems += 1
    print(f"{checked} files checked, {problems} forbidden includes, "
          f"{len(mismatches)} differences between {DESIGN} and the folders")
    return 0 if problems == expect and not mismatches else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
