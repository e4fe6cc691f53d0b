#!/bin/sh
# Re-vendors Apache ECharts from the npm registry with npm's own client.
# Usage: web/vendor/echarts/update.sh [version]   (default: the version in VENDOR.md)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=${1:-6.1.0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "echarts@$version" >/dev/null && tar xzf "echarts-$version.tgz")
cp "$tmp/package/dist/echarts.common.min.js" "$tmp/package/LICENSE" "$tmp/package/NOTICE" "$here/"
cp "$tmp/package/licenses/LICENSE-d3" "$here/"
sha256sum "$here/echarts.common.min.js"
echo "Update the version and the sha256 in $here/VENDOR.md."
