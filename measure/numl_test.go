package measure

import (
	"bytes"
	"context"
	"testing"

	"memwall/engine/numl"
)

// TestPlanNUMLVariesNAndU checks that the plan separates the bytes sent
// from the lines touched: the fit of M1 (the lines-touched paper's eq. 2 with f(u) = u)
// needs rows where n is the same and u differs, and rows where u is the
// same and n differs; with rows alone u ≈ n/L and the two are collinear.
func TestPlanNUMLVariesNAndU(t *testing.T) {
	for _, quick := range []bool{false, true} {
		plan := PlanNUML(64, quick)
		if len(plan) == 0 {
			t.Fatalf("quick=%v: empty plan", quick)
		}
		uByN := map[int64]map[int64]bool{}
		nByU := map[int64]map[int64]bool{}
		kinds := map[numl.Kind]int{}
		for _, s := range plan {
			if err := s.Validate(); err != nil {
				t.Fatalf("quick=%v: %+v: %v", quick, s, err)
			}
			u, err := numl.Lines(s)
			if err != nil {
				t.Fatal(err)
			}
			n := s.Bytes()
			if uByN[n] == nil {
				uByN[n] = map[int64]bool{}
			}
			if nByU[u] == nil {
				nByU[u] = map[int64]bool{}
			}
			uByN[n][u] = true
			nByU[u][n] = true
			kinds[s.Kind]++
		}
		sameN, sameU := 0, 0
		for _, us := range uByN {
			if len(us) > 1 {
				sameN++
			}
		}
		for _, ns := range nByU {
			if len(ns) > 1 {
				sameU++
			}
		}
		if sameN < 3 || sameU < 2 {
			t.Errorf("quick=%v: %d byte counts with several u, %d line counts with several n; want n and u varied independently", quick, sameN, sameU)
		}
		if kinds[numl.Rows] == 0 || kinds[numl.Columns] == 0 {
			t.Errorf("quick=%v: kinds %v", quick, kinds)
		}
	}
	// By hand: the quick plan's 4 columns of 4 bytes from 1024 rows of
	// 1024 bytes carry 16384 bytes, one line per row at offset 0 (u =
	// 1024), and two per row at offset 56 (bytes 56..71 of each row: u =
	// 2048); the same bytes as 16 whole rows touch 16384/64 = 256 lines.
	want := map[[2]int64]int64{{int64(numl.Columns), 0}: 1024, {int64(numl.Columns), 56}: 2048, {int64(numl.Rows), 0}: 256, {int64(numl.Rows), 56}: 257}
	for _, s := range PlanNUML(64, true) {
		if s.W != 1024 || s.Bytes() != 16384 {
			continue
		}
		u, _ := numl.Lines(s)
		key := [2]int64{int64(s.Kind), s.Offset}
		if w, ok := want[key]; !ok || u != w {
			t.Errorf("%v at o=%d: u = %d, hand count %d", s.Kind, s.Offset, u, w)
		}
		delete(want, key)
	}
	if len(want) > 0 {
		t.Errorf("shapes missing from the quick plan: %v", want)
	}
}

// TestPlaceArrays checks by the real address that every array starts at
// the wanted offset within its line and that they do not overlap.
func TestPlaceArrays(t *testing.T) {
	buf := make([]byte, 1<<16)
	for _, o := range []int64{0, 1, 37, 63} {
		starts, err := placeArrays(buf, 3, 5000, o, 64)
		if err != nil {
			t.Fatal(err)
		}
		for j, st := range starts {
			if got := addrOffset(buf[st:], 64); got != o {
				t.Errorf("o=%d array %d: at offset %d", o, j, got)
			}
			if j > 0 && st-starts[j-1] < 5000+arrayGap {
				t.Errorf("o=%d: arrays %d and %d overlap or touch", o, j-1, j)
			}
		}
	}
	if _, err := placeArrays(make([]byte, 100), 2, 5000, 0, 64); err == nil {
		t.Error("a buffer too small was accepted")
	}
}

// TestGatherScatter compares the gather with a byte-by-byte oracle and
// checks that scattering back restores the array.
func TestGatherScatter(t *testing.T) {
	arr := make([]byte, 20*30)
	for i := range arr {
		arr[i] = byte(i*13 + 1)
	}
	for _, s := range []numl.Shape{
		{Kind: numl.Columns, W: 20, K: 2, Elem: 4, R: 30, Line: 64},
		{Kind: numl.Columns, W: 20, K: 5, Elem: 4, R: 30, Line: 64},
		{Kind: numl.Rows, W: 20, K: 7, Line: 64},
	} {
		var want []byte
		for i := int64(0); i < 30; i++ {
			for j := int64(0); j < 20; j++ {
				inMsg := (s.Kind == numl.Rows && i < s.K) || (s.Kind == numl.Columns && j < s.K*s.Elem)
				if inMsg {
					want = append(want, arr[i*20+j])
				}
			}
		}
		send := make([]byte, s.Bytes())
		if n := gather(send, arr, s); n != s.Bytes() || !bytes.Equal(send, want) {
			t.Errorf("%v k=%d: gathered %d bytes, differ from the oracle", s.Kind, s.K, n)
		}
		back := append([]byte(nil), arr...)
		for i := range send {
			send[i] ^= 0xff
		}
		scatter(back, send, s)
		for i := range send {
			send[i] ^= 0xff
		}
		scatter(back, send, s)
		if !bytes.Equal(back, arr) {
			t.Errorf("%v k=%d: scatter did not restore the array", s.Kind, s.K)
		}
	}
}

// TestMeasureNUML runs a tiny plan with a small flush: every point has a
// positive time, its u matches the engine at the point's offset, and m
// messages carry m times the bytes and lines.
func TestMeasureNUML(t *testing.T) {
	os := OSInfo{Line: 64, LastCache: 1 << 20}
	shapes := []numl.Shape{
		{Kind: numl.Columns, W: 1024, K: 2, Elem: 4, R: 256, Offset: 56},
		{Kind: numl.Rows, W: 1024, K: 2, Offset: 3},
	}
	run, err := MeasureNUML(context.Background(), NUMLOptions{Reps: 3, FlushBytes: 1 << 20, Messages: []int64{1, 3}, Scatter: true, Shapes: shapes, OS: &os})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Points) != 2*2*2 {
		t.Fatalf("%d points, want 8", len(run.Points))
	}
	for _, p := range run.Points {
		if !(p.Seconds.Median > 0) {
			t.Errorf("%+v: no time", p)
		}
		s := p.Shape
		u, _ := numl.Lines(s)
		if p.U != p.M*u || p.N != p.M*s.Bytes() {
			t.Errorf("%+v: n, u not m times the message's (%d, %d)", p, s.Bytes(), u)
		}
	}
	// By hand: 2 columns of 4 bytes at offset 56 are bytes 56..63 of
	// each row's first line: one line per row, u = 256.
	if p := run.Points[0]; p.M != 1 || p.U != 256 || p.Offset != 56 {
		t.Errorf("first point %+v, want m=1, u=256 at o=56", p)
	}
	// Rows: 2048 bytes from offset 3 cover floor((3 + 2047)/64) + 1 = 33
	// lines.
	if p := run.Points[2]; p.Kind != "rows" || p.U != 33 {
		t.Errorf("rows point %+v, want u = 33", p)
	}
	if _, err := MeasureNUML(context.Background(), NUMLOptions{Reps: -1}); err == nil {
		t.Error("negative reps accepted")
	}
	if _, err := MeasureNUML(context.Background(), NUMLOptions{Line: 48, OS: &os}); err == nil {
		t.Error("a line of 48 bytes accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MeasureNUML(ctx, NUMLOptions{Reps: 1, FlushBytes: -1, Shapes: shapes, OS: &os}); err == nil {
		t.Error("a cancelled context ran")
	}
}
