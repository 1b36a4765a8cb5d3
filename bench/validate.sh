#!/usr/bin/env bash
# The validate benchmark (issues 2, 13 and 14): wall time and peak memory of
# `nxbatch validate --offline --no-xlsx` on four inputs, each beside its
# floor, the least work a tool that reads the file (and, for CSV, writes
# every record back out) can do, measured in the same run:
#
#   spread  1,000,000-line venta CSV, 13 columns, a sale's 5 rows 1,000 apart
#   orders  1,000,000-row venta CSV, 14 columns, 2 to 8 lines an order (~120 MB)
#   single  1,000,000 one-line sales, 11 columns (~74 MB): as many requests as rows
#   xlsx    100,000-line venta XLSX (numbers stored as numbers)
#
# Goals: CSV within 3x of the floor's wall time (aim 2x) and under 400 MB;
# memory about 3x the file's size at most; XLSX within 1.5x of excelize's
# own row read.
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
"$out/genlines" -rows "$csv_rows" -o "$out/spread.csv"
"$out/genlines" -shape orders -rows "$csv_rows" -o "$out/orders.csv"
"$out/genlines" -shape single -rows "$csv_rows" -o "$out/single.csv"
"$out/genlines" -rows "$xlsx_rows" -o "$out/xlsx.xlsx"

# measure CMD...: prints "wall_s peak_MB"
measure() {
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >/dev/null 2>"$out/err.txt" || true
  read -r wall kb < "$out/time.txt"
  echo "$wall $((kb / 1024))"
}

sync
printf "%-7s %8s | %-17s | %-17s | %6s | %s\n" input size floor "nxbatch validate" ratio "memory / size"
for name in spread orders single xlsx; do
  in=$(ls "$out/$name".*)
  size=$(( $(stat -c %s "$in") / 1048576 ))
  if [ "$name" = xlsx ]; then
    f=$(measure "$out/floor" "$in")
  else
    f=$(measure "$out/floor" "$in" "$out/floor.csv")
  fi
  n=$(measure "$out/nxbatch" validate --offline --no-xlsx --report-dir "$out/rep" "$in")
  awk -v name="$name" -v size="$size" -v f="$f" -v n="$n" 'BEGIN {
    split(f, a, " "); split(n, b, " ");
    printf "%-7s %5d MB | %5.2f s %5d MB | %5.2f s %5d MB | %5.2fx | %.1fx\n", name, size, a[1], a[2], b[1], b[2], b[1]/a[1], b[2]/size;
  }'
done
