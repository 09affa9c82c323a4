#!/usr/bin/env python3
"""watch_probe.py - change-to-visible latency of a running `lumen watch`, seen from another
process through `lumen find --live --json` (used by bench/watch; see there).

    watch_probe.py --lumen L --db DB --root ROOT --big FOLDER --reps N --out RESULTS.json

For each kind of change (new file, modified file, rename, delete), N times, one after the
other: the change is made with plain system calls at t0, and t1 is when `find --live` prints
the matching event line. The live query matches the probe's own names and one file size:
    kMDItemFSName == "lumen-bench-*" || kMDItemFSSize == 123457
so a new file named lumen-bench-new-i is "added", a file rewritten to 123457 bytes is
"added", a file renamed to lumen-bench-ren-i-NAME is "added", and deleting a lumen-bench
file is "removed". The latency includes find --live's own polling (every 25 ms) and query.
Then FOLDER (10,000 files, made before the watcher started) is renamed, and a second live
query on the new path counts its files until all 10,000 are visible.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time


class LiveQuery:
    """A `lumen find --live --json` child whose event lines are timestamped as they arrive."""

    def __init__(self, lumen, db, query):
        self.proc = subprocess.Popen(
            [lumen, "find", "--live", "--json", "--db", db, query],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.cond = threading.Condition()
        self.seen = {}
        self.added = 0
        self.first = None
        self.last = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            now = time.monotonic()
            try:
                obj = json.loads(raw)
            except ValueError:
                continue
            if "event" not in obj:
                continue
            with self.cond:
                self.seen[(obj["event"], obj.get("path", obj.get("id")))] = now
                if obj["event"] == "added":
                    self.added += 1
                    self.first = self.first or now
                    self.last = now
                self.cond.notify_all()

    def wait(self, event, path, timeout=10.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while (event, path) not in self.seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)
            return self.seen[(event, path)]

    def wait_count(self, count, timeout=30.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.added < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)
            return self.last

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def write(path, size):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, b"x" * size)
    os.close(fd)


def stats(values):
    ok = sorted(v for v in values if v is not None)
    if not ok:
        return {"n": 0, "timeouts": len(values)}
    pick = lambda q: ok[min(len(ok) - 1, max(0, -(-int(q * len(ok) * 100) // 100) - 1))]
    return {
        "n": len(ok), "timeouts": len(values) - len(ok),
        "min_ms": round(ok[0] * 1000, 1), "median_ms": round(pick(0.5) * 1000, 1),
        "p99_ms": round(pick(0.99) * 1000, 1), "max_ms": round(ok[-1] * 1000, 1),
    }


def indexed_files(lumen, db, root, exclude):
    """Regular files the index holds under ROOT (text-like names), minus EXCLUDE."""
    out = subprocess.run(
        [lumen, "find", "--db", db, "--onlyin", root,
         'kMDItemFSName == "*.txt" || kMDItemFSName == "*.md" || kMDItemFSName == "*.py"'
         ' || kMDItemFSName == "*.json" || kMDItemFSName == "*.csv"'],
        capture_output=True, text=True, check=True).stdout.split("\n")
    return sorted(p for p in out if p and not p.startswith(exclude) and os.path.isfile(p))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lumen", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--big", required=True)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--gap", type=float, default=0.02)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = random.Random(7)

    live = LiveQuery(args.lumen, args.db, 'kMDItemFSName == "lumen-bench-*" || kMDItemFSSize == 123457')
    # The live query is running once a probe file shows up in it.
    sentinel = os.path.join(args.root, "lumen-bench-sentinel")
    deadline = time.monotonic() + 30
    while live.wait("added", sentinel, timeout=0.5) is None:
        write(sentinel, 1)
        if time.monotonic() > deadline:
            sys.exit("watch_probe: find --live never saw the sentinel: is lumen watch running?")

    files = indexed_files(args.lumen, args.db, args.root, args.big)
    if len(files) < 2 * args.reps:
        sys.exit(f"watch_probe: only {len(files)} indexed files to modify and rename")
    rng.shuffle(files)
    to_modify, to_rename = files[:args.reps], files[args.reps:2 * args.reps]
    folders = sorted({os.path.dirname(p) for p in files})
    results = {}

    def run(kind, changes):
        latencies = []
        for change, event, path in changes:
            t0 = time.monotonic()
            change()
            t1 = live.wait(event, path)
            latencies.append(None if t1 is None else t1 - t0)
            time.sleep(args.gap)
        results[kind] = stats(latencies)
        print(f"{kind}: {results[kind]}", file=sys.stderr)

    new_paths = [os.path.join(rng.choice(folders), f"lumen-bench-new-{i}.txt") for i in range(args.reps)]
    run("new file", [((lambda p=p: write(p, 100)), "added", p) for p in new_paths])
    run("modified file", [((lambda p=p: write(p, 123457)), "added", p) for p in to_modify])
    renamed = [(p, os.path.join(os.path.dirname(p), f"lumen-bench-ren-{i}-{os.path.basename(p)}"))
               for i, p in enumerate(to_rename)]
    run("rename", [((lambda a=a, b=b: os.rename(a, b)), "added", b) for a, b in renamed])
    run("delete", [((lambda p=p: os.unlink(p)), "removed", p) for p in new_paths])
    live.stop()

    # A folder of 10,000 files renamed: when is the first, and when is the last, visible?
    moved = args.big.rstrip("/") + "-renamed"
    count = sum(len(f) for _, _, f in os.walk(args.big))
    folder_live = LiveQuery(args.lumen, args.db, f'kMDItemPath == "{moved}/*"')
    time.sleep(0.5)
    t0 = time.monotonic()
    os.rename(args.big, moved)
    last = folder_live.wait_count(count, timeout=60)
    results["folder rename"] = {
        "files": count,
        "first_visible_ms": None if folder_live.first is None else round((folder_live.first - t0) * 1000, 1),
        "all_visible_ms": None if last is None else round((last - t0) * 1000, 1),
    }
    print(f"folder rename: {results['folder rename']}", file=sys.stderr)
    folder_live.stop()
    os.rename(moved, args.big)
    for a, b in renamed:
        os.rename(b, a)
    with open(args.out, "w") as out:
        json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
