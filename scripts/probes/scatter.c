// scatter.c: the cost of a distribution pass's write streams, and a
// counting radix sort, written in C independently of memwall's Go kernels.
// docs/hierarchy.md ("Not modelled: the fills of a scatter beyond the
// prefetched streams") reports its output on the development machine.
//
//   gcc -O2 -o /tmp/scatter scripts/probes/scatter.c && /tmp/scatter
//
// Part 1 distributes N random keys into b buckets laid out as a counting
// sort lays them out (one array, each bucket from its prefix sum) and
// prints the fastest of four runs per key and per 64-byte line of keys,
// for b = 2 to 1024, at N = 2^20 (4 MiB arrays, in the last cache of most
// current machines) and 2^24 (64 MiB). Part 2 times a whole counting radix
// sort (6-bit digits, least significant first) at 2^16, 2^23 and 2^28 keys
// (the sizes memwall validate --sizes levels used on that machine), the
// fastest of three runs, to compare with memwall predict --kernel
// radix-count.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t state = 88172645463325252ull;

static uint64_t next(void) { // xorshift64
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static void *must(void *p) {
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

static void scatter_sweep(int lg) {
	size_t n = (size_t)1 << lg;
	uint32_t *a = must(malloc(n * 4)), *w = must(malloc(n * 4));
	for (size_t i = 0; i < n; i++) {
		a[i] = next() % n;
		w[i] = i; // touch every page before the timing
	}
	for (int bits = 1; bits <= 10; bits++) {
		uint32_t mask = (1u << bits) - 1;
		size_t b = (size_t)mask + 1, count[1025];
		double best = 1e9;
		for (int r = 0; r < 4; r++) {
			memset(count, 0, sizeof count);
			for (size_t i = 0; i < n; i++)
				count[(a[i] & mask) + 1]++;
			for (size_t d = 1; d <= b; d++)
				count[d] += count[d - 1];
			double t0 = now();
			for (size_t i = 0; i < n; i++) {
				uint32_t v = a[i];
				w[count[v & mask]++] = v;
			}
			double t = now() - t0;
			if (t < best)
				best = t;
		}
		printf("scatter n=2^%d b=%4zu  %.2f ns/key  %5.1f ns/line\n", lg, b, best / n * 1e9, best / n * 16e9);
	}
	free(a);
	free(w);
}

static void radix_count(uint32_t *a, uint32_t *w, size_t n, int keyBits, int radixBits) {
	uint32_t *src = a, *dst = w;
	for (int sh = 0; sh < keyBits; sh += radixBits) {
		int bits = keyBits - sh < radixBits ? keyBits - sh : radixBits;
		uint32_t mask = (1u << bits) - 1;
		size_t b = (size_t)mask + 1, count[257];
		memset(count, 0, sizeof count);
		for (size_t i = 0; i < n; i++)
			count[((src[i] >> sh) & mask) + 1]++;
		for (size_t d = 1; d <= b; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < n; i++) {
			uint32_t v = src[i];
			dst[count[(v >> sh) & mask]++] = v;
		}
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * 4);
}

static void radix_at(int lg) {
	size_t n = (size_t)1 << lg;
	uint32_t *in = must(malloc(n * 4)), *a = must(malloc(n * 4)), *w = must(malloc(n * 4));
	for (size_t i = 0; i < n; i++) {
		in[i] = next() % n;
		w[i] = i;
	}
	double best = 1e9;
	for (int r = 0; r < 3; r++) {
		memcpy(a, in, n * 4);
		double t0 = now();
		radix_count(a, w, n, lg, 6);
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i]) {
			fprintf(stderr, "radix_count left its keys unsorted\n");
			exit(1);
		}
	printf("counting radix sort n=2^%d  %.4g s  %.2f ns/key\n", lg, best, best / n * 1e9);
	free(in);
	free(a);
	free(w);
}

int main(void) {
	scatter_sweep(20);
	scatter_sweep(24);
	radix_at(16);
	radix_at(23);
	radix_at(28);
	return 0;
}
