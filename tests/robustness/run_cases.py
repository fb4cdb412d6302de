#!/usr/bin/python3
"""Adversarial-input cases for `twinblocks`: each one a hostile file or command line.

A case (cases/*.toml, one `[[case]]` each) gets a fresh working directory holding the files
it needs (text, bytes, giants from generators.py, sparse files, symlinks, FIFOs), runs one
`twinblocks` command (`args`) or one Python script (`python`) there, and checks what must
happen: the exit status; for bad input (2) and a failed write (4), exactly one readable line
on stderr (valid UTF-8, no raw control characters); what stderr says (`says`), what the output
must not say (`not_says`, `not_matches`), files that must (not) exist after it, CSVs cut only
at row boundaries, and nothing created outside the working directory.

The failures looked for are the program taking 40 GB, hanging on a FIFO, or recursing off its
stack, so every case runs in its own process group under a wall-time limit and a resident-
memory limit, and one that is killed for either, or dies of a signal, fails. Memory is polled
from /proc (VmRSS, and VmHWM for the peak) rather than capped with RLIMIT_AS, which the
sanitizer build (it reserves terabytes of address space) could not run under.

Usage: run_cases.py --cli build/bin/twinblocks [--python-path build/python] [--class NAME ...]
                    [--only-files] [--time-limit 2] [--memory-limit-mib 256] [--list]
                    [--verbose] cases/*.toml
"""
import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib

from generators import GENERATORS  # generators.py: nested_urdf, nested_defines, ...

CLASSES = ["sizes", "readers", "reinterpretation", "writes", "failed_writes", "failures",
           "fromfile", "urdf", "one_line"]
# Bad input (2) and a failed write (4) are one line on stderr, by the program's contract.
ONE_LINE_STATUSES = (2, 4)
# Classes whose command-line cases only read input: the ones worth the sanitizer build's time.
SANITIZED_CLASSES = {"sizes", "readers", "reinterpretation", "writes", "urdf", "one_line"}
KEYS = {"name", "class", "doc", "files", "binary_files", "generate", "symlinks", "fifos", "dirs",
        "args", "python", "status", "says", "not_says", "not_matches", "stdout_says", "after",
        "no_files_outside", "fsize_limit", "sanitize", "max_stderr_chars"}


# ---- reading and setting up cases -----------------------------------------------------------

def load_cases(paths):
    cases, seen = [], set()
    for path in paths:
        try:
            with open(path, "rb") as f:
                loaded = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            sys.exit(f"{path}: {e}")
        for case in loaded.get("case", []):
            where = f"{path}: case {case.get('name', '?')}"
            if set(case) - KEYS:
                sys.exit(f"{where}: unknown keys {sorted(set(case) - KEYS)}")
            if case.get("class") not in CLASSES:
                sys.exit(f"{where}: class must be one of {CLASSES}")
            if ("args" in case) == ("python" in case):
                sys.exit(f"{where}: give exactly one of args and python")
            if case["name"] in seen:
                sys.exit(f"{where}: the name is taken")
            seen.add(case["name"])
            case.setdefault("status", 2 if "args" in case else 0)
            case.setdefault("sanitize", "args" in case and case["class"] in SANITIZED_CLASSES)
            cases.append(case)
    return cases


def fill(text, dirs):
    """{dir} is the working directory, {sandbox} the one above it: a case names an absolute path
    outside the working directory that the no_files_outside check still sees."""
    return text.replace("{dir}", dirs["dir"]).replace("{sandbox}", dirs["sandbox"])


def set_up(case, work, dirs):
    def target(name):
        path = os.path.join(work, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path
    for d in case.get("dirs", []):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    for name, text in case.get("files", {}).items():
        with open(target(name), "w", encoding="utf-8", newline="") as f:
            f.write(fill(text, dirs))
    for name, hexdata in case.get("binary_files", {}).items():
        with open(target(name), "wb") as f:
            f.write(bytes.fromhex(hexdata))
    for name, spec in case.get("generate", {}).items():
        with open(target(name), "w", encoding="utf-8") as f:
            if spec["fn"] == "sparse_file":  # its size, in no disk space
                f.truncate(*spec["args"])
            else:
                f.write(GENERATORS[spec["fn"]](*spec.get("args", [])))
    for name, link_target in case.get("symlinks", {}).items():
        os.symlink(fill(link_target, dirs), target(name))
    for name in case.get("fifos", []):
        os.mkfifo(target(name))


# ---- running one ----------------------------------------------------------------------------

def drain(pipe, into, keep=1 << 20):
    """Reads a pipe to its end, keeping the first `keep` bytes: a runaway writer is drained."""
    while chunk := pipe.read1(65536):
        into += chunk[:max(0, keep - len(into))]


def memory_mib(pid):
    """(resident, peak resident since exec) of a process, MiB; zeros once it has gone."""
    found = {"VmRSS:": 0.0, "VmHWM:": 0.0}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line[:6] in found:
                    found[line[:6]] = int(line.split()[1]) / 1024.0
    except (OSError, ValueError):
        pass
    return found["VmRSS:"], found["VmHWM:"]


def descendants(pid):
    """Children, grandchildren ...: a Python case's memory includes the programs it starts."""
    found, todo = [], [pid]
    while todo:
        try:
            p = todo.pop()
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(k) for k in f.read().split()]
                found, todo = found + kids, todo + kids
        except OSError:
            pass
    return found


def run_case(case, opts):
    """Runs one case: (failure or None, seconds, peak MiB, stdout, stderr)."""
    outer = tempfile.mkdtemp(prefix="tb-robust-")
    sandbox = os.path.join(outer, "sandbox")
    work = os.path.join(sandbox, "work")
    os.makedirs(work)
    dirs = {"dir": work, "sandbox": sandbox}
    try:
        set_up(case, work, dirs)
        after = [dict(a, path=fill(a["path"], dirs)) for a in case.get("after", [])]
        # An absolute path that must not appear, there before the run, is no fault of this run.
        for a in after:
            if os.path.isabs(a["path"]) and not a.get("exists", True) and \
                    os.path.lexists(a["path"]):
                return f"{a['path']} exists before the run: remove it", 0.0, 0.0, "", ""
        if "args" in case:
            argv = [opts.cli] + [fill(a, dirs) for a in case["args"]]
        else:
            argv = ["/usr/bin/python3", "-c", fill(case["python"], dirs)]
        env = dict(os.environ, TWINBLOCKS_CLI=opts.cli)  # ASAN_OPTIONS: the caller's
        if opts.python_path:
            env["PYTHONPATH"] = opts.python_path
        fsize = case.get("fsize_limit")

        def child_setup():
            if fsize is not None:  # a disk that fills up: writes past it fail with EFBIG
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

        start = time.monotonic()
        try:  # pipes, not files, which would fall under RLIMIT_FSIZE too
            proc = subprocess.Popen(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True, preexec_fn=child_setup)
        except OSError as e:
            return f"cannot start {argv[0]}: {e.strerror}", 0.0, 0.0, "", ""
        out, err = bytearray(), bytearray()
        readers = [threading.Thread(target=drain, args=a, daemon=True)
                   for a in ((proc.stdout, out), (proc.stderr, err))]
        for r in readers:
            r.start()
        killed, peak, polls = None, 0.0, 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            polls += 1
            rss, hwm = memory_mib(proc.pid)
            if "python" in case and polls % 10 == 0:  # the programs it starts, less often
                kids = [memory_mib(k) for k in descendants(proc.pid)]
                rss += sum(k[0] for k in kids)
                hwm = max([hwm + sum(k[0] for k in kids)] + [k[1] for k in kids])
            peak = max(peak, rss, hwm)
            if rss > opts.memory_limit_mib:
                killed = f"over the memory limit ({rss:.0f} MiB)"
            elif time.monotonic() - start > opts.time_limit:
                killed = f"over the time limit ({opts.time_limit:g} s)"
            if killed:
                os.killpg(proc.pid, signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        seconds = time.monotonic() - start
        # ru_maxrss counts the harness's own peak too (inherited over fork and exec): it is the
        # child's only when larger than that.
        if usage.ru_maxrss / 1024.0 > memory_mib(os.getpid())[1]:
            peak = max(peak, usage.ru_maxrss / 1024.0)
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever the case left running
        except ProcessLookupError:
            pass
        for r in readers:
            r.join(timeout=5)
        proc.stdout.close()
        proc.stderr.close()
        stdout, stderr = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        if not killed and peak > opts.memory_limit_mib:
            killed = f"over the memory limit (peak {peak:.0f} MiB)"
        if not killed and os.WIFSIGNALED(status):
            killed = f"crashed: {signal.Signals(os.WTERMSIG(status)).name}"
        why = killed or check(case, os.WEXITSTATUS(status), stdout, stderr, bytes(err), work,
                              outer, after)
        return why, seconds, peak, stdout, stderr
    finally:
        shutil.rmtree(outer, ignore_errors=True)


def check(case, status, stdout, stderr, raw_stderr, work, outer, after):
    """The first thing that should hold after the run and does not, or None."""
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", stderr):
        return "sanitizer report"
    if status != case["status"]:
        return f"exit status {status}, expected {case['status']}"
    if status in ONE_LINE_STATUSES and "args" in case:
        lines = stderr.split("\n")
        if len(lines) != 2 or not lines[0].strip() or lines[1]:
            return f"stderr is {len(stderr.splitlines())} lines, expected exactly one"
        try:
            raw_stderr.decode("utf-8")
        except UnicodeDecodeError:
            return "stderr is not valid UTF-8"
        # A control character from a file (a CR, an escape that clears the screen) is shown
        # escaped, never passed to the terminal.
        if control := re.search(r"[\x00-\x08\x0b-\x1f\x7f]", lines[0]):
            return f"stderr holds the control character {control.group(0)!r}"
    for s in case.get("says", []):
        if s not in stderr:
            return f"stderr does not say {s!r}"
    for s in case.get("stdout_says", []):
        if s not in stdout:
            return f"stdout does not say {s!r}"
    for s in case.get("not_says", []):
        if s in stdout or s in stderr:
            return f"the output says {s!r}"
    for pattern in case.get("not_matches", []):
        if found := re.search(pattern, stdout + stderr):
            return f"the output has {found.group(0)!r} (matches {pattern!r})"
    if len(stderr) > case.get("max_stderr_chars", float("inf")):
        return f"stderr is {len(stderr)} characters, more than {case['max_stderr_chars']}"
    for a in after:
        path = os.path.join(work, a["path"])
        if "exists" in a and os.path.lexists(path) != a["exists"]:
            return f"{a['path']} {'is missing' if a['exists'] else 'was created'}"
        if a.get("csv_rows_complete") and not csv_rows_complete(path):
            return f"{a['path']} ends in a partial row"
        if "last_time" in a and last_time(path) != a["last_time"]:
            return f"{a['path']} ends at t = {last_time(path)!r}, expected {a['last_time']!r}"
    if case.get("no_files_outside"):
        # The working directory is outer/sandbox/work: a ../ or an absolute path into the
        # sandbox lands in one of these two levels.
        for d, allowed in ((outer, {"sandbox"}), (os.path.join(outer, "sandbox"), {"work"})):
            if extra := sorted(set(os.listdir(d)) - allowed):
                return f"created outside the working directory: {', '.join(extra)}"
    return None


def csv_rows_complete(path):
    """Every line ends with a newline and has the header's number of fields (an empty file or a
    header alone is a cut before the first row: complete too)."""
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    return not data or (data.endswith(b"\n") and
                        all(line.count(b",") == lines[0].count(b",") for line in lines[:-1]))


def last_time(path):
    """The time of a CSV's last row, or None."""
    try:
        with open(path) as f:
            rows = [line for line in f.read().split("\n")[1:] if line]
        return float(rows[-1].split(",")[0]) if rows else None
    except (OSError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="the twinblocks program")
    ap.add_argument("--python-path", help="PYTHONPATH for the Python cases (build/python)")
    ap.add_argument("--class", dest="classes", action="append", choices=CLASSES)
    ap.add_argument("--only-files", action="store_true",
                    help="only the cases marked sanitize (for a sanitizer build of the CLI)")
    ap.add_argument("--time-limit", type=float, default=2.0, help="seconds per case")
    ap.add_argument("--memory-limit-mib", type=float, default=256.0)
    ap.add_argument("--list", action="store_true", help="print the cases and stop")
    ap.add_argument("--verbose", action="store_true", help="show stderr of passing cases too")
    ap.add_argument("files", nargs="+", metavar="CASES.toml")
    opts = ap.parse_args()
    opts.cli = os.path.abspath(opts.cli)
    if not os.access(opts.cli, os.X_OK):
        sys.exit(f"run_cases.py: {opts.cli} is not a program")
    if opts.python_path:
        opts.python_path = os.path.abspath(opts.python_path)
    cases = [c for c in load_cases(opts.files) if (not opts.classes or c["class"] in opts.classes)
             and (not opts.only_files or c["sanitize"])]
    if opts.list:
        for c in cases:
            print(f"{c['class']}/{c['name']}  {c.get('doc', '')}")
        return 0
    per_class, slowest, largest = {}, ("", 0.0), ("", 0.0)
    for case in cases:
        label = f"{case['class']}/{case['name']}"
        why, seconds, peak, stdout, stderr = run_case(case, opts)
        print(f"{'ok' if why is None else 'FAIL'} {label}  {seconds:.3f} s  {peak:.1f} MiB")
        if why is not None:
            print(f"    {why}\n    stderr: {stderr[:400]!r}\n    stdout: {stdout[:400]!r}")
        elif opts.verbose:
            print(f"    stderr: {stderr[:400]!r}")
        sys.stdout.flush()
        per_class.setdefault(case["class"], [0, 0])[why is not None] += 1
        slowest = max(slowest, (label, seconds), key=lambda x: x[1])
        largest = max(largest, (label, peak), key=lambda x: x[1])
    print()
    for cls in (c for c in CLASSES if c in per_class):
        ok, bad = per_class[cls]
        print(f"{cls:18s} {ok + bad:4d} cases  {ok:4d} passed  {bad:4d} failed")
    print(f"slowest: {slowest[0]}  {slowest[1]:.3f} s")
    print(f"largest peak RSS: {largest[0]}  {largest[1]:.1f} MiB")
    passed, failed = (sum(c[i] for c in per_class.values()) for i in (0, 1))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
