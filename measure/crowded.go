package measure

import (
	"context"
	"fmt"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Crowded method: every cache of a current core finds a line's set partly
// from the line's place in its 4 KiB page, so lines 4 KiB apart share one
// set of the first level, whatever level holds them. A matrix column
// whose rows are a multiple of 4 KiB reads such lines one after another,
// and on the AMD Zen 4 guest of docs/hierarchy.md each read took some
// 1.8 ns beyond a first-level hit, whether 32 or 1024 lines went round
// (L2 or L3 holding them), where lines 4160 bytes apart took 0.3 ns more
// than a hit. Calibration times independent reads going round
// crowdedLines lines 4 KiB apart (2 MiB, in L2 or L3 on current cores,
// their pages within the second-level TLB) against as many reads going
// round 64 lines side by side (first-level hits), the same loop
// (GatherWords), and keeps the difference a read: machine.CrowdedRead.

// crowdedLines is the lines, 4 KiB apart, the crowded reads go round.
const crowdedLines = machine.CrowdedLines

// crowdedReads is the reads a round times of each kind: some 10 ms of
// crowded reads and 2.5 ms of first-level hits natively; a page, whose
// clock is coarse, times four times as many (browserCrowdedReads), so
// that the hits too last 20 ms or more under WebAssembly.
const (
	crowdedReads        = 1 << 22
	browserCrowdedReads = 1 << 24
)

// CrowdedResult is the crowded reads' measurement: the lines they went
// round and their seconds a read beyond a first-level hit, by round.
type CrowdedResult struct {
	Lines   int  `json:"lines"`
	PerRead Stat `json:"per_read"`
}

// crowdedIndices are the word indices of the two cycles: lines page
// bytes apart, and 64 lines side by side, each crowdedLines long.
func crowdedIndices() (crowded, packed []int32) {
	const lineWords, pageWords = 8, machine.WalkPage / 8
	crowded, packed = make([]int32, crowdedLines), make([]int32, crowdedLines)
	for k := range crowded {
		crowded[k] = int32(k * pageWords)
		packed[k] = int32(k % 64 * lineWords)
	}
	return crowded, packed
}

// crowdedRounds times reads crowded reads against as many first-level
// hits, rounds times, in buf (which must hold crowdedLines pages).
func crowdedRounds(ctx context.Context, buf []uint64, reads, rounds int) (CrowdedResult, error) {
	c, err := newCrowder(buf, reads)
	return takeRounds[CrowdedResult](ctx, rounds, c, err)
}

// crowder is crowdedRounds a round at a time (rounder).
type crowder struct {
	buf             []uint64
	crowded, packed []int32
	reps            int
	per             []float64
}

func newCrowder(buf []uint64, reads int) (*crowder, error) {
	if int64(len(buf))*8 < crowdedLines*machine.WalkPage {
		return nil, fmt.Errorf("crowded reads: a buffer of %s holds no %d pages", units.FormatSize(int64(len(buf))*8), crowdedLines)
	}
	crowded, packed := crowdedIndices()
	sink += GatherWords(buf, crowded, 1) + GatherWords(buf, packed, 1)
	return &crowder{buf: buf, crowded: crowded, packed: packed, reps: max(1, reads/crowdedLines)}, nil
}

func (c *crowder) round(int) {
	t0 := time.Now()
	sink += GatherWords(c.buf, c.crowded, c.reps)
	tc := time.Since(t0).Seconds()
	t0 = time.Now()
	sink += GatherWords(c.buf, c.packed, c.reps)
	tp := time.Since(t0).Seconds()
	c.per = append(c.per, max(0, tc-tp)/float64(c.reps*crowdedLines))
}

func (c *crowder) result() CrowdedResult {
	return CrowdedResult{Lines: crowdedLines, PerRead: Summarize(c.per)}
}

// setCrowdedRead sets m's CrowdedRead from r, its median round, with its
// spread and a note; reads that took no longer than first-level hits
// leave it unset (0: such reads cost what the levels give) and return
// why.
func setCrowdedRead(m *machine.Machine, r CrowdedResult) string {
	t := r.PerRead.Median
	what := fmt.Sprintf("independent reads going round %d lines 4 KiB apart, one place of their pages, against as many going round 64 lines side by side: %s a read more", r.Lines, units.FormatSeconds(t))
	if !(t > 0) || t > machine.MaxL1Fill {
		return "crowded reads: " + what + "; crowded_read not set"
	}
	m.CrowdedRead = round3g(t)
	m.Spread["crowded_read"] = round3(r.PerRead.Spread)
	m.Notes["crowded_read"] = what
	return ""
}
