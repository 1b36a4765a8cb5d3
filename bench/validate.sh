#!/usr/bin/env bash
# The validate benchmark (issues 2, 13, 14 and 25): `nxbatch validate
# --offline --no-xlsx` on four inputs, each beside its floor, the least work
# a tool that reads the file (and, for CSV, writes every record back out)
# can do:
#
#   spread  1,000,000-line venta CSV, 13 columns, a sale's 5 rows 1,000 apart
#   orders  1,000,000-row venta CSV, 14 columns, 2 to 8 lines an order (~120 MB)
#   single  1,000,000 one-line sales, 11 columns (~74 MB): as many requests as rows
#   xlsx    100,000-line venta XLSX (numbers stored as numbers)
#
# Measured in pairs: the floor, then nxbatch, on the same file, PAIRS times
# in turn after one warm-up of each. Each pair gives a ratio (nxbatch over
# the floor) of wall time and of user CPU time; the table prints the median
# ratio and, in brackets, the lowest and highest, so that a machine whose
# speed drifts (other jobs) moves both sides of a pair alike and shows as
# spread. On a loaded machine quote the user-CPU ratio: wall time then
# measures the other jobs too. Peak is the largest resident set of the runs.
#
# Goals: CSV within 3x of the floor (aim 2x) and under 400 MB; XLSX within
# 1.5x of excelize's own row read.
#
#   bench/validate.sh [csv-rows] [xlsx-rows]      PAIRS=5 by default
set -euo pipefail
cd "$(dirname "$0")/.."
csv_rows=${1:-1000000}
xlsx_rows=${2:-100000}
pairs=${PAIRS:-5}
out=${BENCH_OUT:-$(mktemp -d)}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }

go build -o "$out/nxbatch" ./cmd/nxbatch
go build -o "$out/floor" ./bench/floor
go build -o "$out/genlines" ./bench/genlines
"$out/genlines" -rows "$csv_rows" -o "$out/spread.csv"
"$out/genlines" -shape orders -rows "$csv_rows" -o "$out/orders.csv"
"$out/genlines" -shape single -rows "$csv_rows" -o "$out/single.csv"
"$out/genlines" -rows "$xlsx_rows" -o "$out/xlsx.xlsx"

# machine prints what the figures were measured on.
machine() {
  local model
  model=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  echo "machine: $(uname -srm), $(nproc) cores (${model:-unknown CPU}), $(awk '/^MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3)"
  echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

# measure CMD...: prints "wall_s user_s peak_MB" for one run.
measure() {
  /usr/bin/time -f "%e %U %M" -o "$out/time.txt" "$@" >/dev/null 2>"$out/err.txt" || {
    echo "failed: $* ($(tail -1 "$out/err.txt"))" >&2
    exit 1
  }
  awk '{printf "%s %s %d\n", $1, $2, $3/1024}' "$out/time.txt"
}

machine
echo "pairs:   $pairs a input (floor, then nxbatch), after one warm-up of each"
echo
printf "%-7s %6s | %-24s | %-24s | %-21s | %-21s | %s\n" input size "floor wall / user / peak" "nxbatch wall / user / peak" "wall ratio [range]" "user ratio [range]" "peak / size"
for name in spread orders single xlsx; do
  in=$(ls "$out/$name".*)
  size=$(( $(stat -c %s "$in") / 1048576 ))
  if [ "$name" = xlsx ]; then
    floor=("$out/floor" "$in")
  else
    floor=("$out/floor" "$in" "$out/floor.csv")
  fi
  nx=("$out/nxbatch" validate --offline --no-xlsx --report-dir "$out/rep" "$in")
  measure "${floor[@]}" >/dev/null
  measure "${nx[@]}" >/dev/null
  : >"$out/pairs.txt"
  for _ in $(seq "$pairs"); do
    echo "$(measure "${floor[@]}") $(measure "${nx[@]}")" >>"$out/pairs.txt"
  done
  # Each line: floor wall user peak, nxbatch wall user peak.
  awk -v name="$name" -v size="$size" '
    function median(a, n,   i, j, t) {
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function lo(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
    function hi(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
    {
      n++; fw[n] = $1; fu[n] = $2; if ($3 > fp) fp = $3; nw[n] = $4; nu[n] = $5; if ($6 > np) np = $6
      rw[n] = $1 > 0 ? $4 / $1 : 0; ru[n] = $2 > 0 ? $5 / $2 : 0
    }
    END {
      printf "%-7s %3d MB | %5.2f s %5.2f s %5d MB | %5.2f s %5.2f s %5d MB | %5.2fx [%5.2f-%5.2f] | %5.2fx [%5.2f-%5.2f] | %.1fx\n",
        name, size, median(fw, n), median(fu, n), fp, median(nw, n), median(nu, n), np,
        median(rw, n), lo(rw, n), hi(rw, n), median(ru, n), lo(ru, n), hi(ru, n), (size > 0 ? np / size : 0)
    }' "$out/pairs.txt"
done
echo "end:     load average $(cut -d' ' -f1-3 /proc/loadavg)"
