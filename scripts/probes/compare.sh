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
# mergesort heapsort bucket bucket-count radix radix-count), ROUNDS how
# many times the whole table is timed (default 3). Each line: kernel,
# size, the C program's fastest run over all the rounds, the prediction,
# and measured/predicted. Needs gcc.
#
# Why rounds: on a machine others share, a slow spell of the host lasts
# seconds to minutes, longer than one row's runs. The counting bucket
# sort of 2^19 keys ran at 15.4 ms as the fastest of ten runs in one
# table on the Zen 5 guest, and at 10.5 to 11.4 ms in three tables a
# minute later; the rows of one round are timed before any row's next,
# so a spell slows a round of each row rather than every run of one.
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
rounds=${ROUNDS:-3}
case $rounds in '' | *[!0-9]* | 0)
	echo "compare.sh: ROUNDS=$rounds: want a whole number of rounds, at least 1" >&2
	exit 2
	;;
esac
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

rows() { # every row of the table: kernel n
	for k in ${KERNELS:-perm perm-twopass quicksort mergesort heapsort bucket bucket-count radix radix-count}; do
		for n in $sizes; do echo "$k $n"; done
	done
	for n in $dims; do echo "matmul $n"; done
}

time_row() { # kernel n: the C program's fastest of its runs
	elements=$2
	if [ "$1" = matmul ]; then elements=$(($2 * $2)); fi
	"$tmp/kernels" "$1" "$2" "$(runs "$elements")" "$cache" | cut -d' ' -f3
}

# times holds "kernel n seconds" for every round of every row.
r=0
while [ "$r" -lt "$rounds" ]; do
	rows | while read -r k n; do
		measured=$(time_row "$k" "$n")
		if [ -z "$measured" ]; then
			echo "compare.sh: no time for $k at n = $n" >&2
			exit 1
		fi
		echo "$k $n $measured"
	done >>"$tmp/times"
	r=$((r + 1))
done

printf "%-13s %10s %14s %14s %6s\n" kernel n "C program" predicted ratio
rows | while read -r k n; do
	measured=$(awk -v k="$k" -v n="$n" '$1 == k && $2 == n && (m == "" || $3 < m) { m = $3 } END { print m }' "$tmp/times")
	predicted=$("$tmp/memwall" predict --machine "$machine" --kernel "$k" --set "n=$n" --json |
		grep -o '"seconds": *[0-9.eE+-]*' | head -1 | grep -o '[0-9.eE+-]*$')
	if [ -z "$measured" ] || [ -z "$predicted" ]; then
		echo "compare.sh: no time for $k at n = $n (measured '$measured', predicted '$predicted')" >&2
		exit 1
	fi
	awk -v k="$k" -v n="$n" -v m="$measured" -v p="$predicted" \
		'BEGIN { printf "%-13s %10d %12.4g s %12.4g s %6.2f\n", k, n, m, p, m / p }'
done
