#!/usr/bin/env bash
# Benchmarks of submission (issue 4). Prints one plain line per figure.
#   bench/run.sh            all of them (about 3 minutes)
#   SALES=2000 bench/run.sh a shorter sales run
# Files and the journal go to bench/out (git-ignored; JOURNAL_DIR moves the
# journals, e.g. to /dev/shm to see what fsync costs).
#   JOURNAL=postgres bench/run.sh   the runs journal in a private PostgreSQL
#                                   server on loopback (Debian's postgresql)
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
sales=${SALES:-10000}
jdir=${JOURNAL_DIR:-$out}

go build -o "$out/nxbatch" ./cmd/nxbatch
go run ./bench/gen sales -n "$sales" -o "$out/ventas.csv"
go run ./bench/gen stock -rows 10000 -warehouses 4 -o "$out/stock.csv" -data "$out/stock-data.json"

pgflag=()
if [ "${JOURNAL:-}" = postgres ]; then
	pgflag=(-pg)
fi

measure() {
	local name=$1
	shift
	rm -rf "$jdir/run-$name"
	go run ./bench/measure -bin "$out/nxbatch" -dir "$jdir/run-$name" "${pgflag[@]}" "$@" 2>"$out/$name.log"
}

# (1) sales: sustained throughput vs min(--rate, workers / latency), journal included.
measure sales-rate0 -latency 20ms -workers 8 -rate 0 "$out/ventas.csv"
measure sales-rate100 -latency 20ms -workers 8 -rate 100 "$out/ventas.csv"

# (2) a 10,000-row inventory count over 4 warehouses, 3 s stock window scaled by 0.1.
measure stock -kind stock -scale 0.1 -data "$out/stock-data.json" -max-articulos 500 "$out/stock.csv"

# (3) the journal alone: cost per journaled request (one Begin + one Finish).
go test -run '^$' -bench 'BeginFinish|CommitStrategy' -benchtime 2000x ./journal ./journal/pgjournal |
	awk '/^pkg:/ { pkg = $2 } /^Benchmark/ { printf "journal (%s): %s %.3f ms per request\n", pkg, $1, $3 / 1e6 }'
