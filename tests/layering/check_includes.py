#!/usr/bin/env python3
"""Checks every #include "..." of the project against the layers' order (docs/design.md).

The folders are the pipeline; a file may include its own layer and the layers its row of
ALLOWED names, never one further down the pipeline. Inside physics/, the engines have an order
of their own (PHYSICS_ALLOWED). A project header is one whose first path component is a
layer; system and library headers (<...>) are not checked.

Usage: check_includes.py ROOT [--expect N]
  prints one line per forbidden include; exits 1 if there is any (with --expect N: unless
  there are exactly N, which is how the check is itself tested on a tree that breaks the rule).
"""
import pathlib
import re
import sys

# Each layer, and the layers its files may include besides its own.
ALLOWED = {
    "common": [],
    "solvers": ["common"],
    "physics": ["solvers", "common"],
    "blocks": ["physics", "solvers", "common"],
    "model": ["blocks", "physics", "solvers", "common"],
    "runtime": ["blocks", "physics", "solvers", "common"],
    "compiler": ["model", "runtime", "blocks", "physics", "solvers", "common"],
    "io": ["runtime", "model", "blocks", "physics", "solvers", "common"],
    "xml": ["model", "blocks", "physics", "solvers", "common"],
    "builders": ["model", "blocks", "physics", "solvers", "common"],
    "sweep": ["xml", "io", "compiler", "runtime", "model", "blocks", "physics", "solvers",
              "common"],
    "report": ["io", "runtime", "model", "blocks", "physics", "solvers", "common"],
}
EVERYTHING = list(ALLOWED)
# The command, the Python module and what only uses the libraries may include any layer; the
# tests and the benchmarks share their model fixtures.
for top in ("cli", "python", "examples"):
    ALLOWED[top] = EVERYTHING
ALLOWED["tests"] = EVERYTHING + ["bench"]
ALLOWED["bench"] = EVERYTHING + ["tests"]

# physics/ holds engines that know no blocks; among them, spatial algebra is the base, and
# contact geometry knows nothing of the kinematic tree (so that the tree can hold contacts).
PHYSICS_ALLOWED = {
    "spatial": [],
    "contact": ["spatial"],
    "drivetrain": [],
    "multibody": ["spatial", "contact", "drivetrain"],
    "grasp": ["multibody", "contact", "spatial"],
    "deformable": ["multibody", "contact", "spatial"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = {".h", ".cc", ".cpp", ".hpp"}


def layer_of(path_parts):
    return path_parts[0] if path_parts and path_parts[0] in ALLOWED else None


def forbidden(source_parts, included):
    """The reason `included` may not be included from the file at `source_parts`, or None."""
    target_parts = pathlib.PurePosixPath(included).parts
    target = layer_of(target_parts)
    source = layer_of(source_parts)
    if target is None or source is None:
        return None
    if target != source and target not in ALLOWED[source]:
        return f"layer {source}/ may not include {target}/ (it may use: " \
               f"{', '.join(ALLOWED[source]) or 'nothing else'})"
    if source == target == "physics" and len(source_parts) > 2 and len(target_parts) > 2:
        s, t = source_parts[1], target_parts[1]
        if s in PHYSICS_ALLOWED and t in PHYSICS_ALLOWED and s != t \
                and t not in PHYSICS_ALLOWED[s]:
            return f"physics/{s}/ may not include physics/{t}/ (it may use: " \
                   f"{', '.join(PHYSICS_ALLOWED[s]) or 'nothing else'})"
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
    problems = 0
    checked = 0
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        rel = path.relative_to(root)
        if rel.parts[0].startswith("build") or layer_of(rel.parts) is None:
            continue
        checked += 1
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            reason = forbidden(rel.parts, m.group(1))
            if reason:
                print(f"{rel}:{number}: #include \"{m.group(1)}\": {reason}")
                problems += 1
    print(f"{checked} files checked, {problems} forbidden includes")
    return 0 if problems == expect else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
