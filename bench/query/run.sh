#!/usr/bin/env bash
# bench/query: builds an index of a million realistic items in release mode and prints, as
# min / median / max over repeated runs, the write throughput, the bytes per item, and the
# latency of the first 100 results and of the count for each kind of query; then times plocate
# on the same million paths as a peer. Not a test: figures depend on the machine.
#
#   bench/query/run.sh                  # 1,000,000 items, 500-item transactions, 15 runs
#   ITEMS=200000 RUNS=5 bench/query/run.sh
#   BATCH=5000 bench/query/run.sh       # larger transactions (Options.batchSize)
#   BULK=1 bench/query/run.sh           # build as a first crawl does (bulk load), end included
#   WORK=/tmp/keep bench/query/run.sh   # keep the index and the path list there
set -euo pipefail
cd "$(dirname "$0")/../.."

ITEMS=${ITEMS:-1000000}
RUNS=${RUNS:-15}
BATCH=${BATCH:-500}
BULK_FLAG=()
[ -n "${BULK:-}" ] && BULK_FLAG=(--bulk)
WORK=${WORK:-$(mktemp -d -t lumen-bench-query.XXXXXX)}
mkdir -p "$WORK"

echo "== Building the benchmark (release)"
swift build -c release --product QueryBench 2>&1 | tail -1
BIN=$(swift build -c release --show-bin-path)/QueryBench

echo "== Lumen: $ITEMS items, batch size $BATCH, $RUNS runs per query (index in $WORK)"
"$BIN" --items "$ITEMS" --runs "$RUNS" --batch "$BATCH" --db "$WORK/index.sqlite" \
  --names "$WORK/paths.txt" "${BULK_FLAG[@]}"

if ! command -v plocate-build >/dev/null 2>&1 || ! command -v plocate >/dev/null 2>&1; then
  echo "(plocate is not installed: no peer figures)"
  exit 0
fi

echo
echo "== Peer: plocate over the same $(wc -l < "$WORK/paths.txt") file paths"
plocate-build -p -l no "$WORK/paths.txt" "$WORK/plocate.db"
echo "plocate database: $(stat -c %s "$WORK/plocate.db") bytes ($(( $(stat -c %s "$WORK/plocate.db") / $(wc -l < "$WORK/paths.txt") )) bytes/path)"
echo "Each figure includes starting the plocate process; Lumen's are in-process."

# time_ms COMMAND...: runs the command RUNS times after one warm-up, prints min/median/max ms.
time_ms() {
  "$@" > /dev/null || true
  local samples=()
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null || true
    end=$(date +%s%N)
    samples+=("$(( (end - start) / 1000 ))")
  done
  printf '%s\n' "${samples[@]}" | sort -n | awk '{ v[NR] = $1 } END {
    printf "%.2f / %.2f / %.2f", v[1] / 1000, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000 }'
}

printf '%-34s%-26s%-26s%s\n' "query (plocate)" "first 100" "count" "matches"
while IFS='|' read -r label flags pattern; do
  read -r -a extra <<< "$flags"
  first=$(time_ms plocate -d "$WORK/plocate.db" "${extra[@]}" -l 100 "$pattern")
  count=$(time_ms plocate -d "$WORK/plocate.db" "${extra[@]}" -c "$pattern")
  matches=$(plocate -d "$WORK/plocate.db" "${extra[@]}" -c "$pattern" || true)
  printf '%-34s%-26s%-26s%s\n' "$label" "$first" "$count" "$matches"
done <<'QUERIES'
*-substring, case-sensitive| |port
*-substring, case-insensitive|-i|budget
prefix-like substring| |IMG_12
exact name (as substring)| |Invoice-48213.pdf
QUERIES
