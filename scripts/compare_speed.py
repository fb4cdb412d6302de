#!/usr/bin/env python3
"""Are two builds equally fast? Runs the benchmark programs of both, in alternation on one
machine (old, new, old, new, ...), and compares the median CPU time of every benchmark.

  scripts/compare_speed.py OLD_BIN_DIR [NEW_BIN_DIR] [--rounds N] [--bench NAME ...]
  scripts/compare_speed.py --rev GIT_REVISION [NEW_BIN_DIR] ...

With --rev, the revision is checked out in a temporary worktree and its benchmarks built there
(Release; ccache makes it quick when the trees share most files). NEW_BIN_DIR defaults to
build/bin. Alternating the two builds spreads a machine's slow moments over both. CPU time,
not wall time, and the least of the rounds: what another process or a cold cache adds to a
round is never negative, so the fastest round is the closest to the program's own cost.

Prints, per benchmark, the fastest rounds and new/old; per program, the geometric mean of its
benchmarks' ratios. Exit status 1 when a program's mean differs from 1 by more than
--tolerance (default 0.03).
"""
import argparse
import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_BENCHES = ["twin_bench", "e1_bench", "gripper_bench", "dynamics_bench",
                   "signal_chain_bench"]


def build_revision(rev, scratch):
    tree = scratch / "old"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), rev],
                   check=True)
    env = dict(os.environ, CCACHE_BASEDIR=str(tree))
    print(f"building {rev} in {tree} ...", file=sys.stderr)
    subprocess.run(["cmake", "-S", str(tree), "-B", str(tree / "build"), "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DTWINBLOCKS_BUILD_TESTS=OFF",
                    "-DTWINBLOCKS_PYTHON=OFF"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(tree / "build")], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return tree, tree / "build" / "bin"


def run_once(binary, out):
    subprocess.run([str(binary), "--benchmark_format=json", f"--benchmark_out={out}",
                    "--benchmark_out_format=json"], check=True, stdout=subprocess.DEVNULL,
                   cwd=ROOT)
    data = json.loads(pathlib.Path(out).read_text())
    times = {}
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        times[b["name"]] = b["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[
            b.get("time_unit", "ns")]
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", nargs="?", help="the old build's bin directory")
    parser.add_argument("new", nargs="?", default=str(ROOT / "build" / "bin"))
    parser.add_argument("--rev", help="build this git revision as the old one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bench", action="append", help="a benchmark program (repeatable)")
    parser.add_argument("--tolerance", type=float, default=0.03)
    args = parser.parse_args()
    if not args.rev and not args.old:
        parser.error("give OLD_BIN_DIR or --rev GIT_REVISION")
    if args.rev and args.old:
        args.new = args.old
    scratch = pathlib.Path(tempfile.mkdtemp())
    tree = None
    try:
        old_dir = pathlib.Path(args.old) if not args.rev else None
        if args.rev:
            tree, old_dir = build_revision(args.rev, scratch)
        new_dir = pathlib.Path(args.new)
        benches = args.bench or DEFAULT_BENCHES
        worst = 0.0
        for bench in benches:
            samples = {"old": {}, "new": {}}
            for r in range(args.rounds):
                for side, directory in (("old", old_dir), ("new", new_dir)):
                    times = run_once(directory / bench, scratch / f"{bench}_{side}_{r}.json")
                    for name, t in times.items():
                        samples[side].setdefault(name, []).append(t)
            ratios = []
            print(f"{bench}:")
            for name in samples["new"]:
                if name not in samples["old"]:
                    print(f"  {name}: only in the new build")
                    continue
                old_t = min(samples["old"][name])
                new_t = min(samples["new"][name])
                ratios.append(new_t / old_t)
                print(f"  {name:60s} old {old_t * 1e3:10.4f} ms  new {new_t * 1e3:10.4f} ms  "
                      f"new/old {new_t / old_t:.3f}")
            if ratios:
                mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
                worst = max(worst, abs(mean - 1.0))
                print(f"  => {bench}: geometric mean new/old {mean:.3f} over {len(ratios)} "
                      f"benchmarks, {args.rounds} rounds each")
        print(f"largest difference of a program: {worst * 100:.1f} % "
              f"(tolerance {args.tolerance * 100:.0f} %)")
        return 0 if worst <= args.tolerance else 1
    finally:
        if tree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
