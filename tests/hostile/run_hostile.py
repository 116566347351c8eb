#!/usr/bin/env python3
"""Runs every model of the hostile corpus through oinfer-run and checks how it
ends: exit status 0, 1 or 2, never a signal or a timeout, and on a non-zero
status exactly one line on stderr.

    run_hostile.py OINFER_RUN CORPUS_DIR [--generate] [--jobs N] [--timeout S]
                   [--as-limit BYTES] [--memory-limit N] [--only SUBSTRING] [--verbose]

--generate writes the corpus first (make_hostile.py next to this file, run
with this interpreter). Each model runs as
    prlimit --as=BYTES -- timeout -s KILL S oinfer-run MODEL --threads 1 \
        --memory-limit 512M
and --memory-limit 512M (a model that fills memory up to the limit before
failing, legitimately, stays fast; the library's default limit is 3/4 of the
address-space cap, tested in tests/models/test_memory_limit.cpp).
Prints one line per model that fails a check, a count per exit status, and
exits 1 when any failed.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Models known to fail a check, with the reason and the change that fixes it.
# A known failure is reported but does not fail the run; a known failure that
# passes is reported too, so the entry can go.
KNOWN_FAILURES = {}

# Options a model needs besides the common ones: a Loop of INT64_MAX
# iterations can only end at a deadline.
EXTRA_ARGS = {"loop__trip_int64max_endless.onnx": ["--timeout", "1"]}


def run_one(args, path):
    cmd = ["timeout", "-s", "KILL", str(args.timeout), args.oinfer_run, path, "--threads", "1",
           "--memory-limit", args.memory_limit] + EXTRA_ARGS.get(os.path.basename(path), [])
    if shutil.which("prlimit"):
        cmd = ["prlimit", "--as=%d" % args.as_limit, "--"] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    dt = time.monotonic() - t0
    err = p.stderr.decode("utf-8", "replace")
    lines = err.splitlines()
    problem = None
    rc = p.returncode
    if rc == 137 or rc == -9:
        problem = "killed after %ds (hang or timeout)" % args.timeout
    elif rc < 0:
        problem = "signal %d" % -rc
    elif rc > 128:
        problem = "exit %d (signal %d?)" % (rc, rc - 128)
    elif rc not in (0, 1, 2):
        problem = "exit status %d" % rc
    elif rc != 0 and len(lines) != 1:
        problem = "exit %d with %d stderr lines" % (rc, len(lines))
    elif rc != 0 and not lines[0].startswith("oinfer-run: "):
        problem = "stderr does not start with 'oinfer-run: '"
    return os.path.basename(path), rc, dt, problem, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("oinfer_run")
    ap.add_argument("corpus")
    ap.add_argument("--generate", action="store_true")
    ap.add_argument("--jobs", type=int, default=max(2, 2 * (os.cpu_count() or 1)))
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--as-limit", type=int, default=8 << 30)
    ap.add_argument("--memory-limit", default="512M")
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    t0 = time.monotonic()
    if args.generate:
        shutil.rmtree(args.corpus, ignore_errors=True)  # no model of an older generator stays
        subprocess.run([sys.executable, os.path.join(HERE, "make_hostile.py"), args.corpus], check=True)
    models = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                    if f.endswith(".onnx") and args.only in f)
    if not models:
        sys.exit("no models in %s" % args.corpus)
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(lambda m: run_one(args, m), models):
            results.append(r)
    counts = {}
    failed = [r for r in results if r[3] and r[0] not in KNOWN_FAILURES]
    for name, rc, dt, problem, lines in results:
        counts[rc] = counts.get(rc, 0) + 1
        known = name in KNOWN_FAILURES
        tag = ("known" if known else "FAIL") if problem else ("FIXED" if known else "ok")
        if problem or known or args.verbose:
            print("%-8s %-60s %5.1fs rc=%d %s" % (tag, name, dt, rc, problem or ""))
            if known:
                print("         (known: %s%s)" % (KNOWN_FAILURES[name],
                                                 "" if problem else "; it passes now: drop it from KNOWN_FAILURES"))
            for line in lines[:3]:
                print("         | " + line[:300])
    slow = sorted(results, key=lambda r: -r[2])[:5]
    print("slowest: " + ", ".join("%s %.1fs" % (r[0], r[2]) for r in slow))
    print("%d models in %.0fs; exit status counts %s; %d failed, %d known failures" %
          (len(results), time.monotonic() - t0, dict(sorted(counts.items())), len(failed),
           sum(1 for r in results if r[3] and r[0] in KNOWN_FAILURES)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
