#!/usr/bin/env python3
"""Bad input never crashes: runs mutated copies of the project's own models.

Each case takes one model of examples/, models/ or tests/data/, changes one to three things in
it (an attribute set to an odd value, a number scaled to an edge, an attribute or element
removed or repeated, a connection pointed elsewhere), and runs it with `twinblocks run` for a
short horizon. The command must answer as it promises (docs/cli.md):

- exit 0 (the mutant is still a model), 2 (bad input) or 3 (the simulation failed);
- bad input is one line that starts with a file and line ("mutant.xml:12: ...", or the line
  of an included library where the failing block is written);
- nothing the sanitizers report, when the command is built with them.

A run that exceeds its time limit is reported but does not fail the test: a mutant may ask for
a legitimately long run (a step of 1e-9 s, a crank at 1e9 rad/s).

The cases are drawn from a fixed seed, so a failure repeats; the mutant that failed is kept
beside the report. Usage:

    mutate_models.py TWINBLOCKS SOURCE_DIR WORK_DIR [--cases N] [--seed S]
"""
import argparse
import copy
import os
import random
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

# Values a careless edit or a generated model may hold.
ODD_VALUES = [
    "", "-1", "0", "-0", "0.5", "1", "2", "10", "1e6", "1e9", "1e308", "-1e308", "1e400",
    "1e-320", "-1e-9", "2147483648", "-2147483649", "nan", "inf", "-inf", "1/0", "0/0",
    "sqrt(-1)", "x(", "abc", "pi", "true", "none", "box", "sphere", "mesh", "\u00e9", "  ",
    "1 2", "[]", "[1 2 3]", "[1,2,3]", "[1 2; 3 4]", "[0 0 0]", "[0 0 0 0]", "[1 0 0 0]",
    "[nan nan nan]", "[1e308 1e308 1e308]", "auto", "on", "off", "perturbation", "blocks",
]
# Factors that move a number to an edge while keeping the model readable.
EDGE_FACTORS = ["0", "-1", "1e-9", "1e-3", "1e3", "1e9", "-1e3", "1e30"]
# Attributes a block might be given by mistake.
STRAY_ATTRIBUTES = ["x0", "k", "value", "Ts", "n", "width", "lower", "upper", "mu_s",
                    "stiffness", "period", "axis", "radius", "commented", "abs_tol",
                    "abs_tol_dx", "fixed_step_zero_crossings", "jacobian_method"]
# Simulation settings a scaled number may not touch: the run's horizon is the harness's.
HORIZON = {"t_end", "t_start", "format"}
# Attributes that name things rather than hold values.
NAMES = {"name", "type", "from", "to", "signal", "as", "file", "tag", "ref", "source", "path"}


class Mutator:
    KINDS = ["odd", "odd", "edge", "edge", "edge", "drop_attribute", "drop_element",
             "repeat_element", "rewire", "stray"]

    def __init__(self, rng, kinds=None):
        self.rng = rng
        self.kinds = kinds or self.KINDS

    def mutate(self, root):
        """Applies one mutation to the tree; returns what it did."""
        return getattr(self, self.rng.choice(self.kinds))(root)

    def odd(self, root):
        e = self.rng.choice([e for e in root.iter() if e.attrib] or [root])
        if not e.attrib:
            return "nothing"
        name = self.rng.choice(sorted(e.attrib))
        e.set(name, self.rng.choice(ODD_VALUES))
        return f"<{e.tag} {e.get('name', '')}> {name}={e.get(name)!r}"

    def edge(self, root):
        # Values, not names: a number, a vector or matrix, or an expression of variables.
        numeric = [(e, k) for e in root.iter() for k, v in sorted(e.attrib.items())
                   if re.search(r"\d", v) and k not in HORIZON and k not in NAMES
                   and re.fullmatch(r"[-+*/^()\[\],;.\w\s]+", v) and "." not in v.strip("0123456789.eE+-")]
        if not numeric:
            return "nothing"
        e, name = self.rng.choice(numeric)
        factor = self.rng.choice(EDGE_FACTORS)
        e.set(name, f"({e.get(name)}) * {factor}")
        return f"<{e.tag} {e.get('name', '')}> {name} *= {factor}"

    def drop_attribute(self, root):
        e = self.rng.choice([e for e in root.iter() if e.attrib] or [root])
        if not e.attrib:
            return "nothing"
        name = self.rng.choice(sorted(e.attrib))
        del e.attrib[name]
        return f"<{e.tag} {e.get('name', '')}> without {name}"

    def _child(self, root):
        parents = [p for p in root.iter() if len(p)]
        if not parents:
            return None, None
        parent = self.rng.choice(parents)
        return parent, self.rng.choice(list(parent))

    def drop_element(self, root):
        parent, child = self._child(root)
        if parent is None:
            return "nothing"
        parent.remove(child)
        return f"without <{child.tag} {child.get('name', '')}>"

    def repeat_element(self, root):
        parent, child = self._child(root)
        if parent is None:
            return "nothing"
        parent.append(copy.deepcopy(child))
        return f"<{child.tag} {child.get('name', '')}> twice"

    def rewire(self, root):
        connects = [e for e in root.iter() if e.tag == "connect"]
        if not connects:
            return "nothing"
        c = self.rng.choice(connects)
        end = self.rng.choice(["from", "to"])
        old = c.get(end, "")
        other = self.rng.choice(connects).get(self.rng.choice(["from", "to"]), "")
        c.set(end, self.rng.choice([other, old + "x", old.split(".")[0], "." + old,
                                    old + ".q", ""]))
        return f"connect {end}={c.get(end)!r} (was {old!r})"

    def stray(self, root):
        e = self.rng.choice(list(root.iter()))
        name = self.rng.choice(STRAY_ATTRIBUTES)
        e.set(name, self.rng.choice(ODD_VALUES))
        return f"<{e.tag} {e.get('name', '')}> {name}={e.get(name)!r}"


def seed_models(tree):
    """Every model the project ships, as paths relative to `tree`."""
    found = []
    for top in ("examples", "models", os.path.join("tests", "data")):
        for folder, _, files in os.walk(os.path.join(tree, top)):
            for f in sorted(files):
                path = os.path.relpath(os.path.join(folder, f), tree)
                # Libraries are not run on their own; the density sweep is G2 five times.
                if f.endswith(".xml") and "lib" not in path.split(os.sep)[:2] and \
                        not f.startswith("g3_") and well_formed(os.path.join(tree, path)):
                    found.append(path)
    return sorted(found)


def well_formed(path):
    """False for the test data that is malformed on purpose (its mutants would all be)."""
    try:
        ET.parse(path)
        return True
    except ET.ParseError:
        return False


def judge(status, stderr):
    """What is wrong with the command's answer, or None."""
    if "Sanitizer" in stderr or "runtime error:" in stderr:
        return "sanitizer report"
    if status not in (0, 2, 3):
        return f"exit status {status}"
    if status == 2:
        text = stderr.rstrip("\n")
        if "\n" in text:
            return "bad input in more than one line"
        # The mutant's own line, or the line in a library it includes where the block that
        # fails is written (the message then names the block's path in the mutant).
        if not re.match(r"\S+\.xml:\d+: ", text):
            return "bad input without the file and line"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("twinblocks")
    parser.add_argument("source_dir")
    parser.add_argument("work_dir")
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", choices=sorted(set(Mutator.KINDS)),
                        help="one kind of mutation (edge: values at their edges, so that most "
                             "mutants still run and the numerics' failures are what is tested)")
    args = parser.parse_args()

    # The models read libraries, meshes and data beside them: mutants are written into a copy
    # of the three folders, so that relative paths resolve and the sources stay untouched.
    tree = os.path.join(args.work_dir, "tree")
    shutil.rmtree(args.work_dir, ignore_errors=True)
    for top in ("examples", "models", os.path.join("tests", "data")):
        shutil.copytree(os.path.join(args.source_dir, top), os.path.join(tree, top))
    seeds = seed_models(tree)
    rng = random.Random(args.seed)
    mutator = Mutator(rng, [args.only] if args.only else None)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    failures, slow, outcomes = [], [], {}
    for case in range(args.cases):
        source = rng.choice(seeds)
        root = ET.parse(os.path.join(tree, source)).getroot()
        what = [mutator.mutate(root) for _ in range(rng.choice([1, 1, 2, 3]))]
        mutant = os.path.join(os.path.dirname(os.path.join(tree, source)), "mutant.xml")
        ET.ElementTree(root).write(mutant, encoding="unicode")
        command = [args.twinblocks, "run", mutant, "--t-end", "0.02", "--quiet", "--no-plots",
                   "-o", os.path.join(args.work_dir, "results.csv")]
        label = f"case {case}: {source}: {'; '.join(what)}"
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout,
                                 env=env)
        except subprocess.TimeoutExpired:
            slow.append(label)
            continue
        outcomes[run.returncode] = outcomes.get(run.returncode, 0) + 1
        problem = judge(run.returncode, run.stderr)
        if problem:
            kept = os.path.join(args.work_dir, f"failed_case{case}.xml")
            shutil.copy(mutant, kept)
            failures.append(f"{label}\n  {problem} (mutant kept as {kept}):\n  "
                            + run.stderr.strip().replace("\n", "\n  ")[:2000])
        os.remove(mutant)
    print(f"{args.cases} mutants (seed {args.seed}{', ' + args.only + ' only' if args.only else ''}): exit statuses "
          + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
          + f"; {len(slow)} over {args.timeout:g} s")
    for s in slow:
        print("over the time limit (not a failure):", s)
    for f in failures:
        print("FAILED", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
