#!/usr/bin/env bash
# Release builds: nxbatch cross-compiled for the systems an accountant's or
# an office's machine runs, into dist/ (or $1). Pure Go, no cgo: each is
# one file to download and double-click (with no arguments it serves the
# page and opens the browser). TARGETS="os/arch ..." picks some.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
mkdir -p "$out"
for target in ${TARGETS:-linux/amd64 linux/arm64 windows/amd64 darwin/amd64 darwin/arm64}; do
  os=${target%/*} arch=${target#*/}
  ext=""
  [ "$os" = windows ] && ext=.exe
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w -X main.version=$version" \
    -o "$out/nxbatch-$os-$arch$ext" ./cmd/nxbatch
  echo "built $out/nxbatch-$os-$arch$ext"
done
