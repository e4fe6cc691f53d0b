package measure

import (
	"context"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// TestBucketsAt: one sample times each bucket count, and its last
// scatter (128 buckets) leaves the keys grouped by their 7-bit digit,
// stably, as a brute-force grouping does.
func TestBucketsAt(t *testing.T) {
	buf := make([]uint64, 1<<14)
	const size = 16 << 10 // 4096 keys an array
	times, err := bucketsAt(context.Background(), buf, size, 64, 5)
	if err != nil || len(times) != len(streamBuckets) {
		t.Fatalf("bucketsAt = %v, %v; want %d times", times, err, len(streamBuckets))
	}
	for k, s := range times {
		if !(s > 0) || s > 1e-3 {
			t.Errorf("%d buckets: %g s a line; want a positive time under 1 ms", streamBuckets[k], s)
		}
	}
	checkGrouped(t, buf, size, 127)
	if _, err := bucketsAt(context.Background(), buf[:0], size, 64, 5); err == nil {
		t.Error("an empty buffer gave no error")
	}
}

// TestStreamBound: the most buckets within 1.5 times the fastest, plus
// the read stream, on hand-made medians.
func TestStreamBound(t *testing.T) {
	pts := func(ns ...float64) []StreamPointStat {
		out := make([]StreamPointStat, len(ns))
		for i, v := range ns {
			out[i] = StreamPointStat{Buckets: streamBuckets[i], Scatter: Stat{Median: v * 1e-9}}
		}
		return out
	}
	for _, c := range []struct {
		name string
		pts  []StreamPointStat
		want int
	}{
		// The development machine: 23, 21.7, 28.8, 56.1, 110 ns; 1.5 ×
		// 21.7 = 32.55 takes 32 buckets, not 64.
		{"Intel guest", pts(23, 21.7, 28.8, 56.1, 110), 33},
		{"only 16", pts(20, 22, 31, 58, 110), 17},
		{"all stream", pts(20, 20, 21, 22, 24), 129},
		// Slower into 8 (its positions' store-to-load chains) than into
		// 16 does not cut the bound.
		{"8 slow", pts(40, 21.7, 28.8, 56.1, 110), 33},
		{"no points", nil, 0},
		{"no times", pts(0, 0, 0, 0, 0), 0},
	} {
		if got := streamBound(c.pts); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestSetStreams: the bound is set only from arrays at least twice the
// last cache, and the notes say which.
func TestSetStreams(t *testing.T) {
	pts := []StreamPointStat{{Buckets: 8, Scatter: Stat{Median: 23e-9}}, {Buckets: 16, Scatter: Stat{Median: 22e-9}}, {Buckets: 64, Scatter: Stat{Median: 56e-9}}}
	m := machine.Machine{C: 32 << 20, Notes: map[string]string{}}
	setStreams(&m, pts, 64<<20)
	if m.Streams != 17 || !strings.Contains(m.Notes["streams_method"], "16: 22 ns") {
		t.Errorf("64 MiB arrays, 32 MiB cache: streams %d, notes %q", m.Streams, m.Notes["streams_method"])
	}
	m = machine.Machine{C: 32 << 20, Notes: map[string]string{}}
	setStreams(&m, pts, 48<<20)
	if m.Streams != 0 || !strings.Contains(m.Notes["streams_method"], "not measured") {
		t.Errorf("48 MiB arrays, 32 MiB cache: streams %d, notes %q", m.Streams, m.Notes["streams_method"])
	}
}
