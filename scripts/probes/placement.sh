#!/bin/sh
# placement.sh: the reference kernels' core rates (measure's
# BenchmarkCoreRates, timed as calibration times them) in two builds of
# the same code whose functions lie 32 bytes apart, to show which loops'
# speeds follow where the linker puts them.
#
#   scripts/probes/placement.sh
#
# The second build has a file of padding before every other file of
# measure/ (given to the go command by -overlay: the tree is not
# touched), which moves the functions after it. Go aligns a function to
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
case $rounds in '' | *[!0-9]*)
	rounds=0
	;;
esac
if [ "$rounds" -lt 1 ]; then
	echo "placement.sh: ROUNDS=${ROUNDS:-}: want a whole number of rounds, at least 1" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
pad=$tmp/pad.go
printf '{"Replace": {"%s": "%s"}}\n' "$(pwd)/measure/aaa_placement_pad.go" "$pad" >"$tmp/overlay.json"
go test -c -ldflags="$ldflags" -o "$tmp/a.test" ./measure
# where prints a function's address in a test binary, 0x and hex digits.
where() {
	w=$(go tool objdump -s "measure\\.$2\$" "$1" | awk 'NR == 2 { print $2 }')
	case $w in 0x[0-9a-f]*) echo "$w" ;; *)
		echo "placement.sh: no address of measure.$2 in $1 (objdump printed \"$w\")" >&2
		exit 1
		;;
	esac
}
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
	go test -c -overlay "$tmp/overlay.json" -ldflags="$ldflags" -o "$tmp/b.test" ./measure
	a=$(where "$tmp/a.test" PermTraditional)
	b=$(where "$tmp/b.test" PermTraditional)
	moved=$(((a - b) % 64))
	if [ "$moved" -ne 0 ]; then
		break
	fi
done
if [ "$moved" -eq 0 ]; then
	echo "placement.sh: four paddings left the kernels at the same place in their lines of code; the two builds differ only by whole lines" >&2
fi
echo "linker flags: ${ldflags:-none}; each kernel's function, mod 64, in build a and build b:"
for f in PermTraditional PermTwoPass MatMul Quicksort Mergesort Heapsort BucketSortIn BucketSortCountIn RadixSortIn RadixSortCountIn; do
	fa=$(where "$tmp/a.test" "$f" 2>/dev/null) && fb=$(where "$tmp/b.test" "$f" 2>/dev/null) &&
		echo "  $f: $((fa % 64)) and $((fb % 64))"
done
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
