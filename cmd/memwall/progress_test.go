package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressEstimate: nothing in the first two seconds, then lines with
// the fraction done and the time left at the rate so far (at 25% after
// 3 s, 9 s remain), spaced out as the run grows, and the total at the end.
func TestProgressEstimate(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, "simulate")
	clock := p.start
	p.now = func() time.Time { return clock }
	steps := []struct {
		at   time.Duration
		done int64
	}{{time.Second, 10}, {3 * time.Second, 25}, {4 * time.Second, 30}, {5 * time.Second, 40}, {30 * time.Second, 60}, {31 * time.Second, 61}, {40 * time.Second, 80}}
	for _, s := range steps {
		clock = p.start.Add(s.at)
		p.update(s.done, 100, "accesses")
	}
	clock = p.start.Add(50 * time.Second)
	p.done()
	want := "memwall simulate: 25% of about 100 accesses, 3 s elapsed, about 9 s left (Ctrl-C stops)\n" +
		"memwall simulate: 40% of about 100 accesses, 5 s elapsed, about 7.5 s left (Ctrl-C stops)\n" +
		"memwall simulate: 60% of about 100 accesses, 30 s elapsed, about 20 s left (Ctrl-C stops)\n" +
		"memwall simulate: 80% of about 100 accesses, 40 s elapsed, about 10 s left (Ctrl-C stops)\n" +
		"memwall simulate: done in 50 s\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var quiet strings.Builder
	q := newProgress(&quiet, "fit")
	q.update(1, 2, "rows")
	q.done()
	if quiet.Len() != 0 {
		t.Errorf("a short run printed %q", quiet.String())
	}
}
