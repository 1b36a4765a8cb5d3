#!/usr/bin/env bash
# Renders the README's picture of a result workbook (docs/result-workbook.png):
# runs samples/errores.csv through the embedded sandbox, has LibreOffice print
# the result workbook to PDF (landscape, over as few pages across as keep it
# readable) and turns the top of the page with the messages into a PNG.
# Needs LibreOffice (Debian: libreoffice-calc-nogui) and poppler-utils.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nxbatch" ./cmd/nxbatch
cp samples/errores.csv "$tmp/"
XDG_STATE_HOME="$tmp/state" "$tmp/nxbatch" run --sandbox "$tmp/errores.csv" >/dev/null 2>&1 || true
soffice --headless --norestore "-env:UserInstallation=file://$tmp/lo" \
	--convert-to pdf --outdir "$tmp" "$tmp/errores.result.xlsx" >/dev/null
# The sheet prints over pages across (readable, the header row and the
# first column on each); show the first page with the messages.
pages=$(pdfinfo "$tmp/errores.result.pdf" | awk '/^Pages:/ {print $2}')
page=1
for p in $(seq 1 "$pages"); do
	if pdftotext -f "$p" -l "$p" "$tmp/errores.result.pdf" - | grep -q 'result.message'; then page=$p; break; fi
done
pdftoppm -png -singlefile -r "${DPI:-220}" -f "$page" -l "$page" -x 150 -y 160 -W "${WIDTH:-2020}" -H "${HEIGHT:-560}" \
	"$tmp/errores.result.pdf" docs/result-workbook
echo "docs/result-workbook.png"
