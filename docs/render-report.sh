#!/usr/bin/env bash
# Renders the README's picture of a result workbook (docs/result-workbook.png):
# runs samples/errores.csv through the embedded sandbox, has LibreOffice print
# the result workbook to PDF (the report fits the page's width in landscape)
# and turns the top of its first page into a PNG.
# Needs LibreOffice (Debian: libreoffice-calc-nogui) and pdftoppm (poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nxbatch" ./cmd/nxbatch
cp samples/errores.csv "$tmp/"
XDG_STATE_HOME="$tmp/state" "$tmp/nxbatch" run --sandbox "$tmp/errores.csv" >/dev/null 2>&1 || true
soffice --headless --norestore "-env:UserInstallation=file://$tmp/lo" \
	--convert-to pdf --outdir "$tmp" "$tmp/errores.result.xlsx" >/dev/null
pdftoppm -png -singlefile -r "${DPI:-220}" -f 1 -l 1 -x 150 -y 160 -W "${WIDTH:-2020}" -H "${HEIGHT:-240}" \
	"$tmp/errores.result.pdf" docs/result-workbook
echo "docs/result-workbook.png"
