/* The traditional permutation product of the MBRAM paper (Fig. 1),
 *     for (i = 0; i < N; i++) Z[i] = Y[X[i]];
 * on two random permutations of N points, the same work that
 * `memwall simulate --kernel perm --set n=N` simulates. Run under
 * valgrind --tool=cachegrind by compare.sh. Usage: perm [N] (default 2^22).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t next(void) { /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1du;
}

static void permutation(uint32_t *a, size_t n) { /* Fisher-Yates */
    for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(next() % (i + 1));
        uint32_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 0) : (size_t)1 << 22;
    uint32_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    if (!x || !y || !z || n < 2) { fprintf(stderr, "perm: bad N or out of memory\n"); return 2; }
    permutation(x, n);
    permutation(y, n);
    for (size_t i = 0; i < n; i++) z[i] = y[x[i]];
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) sum += (uint64_t)z[i] * i;
    printf("N = %zu, checksum %llu\n", n, (unsigned long long)sum);
    return 0;
}
