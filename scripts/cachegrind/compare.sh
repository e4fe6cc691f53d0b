#!/bin/sh
# Reproduces the speed comparison of memwall's simulator with Valgrind's
# cachegrind on the traditional permutation product at N = 2^22 (the
# speed target of docs/readings.md): a last-level cache of 256 KiB with 64-byte
# lines, fully associative in both (cachegrind: --LL=262144,4096,64).
#
# It prints data references simulated per second by each tool and their
# ratios. Cachegrind's rate is its data references (D refs: the product and
# the generation of the permutations) over the wall time of the whole
# valgrind run. memwall's rate is given two ways: the benchmark
# BenchmarkPermN22 (the simulated loop alone) and the whole command
# `memwall simulate` (data generation and result check included).
#
# Usage: scripts/cachegrind/compare.sh [N]   (from anywhere in the repository)
# Needs: gcc, valgrind (3.19 tested), go.
set -eu
N=${1:-4194304}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

now() { date +%s.%N; }

gcc -O2 -o "$WORK/perm" "$ROOT/scripts/cachegrind/perm.c"
(cd "$ROOT" && go build -o "$WORK/memwall" ./cmd/memwall)
cat > "$WORK/machine.json" <<JSON
{"id": "cg-256k-64", "name": "256 KiB LLC, 64 B lines", "source": "scripts/cachegrind",
 "beta1": "2.12 GB/s", "beta2": "0.95 GB/s", "mu1": 2, "cache": "256 KiB", "line": "64 B", "mispredict": "7.52 ns"}
JSON

echo "== native run of perm.c"
t0=$(now); "$WORK/perm" "$N"; t1=$(now)
echo "native: $(echo "$t1 - $t0" | bc -l) s"

# cachegrind LAST LEVEL: fully associative (4096 ways of 64 B = 256 KiB),
# the cache memwall simulates, and 16-way, cachegrind's usual kind of
# configuration (its per-set LRU is a linear shift over the ways, so full
# associativity is what makes it slow).
cachegrind() { # $1 = LL associativity
    t0=$(now)
    valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=262144,$1,64 \
        --cachegrind-out-file="$WORK/cg.out" "$WORK/perm" "$N" 2> "$WORK/cg.log" > /dev/null
    t1=$(now)
    cg_time=$(echo "$t1 - $t0" | bc -l)
    cg_refs=$(grep 'D *refs:' "$WORK/cg.log" | head -1 | sed 's/.*refs: *\([0-9,]*\).*/\1/' | tr -d ,)
    grep -E 'D *refs|LL misses' "$WORK/cg.log" || true
    cg_rate=$(echo "$cg_refs / $cg_time" | bc -l)
    printf 'cachegrind, %s-way LL: %s data refs in %.2f s = %.3g refs/s\n' "$1" "$cg_refs" "$cg_time" "$cg_rate"
}
echo "== cachegrind, 16-way LL"
cachegrind 16
cg16_rate=$cg_rate
echo "== cachegrind, fully associative LL"
cachegrind 4096
cgfa_rate=$cg_rate

echo "== memwall simulate"
t0=$(now)
"$WORK/memwall" simulate --machine "$WORK/machine.json" --kernel perm --set "n=$N" --json > "$WORK/sim.json"
t1=$(now)
mw_time=$(echo "$t1 - $t0" | bc -l)
mw_refs=$(sed -n 's/.*"accesses": *\([0-9]*\).*/\1/p' "$WORK/sim.json" | head -1)
mw_rate=$(echo "$mw_refs / $mw_time" | bc -l)
printf 'memwall simulate: %s accesses in %.2f s = %.3g accesses/s\n' "$mw_refs" "$mw_time" "$mw_rate"

echo "== memwall benchmark (simulated loop alone)"
bench=$(cd "$ROOT" && go test -run '^$' -bench 'BenchmarkPermN22$' -benchtime 3x ./engine/kernels/ | grep accesses/s)
echo "$bench"
b_rate=$(echo "$bench" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "accesses/s") print $i}')

echo "== ratios (memwall / cachegrind, data references simulated per second)"
printf 'fully associative LL (the same cache): whole command %.2f, benchmark %.2f\n' \
    "$(echo "$mw_rate / $cgfa_rate" | bc -l)" "$(echo "$b_rate / $cgfa_rate" | bc -l)"
printf '16-way LL (cachegrind at its usual speed): whole command %.2f, benchmark %.2f\n' \
    "$(echo "$mw_rate / $cg16_rate" | bc -l)" "$(echo "$b_rate / $cg16_rate" | bc -l)"
