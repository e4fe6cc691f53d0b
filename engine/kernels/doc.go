// Package kernels holds instrumented implementations of the kernels of
// the MBRAM paper (the MBRAM model): the traditional and two-pass permutation
// products (section III, the two-pass one line by line as the paper's C
// code, with BLOCK_LENGTH = C/2/w), the row-major matrix product (IV),
// quicksort, mergesort, heapsort, the simple and distribution-count
// bucket sorts and the simple and distribution-count radix sorts (V and
// Appendix a–e).
//
// Each kernel really runs on data generated from a seed (random
// permutations, or keys uniform in 0..N−1 as in Fig. 5), checks its own
// result, and reports every memory access and every key comparison to an
// engine/sim simulator. The simulated addresses are those of the kernel's
// arrays laid out one after another in a virtual address space, each
// aligned to a line and to 4 KiB, starting at 1 MiB; a word is w bytes, a
// power of two no larger than a line. Kernel ids and parameters (n, w, b)
// are those of engine/mbram, so a simulated run and a closed form can be
// put side by side.
//
// Run works in slices: it calls a progress function and checks its
// context every Options.Slice accesses, so a browser can yield, show
// progress and a cost series, and cancel.
package kernels
