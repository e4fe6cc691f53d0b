// Package sim is the trace simulator of the MBRAM model (the MBRAM paper, section
// II.d, model rules 1–8): it is fed the memory accesses and conditional
// branches of a real run, one at a time, and charges time by the rules, so
// a closed form of engine/mbram can be checked against what the rules give
// for the accesses the program really makes.
//
// # The cache
//
// A fully associative cache of mu2 = C/B lines with exact LRU replacement
// (rule 6), initially empty (rule 4). Reads and writes alike bring their
// line in (rules 5 and 7: write-allocate). A dirty line is written back
// when it is evicted and, by Finish, at the end of the run. Every line
// transfer, fill or write-back, moves B bytes (rule 1).
//
// # The region: which transfers are sequential
//
// Rule 2 lets a transfer be charged at β1 when it belongs to one of at most
// mu1 sequential streams "in a region of code" with no other memory
// traffic; everything else is charged at β2. The paper does not say how
// long a region is. Here a region is a sliding window of the last K line
// fills (K = 8 by default, or mu1+1 when mu1 is larger, at most 64;
// Config.Window sets it):
//
//   - A stream is a chain of fills of consecutive lines, in either
//     direction: a fill whose line is next to the last line of a stream
//     that has a fill among the previous K−1 fills (a stream of the
//     region) continues that stream, the most recently continued one when
//     both neighbours qualify. A fill that continues none starts a stream
//     of its own; a stream with no fill left in the region is forgotten.
//   - A fill is sequential, charged B/β1, when it continues a stream and
//     the last K fills, itself included, belong to at most mu1 distinct
//     streams. Otherwise it is charged B/β2.
//   - A write-back is charged like the fill of the same line: the write of
//     a line belongs to the same program stream as its read (the MBRAM paper
//     III.C charges reading and writing Z as one stream, 2·4N/β1, and the
//     read-modify-write of the D blocks as 3·4N/β2 with the reads).
//
// Why this reading. Counting traffic that belongs to no stream as a stream
// of one line makes "no other traffic" and "at most mu1 streams" one test:
// a copy (two streams) runs at β1, a three-way merge or a scan with random
// reads in between does not. The window must be longer than mu1 so that
// mu1+1 interleaved streams are ever seen together; eight fills is twice
// the four DRAM banks that motivate mu1 in the MBRAM paper II.a, long enough to
// see a bank conflict coming and short enough that one stray fill spoils
// only its neighbours. The first line of a stream is charged at β2 because
// it cannot be known to start a stream when it is fetched (the paper asks
// for sequences of at least two blocks).
//
// The paper applies rule 2 less strictly in its own derivation of the
// traditional permutation product: it charges the scans of X and Z at β1
// although a random line of Y is fetched between any two of their lines.
// This simulator charges them at β2, so there it is slower than the closed
// form by 3wN(1/β2 − 1/β1).
//
// # Branches
//
// Every conditional branch that a kernel reports goes through a predictor,
// one state per branch site, and each misprediction costs m (rule 3).
// Majority is the paper's idealised rule: predict the outcome seen most
// often so far at the site (a tie, including the first execution, predicts
// not taken). TwoBit is a 2-bit saturating counter per site starting at
// weakly not taken. Kernels report data-dependent branches (comparisons
// of keys); loop-closing branches are predicted correctly by both
// predictors except at loop exit and are left out.
//
// # Speed and slices
//
// The exact LRU order is kept as a recent set, the four most recently
// used lines, followed by a list of the others. Within the set the order
// is one byte (four 2-bit entry numbers) and an access to one of the four
// lines replaces it by a table lookup, moving nothing: the scans of X and
// Z in the permutation product, the two ends of a partition and the runs
// of a merge stay in the set. A line outside the set enters it, and the
// set's least recent line goes to the front of the list; that keeps the
// order exact, because every line of the list is older than every line of
// the set. Lines enter the list only at the front, and leave it at the
// tail (evicted) or anywhere (hit), so the list is a ring of slots in
// the order they entered, with a hole where a hit took a line out; the
// ring is twice the lines and closes its holes when full, so a hit in the
// list costs one store and a miss pops the tail and pushes the front
// without touching any neighbour.
//
// Read and Write are inlined into the kernels and cost a compare when
// they hit the most recently used line (Write once it knows that line is
// dirty); the set's dirty bits are a byte, so no access stores a pointer.
// Batch takes a buffer of accesses (the permutation product passes 768 at
// a time): it saves the kernel a call per access, and runs the accesses
// before the next slice boundary in a loop with no hook to call, so the
// loop stays in registers.
//
// A miss (written out in one function, its state in locals) finds the
// line absent from a chained hash table with four to eight buckets per
// line (most lookups read one empty bucket), takes the list's tail as the
// victim and reuses its slot: 16 bytes holding the line with the dirty and
// sequential flags in its top bits, its place in the ring and its chain
// link. The region is a ring of the last K fills holding each fill's line
// while it is the end of its stream: a stream is known by its end, the
// streams of the region are its ends, and a small filter of end lines by
// their low byte lets most random fills skip the scan of the ring.
// Nothing allocates per access.
//
// A long run is cut into slices with OnSlice: the hook reads Counts (a
// cost series for a chart), reports progress, lets a browser yield, and
// stops the run by returning an error. Phase marks split the result by
// phase of a kernel.
//
// The simulator is deterministic: the same accesses give the same counts.
package sim
