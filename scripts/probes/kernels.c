// kernels.c: ten of memwall's kernels written in C from their textbook
// descriptions, apart from the Go kernels that calibration and validate
// time, to hold the hierarchy model to programs it was not fitted on.
// scripts/probes/compare.sh builds it, runs it and sets each time beside
// memwall predict; docs/hierarchy.md ("Programs written apart from
// memwall") reports the development machine's table.
//
//   gcc -O2 -o /tmp/kernels scripts/probes/kernels.c
//   /tmp/kernels KERNEL N RUNS [CACHE_BYTES]
//
// KERNEL is perm, perm-twopass, matmul, quicksort, mergesort, heapsort,
// bucket, bucket-count, radix or radix-count, on 4-byte unsigned keys
// (matmul: N×N matrices of them; the distribution sorts' keys uniform
// below N, as the MBRAM paper's); it prints
// "KERNEL N SECONDS", the fastest of RUNS runs. perm-twopass takes the
// machine's cache size in bytes for its blocks (the MBRAM paper's
// BLOCK_LENGTH = CACHE_SIZE/2/4). Every sort is checked sorted and the
// permutation products against each other's definition, so a wrong
// program fails rather than runs fast.
#include <malloc.h>
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

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void) { // xorshift64
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static void *must(size_t bytes) {
	void *p = malloc(bytes ? bytes : 1);
	if (!p) {
		fprintf(stderr, "out of memory for %zu bytes\n", bytes);
		exit(1);
	}
	memset(p, 0, bytes); // touch every page before any timing
	return p;
}

// Hoare partition around the middle element; recurse into the smaller
// side, loop on the larger.
static void quicksort(uint32_t *a, long lo, long hi) {
	while (lo < hi) {
		uint32_t p = a[lo + (hi - lo) / 2];
		long i = lo, j = hi;
		while (i <= j) {
			while (a[i] < p) i++;
			while (a[j] > p) j--;
			if (i <= j) {
				uint32_t t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (j - lo < hi - i) {
			quicksort(a, lo, j);
			lo = i;
		} else {
			quicksort(a, i, hi);
			hi = j;
		}
	}
}

static void siftdown(uint32_t *a, long i, long n) {
	uint32_t v = a[i];
	for (;;) {
		long c = 2 * i + 1;
		if (c >= n) break;
		if (c + 1 < n && a[c + 1] > a[c]) c++;
		if (a[c] <= v) break;
		a[i] = a[c];
		i = c;
	}
	a[i] = v;
}

static void heapsort(uint32_t *a, long n) {
	for (long i = n / 2 - 1; i >= 0; i--) siftdown(a, i, n);
	for (long e = n - 1; e > 0; e--) {
		uint32_t t = a[0];
		a[0] = a[e];
		a[e] = t;
		siftdown(a, 0, e);
	}
}

// Bottom-up merge sort between a and the buffer b.
static void mergesort(uint32_t *a, uint32_t *b, long n) {
	uint32_t *src = a, *dst = b;
	for (long w = 1; w < n; w *= 2) {
		for (long lo = 0; lo < n; lo += 2 * w) {
			long mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			long i = lo, j = mid, k = lo;
			while (i < mid && j < hi) dst[k++] = src[i] <= src[j] ? src[i++] : src[j++];
			while (i < mid) dst[k++] = src[i++];
			while (j < hi) dst[k++] = src[j++];
		}
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a) memcpy(a, src, (size_t)n * 4);
}

// Least-significant-digit radix sort with a counting pass, 6-bit digits
// (64 buckets, the MBRAM paper's b) from the bottom of the keys' bits,
// between a and the buffer b; the top digit takes the bits left over.
static void radixcount(uint32_t *a, uint32_t *b, long n, int bits) {
	uint32_t *src = a, *dst = b;
	long count[65];
	for (int s = 0; s < bits; s += 6) {
		uint32_t mask = 63;
		memset(count, 0, sizeof count);
		for (long i = 0; i < n; i++) count[((src[i] >> s) & mask) + 1]++;
		for (int d = 1; d <= 64; d++) count[d] += count[d - 1];
		for (long i = 0; i < n; i++) dst[count[(src[i] >> s) & mask]++] = src[i];
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a) memcpy(a, src, (size_t)n * 4);
}

// The distribution sorts below split a key into 6-bit digits, the most
// significant first (the top digit takes what is left over), as the MBRAM
// paper's b = 64 buckets; levels() lists each digit's shift and mask.
static int levels(int bits, unsigned *shift, unsigned *mask) {
	int k = 0;
	for (int s = bits; s > 0;) {
		int lo = s > 6 ? s - 6 : 0;
		shift[k] = (unsigned)lo;
		mask[k] = (1u << (s - lo)) - 1;
		k++;
		s = lo;
	}
	return k;
}

// A bucket: a growing array of keys.
typedef struct {
	uint32_t *v;
	long len, cap;
} bucket;

static void bucket_put(bucket *b, uint32_t v) {
	if (b->len == b->cap) {
		b->cap = b->cap * 2 + 16;
		b->v = realloc(b->v, (size_t)b->cap * 4);
		if (!b->v) {
			fprintf(stderr, "out of memory for a bucket\n");
			exit(1);
		}
	}
	b->v[b->len++] = v;
}

// The MBRAM paper's bucket sort (App. d), most significant digit first:
// distribute a's keys into 64 buckets by the top digit, sort each bucket
// the same way by the next digit, and write the buckets back in order.
// Each bucket starts with room for its share of the keys and a quarter.
static void bucketsort_rec(uint32_t *a, long n, const unsigned *shift, const unsigned *mask, int nl) {
	if (nl == 0 || n <= 1) return;
	long nb = (long)mask[0] + 1;
	bucket *bs = calloc((size_t)nb, sizeof *bs);
	for (long d = 0; d < nb; d++) {
		bs[d].cap = n / nb + n / (4 * nb) + 16;
		bs[d].v = malloc((size_t)bs[d].cap * 4);
	}
	for (long i = 0; i < n; i++) bucket_put(&bs[(a[i] >> shift[0]) & mask[0]], a[i]);
	long off = 0;
	for (long d = 0; d < nb; d++) {
		memcpy(a + off, bs[d].v, (size_t)bs[d].len * 4);
		free(bs[d].v);
		bucketsort_rec(a + off, bs[d].len, shift + 1, mask + 1, nl - 1);
		off += bs[d].len;
	}
	free(bs);
}

static void bucketsort(uint32_t *a, long n, int bits) {
	unsigned shift[6], mask[6];
	bucketsort_rec(a, n, shift, mask, levels(bits, shift, mask));
}

// The same with a counting pass (bucket-count): count the top digit,
// move each key to its bucket's place in the other array, then sort
// each bucket there by the next digit, back into the first.
static void bucketcount_rec(uint32_t *src, uint32_t *dst, long n, const unsigned *shift, const unsigned *mask, int nl, int into_src) {
	if (nl == 0 || n <= 1) {
		if (!into_src) memcpy(dst, src, (size_t)n * 4);
		return;
	}
	long count[65] = {0}, pos[64];
	long nb = (long)mask[0] + 1;
	for (long i = 0; i < n; i++) count[((src[i] >> shift[0]) & mask[0]) + 1]++;
	for (long d = 1; d <= nb; d++) count[d] += count[d - 1];
	memcpy(pos, count, sizeof(long) * (size_t)nb);
	for (long i = 0; i < n; i++) dst[pos[(src[i] >> shift[0]) & mask[0]]++] = src[i];
	for (long d = 0; d < nb; d++)
		bucketcount_rec(dst + count[d], src + count[d], count[d + 1] - count[d], shift + 1, mask + 1, nl - 1, !into_src);
}

static void bucketcount(uint32_t *a, uint32_t *tmp, long n, int bits) {
	unsigned shift[6], mask[6];
	int nl = levels(bits, shift, mask);
	bucketcount_rec(a, tmp, n, shift, mask, nl, 1);
}

// The MBRAM paper's radix sort (App. e), least significant digit first:
// distribute a's keys into 64 buckets by the last digit; each later pass
// reads the buckets before it in order into a second set by its digit;
// the last set is written back to a.
static void radixsort(uint32_t *a, long n, int bits) {
	unsigned shift[6], mask[6];
	int nl = levels(bits, shift, mask);
	bucket sets[2][64];
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 64; d++) {
			sets[s][d].cap = n / 64 + n / 256 + 16;
			sets[s][d].v = malloc((size_t)sets[s][d].cap * 4);
			sets[s][d].len = 0;
		}
	int cur = 0;
	for (long i = 0; i < n; i++) bucket_put(&sets[0][(a[i] >> shift[nl - 1]) & mask[nl - 1]], a[i]);
	for (int k = nl - 2; k >= 0; k--) {
		int next = 1 - cur;
		for (int d = 0; d < 64; d++) sets[next][d].len = 0;
		for (int d = 0; d <= (int)mask[k + 1]; d++)
			for (long i = 0; i < sets[cur][d].len; i++) {
				uint32_t v = sets[cur][d].v[i];
				bucket_put(&sets[next][(v >> shift[k]) & mask[k]], v);
			}
		cur = next;
	}
	long off = 0;
	for (int d = 0; d < 64; d++) {
		memcpy(a + off, sets[cur][d].v, (size_t)sets[cur][d].len * 4);
		off += sets[cur][d].len;
	}
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 64; d++) free(sets[s][d].v);
}

// The MBRAM paper's two-pass permutation product: phase I files each
// x[i] into the block of d for the segment of y it points into, phase II
// replaces each entry of d by the y it names (one segment at a time),
// phase III reads the blocks back in the order of x.
static void twopass(uint32_t *z, const uint32_t *y, const uint32_t *x, uint32_t *d, long *ptr, long n, long blk) {
	long nb = (n + blk - 1) / blk;
	for (long b = 0; b < nb; b++) ptr[b] = b * blk;
	for (long i = 0; i < n; i++) d[ptr[x[i] / blk]++] = x[i];
	for (long i = 0; i < n; i++) d[i] = y[d[i]];
	for (long b = 0; b < nb; b++) ptr[b] = b * blk;
	for (long i = 0; i < n; i++) z[i] = d[ptr[x[i] / blk]++];
}

static void matmul(uint32_t *c, const uint32_t *p, const uint32_t *q, long n) {
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			uint32_t s = 0;
			for (long k = 0; k < n; k++) s += p[i * n + k] * q[k * n + j];
			c[i * n + j] = s;
		}
}

static void fill(uint32_t *a, long n) {
	for (long i = 0; i < n; i++) a[i] = (uint32_t)next();
}

static void shuffle(uint32_t *x, long n) { // Fisher–Yates over 0..n-1
	for (long i = 0; i < n; i++) x[i] = (uint32_t)i;
	for (long i = n - 1; i > 0; i--) {
		long j = (long)(next() % (uint64_t)(i + 1));
		uint32_t t = x[i];
		x[i] = x[j];
		x[j] = t;
	}
}

static void check_sorted(const uint32_t *a, long n, const char *k) {
	for (long i = 1; i < n; i++)
		if (a[i - 1] > a[i]) {
			fprintf(stderr, "%s: not sorted at %ld\n", k, i);
			exit(1);
		}
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: kernels KERNEL N RUNS [CACHE_BYTES]\n");
		return 2;
	}
	// Memory freed by a run stays with the process for the next: returned
	// to the system and taken again, every page of the distribution sorts'
	// buckets would fault afresh in each run (some microseconds a page in a
	// virtual machine), a cost of the system's and not of the sort.
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	const char *k = argv[1];
	long n = atol(argv[2]);
	int runs = atoi(argv[3]);
	long cache = argc > 4 ? atol(argv[4]) : 0;
	if (n < 2 || runs < 1 || (strcmp(k, "perm-twopass") == 0 && cache < 8)) {
		fprintf(stderr, "kernels: N at least 2, RUNS at least 1, perm-twopass needs CACHE_BYTES\n");
		return 2;
	}
	long cells = strcmp(k, "matmul") == 0 ? n * n : n;
	uint32_t *a = must((size_t)cells * 4), *b = must((size_t)cells * 4), *c = must((size_t)cells * 4);
	double best = 1e300;
	if (strcmp(k, "perm") == 0 || strcmp(k, "perm-twopass") == 0) {
		long blk = cache / 2 / 4;
		uint32_t *d = must((size_t)n * 4);
		long *ptr = must(sizeof(long) * (size_t)(n / (blk ? blk : 1) + 2));
		shuffle(a, n);
		fill(b, n);
		for (int r = 0; r < runs; r++) {
			double t0 = now();
			if (k[4] == 0)
				for (long i = 0; i < n; i++) c[i] = b[a[i]];
			else
				twopass(c, b, a, d, ptr, n, blk);
			double t = now() - t0;
			best = t < best ? t : best;
			for (long i = 0; i < n; i += 1 + n / 97)
				if (c[i] != b[a[i]]) {
					fprintf(stderr, "%s: z[%ld] wrong\n", k, i);
					return 1;
				}
		}
	} else if (strcmp(k, "matmul") == 0) {
		fill(a, cells);
		fill(b, cells);
		for (int r = 0; r < runs; r++) {
			double t0 = now();
			matmul(c, a, b, n);
			double t = now() - t0;
			best = t < best ? t : best;
		}
		uint32_t s = 0; // one entry checked by its definition
		for (long j = 0; j < n; j++) s += a[(n / 2) * n + j] * b[j * n + n / 3];
		if (s != c[(n / 2) * n + n / 3]) {
			fprintf(stderr, "matmul: wrong entry\n");
			return 1;
		}
	} else {
		int bits = 0;
		while ((1L << bits) < n) bits++;
		for (int r = 0; r < runs; r++) {
			fill(a, n);
			if (strcmp(k, "radix-count") == 0 || strcmp(k, "radix") == 0 || strcmp(k, "bucket") == 0 || strcmp(k, "bucket-count") == 0)
				for (long i = 0; i < n; i++) a[i] %= (uint32_t)n;
			double t0 = now();
			if (strcmp(k, "quicksort") == 0)
				quicksort(a, 0, n - 1);
			else if (strcmp(k, "mergesort") == 0)
				mergesort(a, b, n);
			else if (strcmp(k, "heapsort") == 0)
				heapsort(a, n);
			else if (strcmp(k, "radix-count") == 0)
				radixcount(a, b, n, bits);
			else if (strcmp(k, "radix") == 0)
				radixsort(a, n, bits);
			else if (strcmp(k, "bucket") == 0)
				bucketsort(a, n, bits);
			else if (strcmp(k, "bucket-count") == 0)
				bucketcount(a, b, n, bits);
			else {
				fprintf(stderr, "kernels: unknown kernel %s\n", k);
				return 2;
			}
			double t = now() - t0;
			best = t < best ? t : best;
			check_sorted(a, n, k);
		}
	}
	printf("%s %ld %.6g\n", k, n, best);
	return 0;
}
