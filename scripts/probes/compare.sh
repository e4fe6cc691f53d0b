#!/bin/sh
# compare.sh: times the C kernels of kernels.c on this machine and sets
# each beside memwall's hierarchy prediction for it on a machine file,
# the way a reader checks the model against programs of their own.
#
#   scripts/probes/compare.sh MACHINE.json [N ...]
#
# MACHINE.json is a calibration of this machine (memwall calibrate --out).
# The N are the sizes for the permutation products and the sorts
# (default 2^16, 2^20, 2^23 and 2^26 keys; the last takes some minutes);
# MATMUL (environment) the matrix dimensions (default 344 and 1192), KERNELS
# the kernels besides it (default all nine: perm perm-twopass quicksort
# mergesort heapsort bucket bucket-count radix radix-count). Each
# line: kernel, size, the C program's fastest run, the prediction, and
# measured/predicted. Needs gcc.
set -eu
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
	echo "usage: scripts/probes/compare.sh MACHINE.json [N ...]" >&2
	exit 2
fi
machine=$1
shift
sizes=${*:-65536 1048576 8388608 67108864}
dims=${MATMUL:-344 1192}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/kernels" scripts/probes/kernels.c
go build -o "$tmp/memwall" ./cmd/memwall
cache=$(grep -o '"cache": *[0-9]*' "$machine" | head -1 | grep -o '[0-9]*$')

# runs is how many times a kernel of n elements runs (a matrix product
# of dimension n has n·n): more where a run is short, two where it takes
# seconds. A run of microseconds is at the mercy
# of one interruption: the permutation product at 2^14 elements, 5 µs a
# run, took 4.7 to 5.8 µs as the fastest of 10 runs in four runs of this
# script on the Zen 5 guest (validate times such a kernel for 0.2 s).
runs() {
	if [ "$1" -le 65536 ]; then echo 200; elif [ "$1" -le 1048576 ]; then echo 10; elif [ "$1" -le 8388608 ]; then echo 3; else echo 2; fi
}

row() { # kernel n
	elements=$2
	if [ "$1" = matmul ]; then elements=$(($2 * $2)); fi
	measured=$("$tmp/kernels" "$1" "$2" "$(runs "$elements")" "$cache" | cut -d' ' -f3)
	predicted=$("$tmp/memwall" predict --machine "$machine" --kernel "$1" --set "n=$2" --json |
		grep -o '"seconds": *[0-9.eE+-]*' | head -1 | grep -o '[0-9.eE+-]*$')
	if [ -z "$measured" ] || [ -z "$predicted" ]; then
		echo "compare.sh: no time for $1 at n = $2 (measured '$measured', predicted '$predicted')" >&2
		exit 1
	fi
	awk -v k="$1" -v n="$2" -v m="$measured" -v p="$predicted" \
		'BEGIN { printf "%-13s %10d %12.4g s %12.4g s %6.2f\n", k, n, m, p, m / p }'
}

printf "%-13s %10s %14s %14s %6s\n" kernel n "C program" predicted ratio
for k in ${KERNELS:-perm perm-twopass quicksort mergesort heapsort bucket bucket-count radix radix-count}; do
	for n in $sizes; do row "$k" "$n"; done
done
for n in $dims; do row matmul "$n"; done
