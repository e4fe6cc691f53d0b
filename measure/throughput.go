package measure

import (
	"context"
	"time"
)

// Throughput method: the beta2 kernel (randomRead: four interleaved
// generators pick words uniformly at random, and no address depends on a
// loaded value, so the core keeps as many misses in flight as it can),
// restricted to the first S bytes of the shared buffer. The time per access
// at S is what the model charges for a random line of a working set of S
// bytes: B/beta2 once S is well beyond C, the cache's own rate below C.
// DetectCache reads C off this curve.
//
// Before each timed run the first S bytes are read once in order, one word
// per line: that leaves the cache holding the last C bytes of the set, the
// state the random reads settle into anyway (each of them hits with
// probability C/S whatever lines the cache holds), at the cost of one
// sequential pass instead of the many random passes a warm-up by random
// reads would need at large S. Like the latency curve, every size is
// measured once per round, so a burst of load spoils one sample of many
// sizes rather than every sample of one.

// ThroughputPoint is one point of the random-read throughput curve.
type ThroughputPoint struct {
	Size   int64 `json:"size"`   // working set in bytes
	Access Stat  `json:"access"` // seconds per random read
}

// touchLines reads one word per 64-byte line of a, in order.
func touchLines(a []uint64) uint64 {
	var s uint64
	for i := 0; i < len(a); i += nodeWords {
		s += a[i]
	}
	return s
}

// throughputAt measures seconds per random read over the first size bytes of
// buf: one sequential pass, an untimed quarter run, then one timed run.
func throughputAt(ctx context.Context, buf []uint64, size int64, accesses int, seed uint64) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := int(size / 8)
	n = max(1, min(n, len(buf)))
	a := buf[:n]
	accesses = max(4, accesses&^3)
	sink += touchLines(a)
	sink += randomRead(a, max(4, accesses/4&^3), seed^0x5bd1e995)
	t0 := time.Now()
	sink += randomRead(a, accesses, seed)
	return time.Since(t0).Seconds() / float64(accesses), nil
}

// throughputCurve measures the seconds per random read at every size
// (sampleRounds).
func throughputCurve(ctx context.Context, buf []uint64, sizes []int64, accesses, rounds int, step func(string)) ([]ThroughputPoint, error) {
	samples, err := sampleRounds(buf, sizes, rounds, "random-read throughput curve", step, func(b []uint64, size int64, r, i int) (float64, error) {
		return throughputAt(ctx, b, size, accesses, uint64(r*len(sizes)+i+1))
	})
	if err != nil {
		return nil, err
	}
	out := make([]ThroughputPoint, len(sizes))
	for i, s := range sizes {
		out[i] = ThroughputPoint{Size: s, Access: Summarize(samples[i])}
	}
	return out, nil
}
