// Package hier simulates a memory-access trace through a cache hierarchy,
// the foundation of the hierarchy model: where the MBRAM paper's model
// (engine/sim, engine/mbram) has one cache filled from memory, a current
// machine has several levels (machine.Machine.Levels), and each level's
// traffic costs time at the bandwidth of the level below it.
//
// # The hierarchy
//
// Levels L1..Ln, each a fully associative cache with exact LRU
// replacement of Size/Line lines, initially empty. Every access goes down
// through all the levels: it looks its line up in L1, and whether L1 hits
// or misses, in L2, and so on, so that the line becomes the most recently
// used of every level. A level that does not hold the line fills it from
// the level below (Ln from memory), evicting its least recently used
// line. Reads and writes alike bring their line in (write-allocate), and a
// level writes a dirty line back to the level below when it evicts it
// (write-back).
//
// Going outwards the lines do not shrink and the number of lines does not
// fall (machine.ValidateLevels), which makes the hierarchy inclusive:
// every level holds every line the levels above it hold. For equal lines
// that is LRU's inclusion property. For a longer line below: the k most
// recently used short lines lie in at most k long lines, and any long
// line used more recently than one of those has a short line used more
// recently still, so those long lines are among the k most recently used.
// Hence an access that hits a level hits every level below it, the
// accesses that reach level i are the misses of level i−1, and a dirty
// line written back by a level finds its line in the level below.
//
// An access is a word that crosses no line of the shortest line size
// (Read, Write, ReadDependent, Batch); Access splits a longer access into
// one access per short line it spans, as engine/sim does with its one
// line size.
//
// # The levels' misses: zones on one LRU list
//
// A level's counts need of each access only whether it misses the level,
// not its exact stack distance. By default each line size keeps, after
// the four most recently used lines (below), one LRU list of the other
// lines its last level holds, most recent first, with a boundary at each
// smaller level's capacity; each line on the list carries its zone, the
// number of the line size's levels it lies outside of, and a line off
// the list lies outside all of them. An access in zone z misses levels
// 1..z; taking its line off the list moves every line before it one
// place down, so the line at each boundary j < z leaves level j (its
// zone grows by one) and the boundary moves to the line before it: a few
// pointer moves per level, no logarithm. The list runs through the
// lines' own slots, which hold its links (zones.go).
//
// # Stack distances and the miss curve (Config.Curves)
//
// When Config.Curves asks for the miss curve, the simulator computes the
// exact stack distance of every access instead, which gives the levels'
// misses as well; Curves is nil otherwise.
//
// The stack distance of an access is the number of distinct other lines
// accessed since the last access to its line (infinite for the first).
// A fully associative LRU cache of c lines misses exactly the accesses at
// distance c or more, whatever the other caches do, so with the distance
// of each access in lines of each line size, one pass gives every level's
// hits and misses (level i misses iff the distance in lines of Line_i is
// at least Size_i/Line_i) and, as a histogram of distances, the miss curve
// of every cache size at once (Curves, Curve.Misses). Levels that share a
// line size share one distance.
//
// The distances are exact, by the method of Bennett and Kruskal made
// logarithmic as Olken did: every line ever accessed holds one position on
// a time line, that of its last access, and an access's distance is the
// number of positions in use after its line's previous one. The positions
// in use are a bitset; a Fenwick tree over the bitset's 64-bit words
// counts them, so a distance is a popcount and a walk of the tree, or only
// popcounts when the previous position is within eight words; the tree
// has one 4-byte counter per 64 positions and stays in the host's cache.
// When the time line is full it is compacted, the positions in use
// renumbered in order, and it is kept at least twice as long as the lines
// on it, so compaction costs O(1) per access amortised and the memory is
// proportional to the distinct lines, not to the length of the trace.
//
// In both modes the four most recently used lines are kept apart, in
// order, off the time line and off the list (the scans of a loop stay
// there): an access to one of them has its rank for distance and touches
// nothing else but, for a write, its line's dirty bits; the line that
// leaves the four takes the next position of the time line, or the front
// of the list, where it belongs. A line's state (position or the list's
// links, its zone and dirty bits) is 12 bytes, and 4 more for each level (its latest fill into the
// level, for the stream rule, and whether that fill was sequential), in
// pages of 256 consecutive lines, found through a flat table of page
// numbers (4 bytes a page number up to the highest, at most 4 MiB) or,
// past it, a small hash table of pages, so an array's lines share pages; a
// line of three levels costs 24 bytes when its page is full (28 with the
// histogram's 4-byte bin), and at worst a page's 6 KiB when the accessed
// lines are scattered one per 256. The histogram's increments are queued and applied 64 at a
// time, which lets the host overlap their cache misses; its bins are
// added into 64-bit ones before any can overflow. Nothing allocates per
// access once the pages, the list, the time line and the histogram have
// grown to the trace's lines, and the simulator is deterministic.
//
// # Cost
//
// Under callgrind, the permutation product at N = 2^22 through three
// levels of 64-byte lines (BenchmarkPermTrace) takes about 163
// instructions a simulated access by default, 111 through one level
// (BenchmarkPermTraceOneLevel) and 274 with the distances
// (BenchmarkPermTraceCurves); engine/sim takes 112 for its one level,
// its kernel's loop included. Batch queues the fills of its far accesses
// and counts them a level at a time (fills.go), so that each level's
// stream rule runs in a loop of its own; the rule reads the words of the
// line and its two neighbours beside their slots (stream.go), with no
// hash and no ring. While Batch runs, the recent set is kept by each
// line's last access rather than in order, so that an access to it
// writes one stamp instead of moving the set, and its counts of writes
// and dependent accesses are kept in registers. Of the 163, about 49 are
// the levels' fills (some 51 instructions a fill of a level, 2.6 fills a
// far access), 48 the far accesses' lookups of their slots and moves on
// the zones' list (about 129 each, three accesses in eight being far
// here), and 57 the loop over the accesses, the recent set and the
// queue. Earlier versions took 167 and 121 through one level (the list
// of its own nodes, 16 bytes each, a node's line found through its
// slot; the list through the slots saves that step, and a list with no
// boundary, one level, returns before it looks for them), 176 (the pages found by hash alone), 198
// (with a ring of each level's last K fills and a hashed filter of their
// ends, and the recent set in order), 214 (before the scans' fills stayed
// in the fills' loop), 247 (before the queue) and 322 (the distances on
// every access, before the zones).
//
// Measured and set aside, each against the 167 of the list of nodes: a filter of the fills
// far from every stream, which skips the rule for them, either at once
// (the others counted a fill at a time, 166 to 174) or in the queue (163,
// and 128 through one level); the list as a time line of entries cleared
// in place, whose boundaries only move forward (174); the recent set's
// loop in a function of its own (185); two passes over each chunk,
// the recent set first (193); and a queued fill packed in one word, the
// line found again from its slot (173, and 124 through one level). Against
// the 163 of the list through the slots: a far access's fill queued inside
// the list's move, where its slot is at hand (173, and 118 through one
// level). Go keeps no register across a call, and a
// loop with more live values than registers reloads them on every turn,
// so moving work between loops mostly moves its cost.
//
// The words by line cost memory the ring did not, 4 bytes a line for each
// level, and where the simulator's tables outgrow the host's cache that
// costs time the instructions saved do not make up: on the Intel guest
// of docs/hierarchy.md the permutation product through three levels took
// 13.0 ns a simulated access at N = 2^16 (13.8 with the ring), 16.1 at
// 2^18 (16.9), 22.5 at 2^20 (22.9) and 28.2 at 2^22 (26.3), where the
// tables hold 786 432 lines. The list through the slots made the slot 12
// bytes where it was 8, for the distances too: on the AMD guest (the
// fastest of three runs of four) three levels went from 23.4 to 21.3 ns a
// simulated access, one level from 10.2 to 11.3 and the distances from
// 45.0 to 50.1 (their instructions from 269 to 274, a slot's index now
// a multiply by 12); the list's links kept apart from the slots, which
// stay 8 bytes, took 113 and 166 instructions. The instructions are the measure here, as
// they do not change with the host; the runs the tool makes most, of
// programs at sizes it extrapolates from, are the small ones.
//
// # Sequential and random fills
//
// Each level tells its sequential fills from its random ones by engine/sim's
// stream rule, level by level: the region is the level's last K fills
// (K = 64 by default, Config.Window); a stream is a chain of fills of
// consecutive lines, in either direction; a fill whose line is next to the
// last line of a stream that has a fill among the level's previous K−1
// fills continues it (the most recent such stream) and is sequential,
// charged at the level's β1; any other fill starts a stream and is random,
// charged at β2.
//
// engine/sim also requires the region to hold at most μ1 streams, the
// MBRAM paper's rule 2, which makes a scan with random traffic between its
// lines random. That cap is left out here: the cores the hierarchy model
// is for follow tens of streams at once and keep prefetching a scan
// through unrelated misses, so the scans of X and Z in the permutation
// product are sequential fills at every level, and the lines of Y between
// two of their lines are random. The region is longer than engine/sim's
// eight fills so that a scan stays a stream while at most K−2 other fills
// of the level come between two of its lines: a scan of 4-byte words
// brings a new line every B/4 elements, with a random line of Y filled at
// nearly every element in between, so K = 64 covers lines up to 128 bytes
// (the MBRAM paper's machines). Wider gaps (1-byte words, 64-byte lines)
// need a longer region; a longer region also makes more random fills
// sequential by chance, about 2K/M of the random fills over an array of M
// lines.
//
// # Dependent accesses
//
// An access is dependent when its address came from a chain of loads
// (engine/lang marks them; DepBit, ReadDependent): the core cannot issue
// it before the load it depends on completes, so its misses to memory do
// not overlap and each waits the memory's load-to-use latency. The
// counts keep dependent misses and dependent random fills apart at every
// level.
//
// # Write-backs
//
// A line is dirty in a level from a write to it until the level evicts
// it. Each line keeps a dirty bit per level, set in every level by a
// write (inclusion makes that the same as a dirty line travelling down one
// level at each eviction), and the eviction is counted when the line is
// next accessed and misses the level, or by Finish, which counts the
// write-back of every line still dirty, as engine/sim's Finish does. So
// the write-backs are exact after Finish, and during a run lag the
// evictions of lines not accessed since. A write-back is sequential when
// the fill of its line into that level was (the write of a line belongs to
// the same program stream as its read, as in engine/sim).
//
// # Time
//
// Each level's traffic is charged at the bandwidths of filling it from the
// level below, B_i = Line_i, with the level's β1,i and β2,i:
//
//	T_i = (seq fills_i + write-backs_i)·B_i/β1,i
//	    + (random fills_i − D)·B_i/β2,i
//	    + D·λ
//
// A write-back is charged at β1 whichever its fill was: it is a posted
// write that no load waits for, so what it costs is the level's bandwidth,
// while β2 (measured by independent random reads) is the cost of a fill
// that the core waits for. Charged at β2, the random write-backs of the
// simple radix and bucket sorts' 64 buckets and of heapsort's parents
// put those kernels at 0.68, 0.79 and 0.76 of their time beyond the
// last cache on the Intel guest; at β1, at 0.91 to 1.0.
//
// where D is 0 except for the last level when the machine's memory latency
// λ (MemLatency) is given: then D is the last level's dependent random
// fills, each charged λ instead of B_n/β2,n. A sequential dependent fill
// stays at β1 (a prefetcher following the stream does not need the
// load's address). The time is T = Σ T_i, plus ops/ComputeRate for the
// simple operations given to Compute when the compute rate is given. The
// terms add up, as the MBRAM paper's do, with two exceptions the machine
// gives: the first level's independent lines run beside the compute time
// (Config.L1Fill, L1Exposed), and on a machine whose levels' transfers
// overlap (Config.LevelOverlap, ω) a line's steps through the levels it
// passes overlap, all but its largest hiding ω, as the
// execution-cache-memory model has them on AMD's Zen cores, while lines
// that stop at different levels, and sequential and random lines, add
// (HideLevels; docs/hierarchy.md, the levels' overlap).
//
// A machine without Levels is the paper's one level (C, B, β1, β2), and
// its misses and write-backs are engine/sim's on the same trace; only the
// classification of fills differs (the cap above).
//
// # How sure a prediction is
//
// Sensitivity predicts again with each calibrated parameter moved by its
// spread over the calibration's rounds (machine.Machine.Spread), the rest
// held; Uncertainty adds the moves in quadrature, and GapUncertainty does
// the same for the gap between two predictions, parameter by parameter,
// so that what slows both sorts of a pair alike does not part them
// (docs/hierarchy.md, "How sure a prediction is").
package hier
