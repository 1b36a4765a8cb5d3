#!/usr/bin/env bash
# The validate benchmark of issue 2: wall time and peak memory of
# `nxbatch validate` on a 1,000,000-line venta CSV (about 200,000 sales whose
# rows are not contiguous) and on a 100,000-line XLSX, each next to the floor:
# the least work a tool that reads the file (and, for CSV, writes every
# record back out) can do. Goals: CSV within 3x of the floor's wall time and
# under 400 MB peak RSS; XLSX within 2x.
#
#   bench/validate.sh [csv-rows] [xlsx-rows]
set -euo pipefail
cd "$(dirname "$0")/.."
csv_rows=${1:-1000000}
xlsx_rows=${2:-100000}
out=${BENCH_OUT:-$(mktemp -d)}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }

go build -o "$out/nxbatch" ./cmd/nxbatch
go build -o "$out/floor" ./bench/floor
go build -o "$out/genlines" ./bench/genlines
"$out/genlines" -rows "$csv_rows" -o "$out/ventas.csv"
"$out/genlines" -rows "$xlsx_rows" -o "$out/ventas.xlsx"

# measure NAME CMD...: prints "NAME wall_s peak_MB"
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >/dev/null 2>"$out/$name.err" || true
  read -r wall kb < "$out/time.txt"
  echo "$name $wall $((kb / 1024))"
}

sync
echo "input: $(du -h "$out/ventas.csv" | cut -f1) CSV, $csv_rows lines; $(du -h "$out/ventas.xlsx" | cut -f1) XLSX, $xlsx_rows lines"
f=$(measure floor-csv "$out/floor" "$out/ventas.csv" "$out/floor.csv")
n=$(measure nxbatch-csv "$out/nxbatch" validate --offline --no-xlsx --report-dir "$out/rep" "$out/ventas.csv")
fx=$(measure floor-xlsx "$out/floor" "$out/ventas.xlsx")
nx=$(measure nxbatch-xlsx "$out/nxbatch" validate --offline --no-xlsx --report-dir "$out/rep" "$out/ventas.xlsx")
grep -h "filas\|rows" "$out/nxbatch-csv.err" "$out/nxbatch-xlsx.err" 2>/dev/null | head -2 || true
awk -v f="$f" -v n="$n" -v fx="$fx" -v nx="$nx" 'BEGIN {
  split(f, a, " "); split(n, b, " "); split(fx, c, " "); split(nx, d, " ");
  printf "CSV  %d lines: floor %.2f s %d MB | nxbatch validate %.2f s %d MB | ratio %.2fx (goal <= 3x, < 400 MB)\n", '"$csv_rows"', a[2], a[3], b[2], b[3], b[2]/a[2];
  printf "XLSX %d lines: floor %.2f s %d MB | nxbatch validate %.2f s %d MB | ratio %.2fx (goal <= 2x)\n", '"$xlsx_rows"', c[2], c[3], d[2], d[3], d[2]/c[2];
}'
