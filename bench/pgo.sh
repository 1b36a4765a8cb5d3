#!/usr/bin/env bash
# Writes cmd/nxbatch/default.pgo, the CPU profile `go build` uses for
# profile-guided optimisation of the nxbatch binary (Go builds a main
# package with the default.pgo beside it; -pgo=off builds without). The
# profile is of what the binary spends its CPU on: validating the three CSV
# shapes of bench/validate.sh (spread, orders, one-line sales) through
# pipeline's BenchmarkValidateCSV. Regenerate it after a change of the hot
# path; an older profile still builds, it only optimises less.
#
#   bench/pgo.sh [rows]     rows a input, 1,000,000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/genlines" ./bench/genlines
go test -c -o "$out/pipeline.test" ./pipeline/
profiles=()
for shape in spread orders single; do
  "$out/genlines" -shape "$shape" -rows "$rows" -o "$out/$shape.csv"
  NXBATCH_BENCH_CSV="$out/$shape.csv" "$out/pipeline.test" -test.run '^$' -test.bench 'BenchmarkValidateCSV$' \
    -test.benchtime 2x -test.cpuprofile "$out/$shape.prof" >/dev/null
  profiles+=("$out/$shape.prof")
done
go tool pprof -proto "${profiles[@]}" >cmd/nxbatch/default.pgo
echo "wrote cmd/nxbatch/default.pgo ($(stat -c %s cmd/nxbatch/default.pgo) bytes) from ${#profiles[@]} profiles of $rows rows"
