#!/bin/sh
# Reproducible builds: generates the web site twice, each time from an empty
# Go build cache (so app.wasm is compiled from scratch), and compares every
# file. The e2e tests check the generator alone on every `make test`; this
# checks the whole chain and takes a few minutes.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
for i in 1 2; do
	echo "build $i (empty build cache)..."
	GOCACHE="$tmp/cache$i" go run ./wasm -out "$tmp/site$i" -brotli 5 >/dev/null
done
if diff -r "$tmp/site1" "$tmp/site2" >/dev/null; then
	echo "reproducible: $(find "$tmp/site1" -type f | wc -l) files identical, app.wasm sha256 $(sha256sum "$tmp/site1/web/app.wasm" | cut -c1-16)"
else
	diff -rq "$tmp/site1" "$tmp/site2"
	echo "NOT reproducible" >&2
	exit 1
fi
