#!/bin/sh
# placement.sh: the reference kernels' core rates (measure's
# BenchmarkCoreRates, timed as calibration times them) in two builds of
# the same code whose functions lie 32 bytes apart, to show which loops'
# speeds follow where the linker puts them.
#
#   scripts/probes/placement.sh
#
# The second build has a file of padding before every other file of
# measure/, which moves the functions after it. Go aligns a function to
# 32 bytes, so a loop can sit at one of two places in the 64-byte lines
# of code; the padding grows until the kernels move by an odd multiple
# of 32 bytes. LDFLAGS (environment, default none) sets the linker's
# flags of both builds: with -funcalign=64 every function starts a line
# and the padding moves functions by whole lines, which leaves what
# follows the absolute address (a branch predictor's tables) to show.
# ROUNDS (default 3) is how many times each build is run, alternately;
# each column is a kernel's fastest rate over them.
set -eu
cd "$(dirname "$0")/../.."
ldflags=${LDFLAGS:-}
rounds=${ROUNDS:-3}
case $rounds in '' | *[!0-9]* | 0)
	echo "placement.sh: ROUNDS=$rounds: want a whole number of rounds, at least 1" >&2
	exit 2
	;;
esac
tmp=$(mktemp -d)
pad=measure/aaa_placement_pad.go
trap 'rm -rf "$tmp" "$pad"' EXIT
go test -c -ldflags="$ldflags" -o "$tmp/a.test" ./measure
where() { go tool objdump -s 'measure\.PermTraditional$' "$1" | awk 'NR == 2 { print $2 }'; }
# One padding function or more, until the kernels move by an odd multiple
# of 32 bytes (four tries; with -funcalign=64 they never do).
for k in 1 2 3 4; do
	{
		echo 'package measure'
		echo 'import "os"'
		i=0
		while [ $i -lt $k ]; do
			echo "//go:noinline
func placementPad$i() int { return os.Getpid()*$((i + 3)) + len(os.Args)*$((i + 7)) }"
			i=$((i + 1))
		done
		echo 'func init() {'
		echo '	if len(os.Args) > 1<<20 {'
		i=0
		while [ $i -lt $k ]; do
			echo "		println(placementPad$i())"
			i=$((i + 1))
		done
		echo '	}'
		echo '}'
	} >"$pad"
	go test -c -ldflags="$ldflags" -o "$tmp/b.test" ./measure
	a=$(where "$tmp/a.test")
	b=$(where "$tmp/b.test")
	if [ $(((a - b) % 64)) -ne 0 ]; then
		break
	fi
done
rm -f "$pad"
echo "PermTraditional at $a (mod 64: $((a % 64))) and $b (mod 64: $((b % 64))); linker flags: ${ldflags:-none}"
r=0
while [ $r -lt "$rounds" ]; do
	for x in a b; do
		"$tmp/$x.test" -test.run '^$' -test.bench CoreRates -test.benchtime 30x |
			awk -v x=$x '/ops\/s/ { name = $1; sub(/^BenchmarkCoreRates\//, "", name); sub(/-[0-9]+$/, "", name); print x, name, $(NF - 1) }' >>"$tmp/rates"
	done
	r=$((r + 1))
done
awk '{ if ($3 > best[$1 " " $2]) best[$1 " " $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
END {
	printf "%-22s %14s %14s %8s\n", "kernel", "build a", "build b", "b/a"
	for (i = 0; i < n; i++) {
		k = order[i]; a = best["a " k]; b = best["b " k]
		printf "%-22s %14.4g %14.4g %8.3f\n", k, a, b, (a > 0 ? b / a : 0)
	}
}' "$tmp/rates"
