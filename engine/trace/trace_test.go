package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/sim"
)

func readAll(t *testing.T, f Format, text string, limit int64) ([]Record, error) {
	t.Helper()
	r := NewReader(strings.NewReader(text), f, limit)
	var recs []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

func TestPlain(t *testing.T) {
	text := "# a comment\n\nR 0x1000 4\nw 4096 8\r\n  W\t0XfF 1  \nr 0 4096"
	got, err := readAll(t, Plain, text, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{0x1000, 4, 'R'}, {4096, 8, 'W'}, {0xff, 1, 'W'}, {0, 4096, 'R'}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d: got %+v want %+v", i, got[i], want[i])
		}
	}
}

func TestLackey(t *testing.T) {
	text := `==12345== Lackey, an example Valgrind tool
==12345== Command: ./a.out
I  04000000,3
 L 0421fa00,8
 S 7ff000018,8
 M 0421fa00,4
I  04000003,5
==12345== 
`
	got, err := readAll(t, Lackey, text, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{0x421fa00, 8, 'R'}, {0x7ff000018, 8, 'W'}, {0x421fa00, 4, 'M'}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("got %+v want %+v", got, want)
	}
}

func TestBadLines(t *testing.T) {
	tests := []struct {
		f    Format
		text string
		line int64
		msg  string
	}{
		{Plain, "R 0x10 4\nX 0x10 4\n", 2, "access kind"},
		{Plain, "R 0x10\n", 1, "3 fields"},
		{Plain, "R 0x10 4 5\n", 1, "3 fields"},
		{Plain, "R 0xZZ 4\n", 1, "address"},
		{Plain, "R 12a 4\n", 1, "address"},
		{Plain, "R 0x10 0\n", 1, "size"},
		{Plain, "R 0x10 4097\n", 1, "size"},
		{Plain, "R 0x10 -1\n", 1, "size"},
		{Plain, "R 0x10000000000000000 4\n", 1, "address"},
		{Plain, "\n\n# c\nR 1 1\n" + strings.Repeat("x", 5000) + "\n", 5, "longer"},
		{Lackey, " L 10,8\n X 10,8\n", 2, "not a lackey record"},
		{Lackey, " L 10\n", 1, "address,size"},
		{Lackey, " L zz,8\n", 1, "hexadecimal"},
		{Lackey, " L 10,x\n", 1, "size"},
		{Lackey, "L10,8\n", 1, "not a lackey record"},
	}
	for _, tc := range tests {
		_, err := readAll(t, tc.f, tc.text, 0)
		var le *LineError
		if !errors.As(err, &le) || le.Line != tc.line || !strings.Contains(le.Msg, tc.msg) {
			t.Errorf("%v %q: got %v, want line %d with %q", tc.f, tc.text, err, tc.line, tc.msg)
		}
	}
}

func TestSizeLimit(t *testing.T) {
	text := strings.Repeat("R 0x10 4\n", 100) // 900 bytes
	if _, err := readAll(t, Plain, text, 900); err != nil {
		t.Errorf("900 bytes under a 900-byte limit: %v", err)
	}
	_, err := readAll(t, Plain, text, 899)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "line 100") {
		t.Errorf("got %v, want ErrTooLarge at line 100", err)
	}
}

func TestReplay(t *testing.T) {
	// Two reads of one 64-byte line, a write across lines 1 and 2 (two
	// accesses), a modify of line 5 (a read and a write): 6 accesses, 4
	// misses (lines 0, 1, 2, 5), 3 dirty lines written back at the end.
	text := "R 0 4\nR 60 4\nW 0x7c 8\n"
	lk := " M 140,4\n"
	s, _ := sim.New(sim.Config{Line: 64, Lines: 16, Mu1: 2, Beta1: 2e9, Beta2: 1e9})
	if _, err := Replay(context.Background(), s, nil, NewReader(strings.NewReader(text), Plain, 0), 0, nil); err != nil {
		t.Fatal(err)
	}
	st, err := Replay(context.Background(), s, nil, NewReader(strings.NewReader(lk), Lackey, 0), 0, nil)
	if err != nil || st.Records != 1 || st.Lines != 1 {
		t.Fatal(st, err)
	}
	c := s.Counts()
	if c.Accesses != 6 || c.Misses != 4 || c.Writebacks != 3 {
		t.Errorf("got %+v", c)
	}
}

func TestReplayCancel(t *testing.T) {
	text := strings.Repeat("R 0x10 4\n", 1000)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	s, _ := sim.New(sim.Config{Line: 64, Lines: 16, Mu1: 2, Beta1: 2e9, Beta2: 1e9})
	st, err := Replay(ctx, s, nil, NewReader(strings.NewReader(text), Plain, 0), 100, func(_ *sim.Sim, st Stats) {
		calls++
		if calls == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || st.Records != 400 {
		t.Errorf("got %v after %d records", err, st.Records)
	}
}

func fuzzParse(t *testing.T, f Format, data string) {
	// Replaying never panics, whatever the input.
	s, _ := sim.New(sim.Config{Line: 64, Lines: 4, Mu1: 2, Beta1: 2e9, Beta2: 1e9})
	Replay(context.Background(), s, nil, NewReader(strings.NewReader(data), f, 1<<20), 7, nil)
	c := s.Counts()
	if c.Misses+c.Writebacks != c.SeqTransfers+c.RandTransfers {
		t.Fatalf("transfers do not add up: %+v", c)
	}
	r := NewReader(strings.NewReader(data), f, 1<<20)
	for i := 0; i < 10000; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		if rec.Size < 1 || rec.Size > MaxSize || (rec.Kind != 'R' && rec.Kind != 'W' && rec.Kind != 'M') {
			t.Fatalf("bad record %+v", rec)
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"R 0x10 4\n", "W 18446744073709551615 4096\n# x\n", "R 0x 4", "r 1 1\r\nw 2 2", "\x00\xff", "R  0x10\t4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) { fuzzParse(t, Plain, data) })
}

func FuzzLackey(f *testing.F) {
	for _, s := range []string{"I  04000000,3\n L 0421fa00,8\n", " S 7ff000018,8\n M 10,4", "==1== x\n", " L ,", " M ffffffffffffffff,4096"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) { fuzzParse(t, Lackey, data) })
}

// Detect reads a Lackey file and a plain one alike; a Lackey file read as
// plain names the format it is.
func TestDetectFormat(t *testing.T) {
	lackey := "==123== Lackey, an example Valgrind tool\n==123== Command: ./a\nI  04000000,3\n L 7ff000,8\n S 7ff008,4\n"
	plain := "# a trace\nR 0x10 8\nW 16 4\n"
	for _, c := range []struct {
		text  string
		want  Format
		kinds string
	}{{lackey, Lackey, "RW"}, {plain, Plain, "RW"}} {
		r := NewReader(strings.NewReader(c.text), Detect, 0)
		kinds := ""
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			kinds += string(rune(rec.Kind))
		}
		if r.Format() != c.want || kinds != c.kinds {
			t.Errorf("detected %v with records %q; want %v, %q", r.Format(), kinds, c.want, c.kinds)
		}
	}
	_, err := NewReader(strings.NewReader(lackey), Plain, 0).Next()
	if err == nil || !strings.Contains(err.Error(), "Lackey") {
		t.Errorf("a Lackey file read as plain: %v; want a hint at Lackey", err)
	}
}

// Replay gives the tee every record in order, a modify as a read then a
// write and an access across a line boundary as one per line. By hand, on
// a 1 KiB L1 and a 4 KiB L2 of 64-byte lines: two passes of reads over 32
// lines (2 KiB) miss L1 on all 64 reads and L2 on the first pass's 32; a
// modify of a new line (64) misses both once, its write hits; a write of
// 8 bytes at 0x103c spans lines 64 (a hit) and 65 (a miss in both). L1:
// 68 accesses, 66 misses; L2: 66 accesses, 34 misses. Lines 64 and 65 end
// dirty in both levels: two write-backs each at the end.
func TestReplayTee(t *testing.T) {
	var b strings.Builder
	for pass := 0; pass < 2; pass++ {
		for l := 0; l < 32; l++ {
			fmt.Fprintf(&b, "R %#x 8\n", l*64)
		}
	}
	text := b.String()
	h, err := hier.New(hier.Config{Levels: []machine.Level{
		{Name: "L1", Size: 1 << 10, Line: 64, Beta1: 100e9, Beta2: 50e9},
		{Name: "L2", Size: 4 << 10, Line: 64, Beta1: 20e9, Beta2: 2e9},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Line: 64, Lines: 64, Mu1: 2, Beta1: 20e9, Beta2: 2e9})
	if err != nil {
		t.Fatal(err)
	}
	lk := " M 1000,16\n S 103c,8\n"
	if _, err := Replay(context.Background(), s, h, NewReader(strings.NewReader(text), Plain, 0), 0, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(context.Background(), s, h, NewReader(strings.NewReader(lk), Lackey, 0), 0, nil); err != nil {
		t.Fatal(err)
	}
	r := h.TraceResult()
	want := []struct{ acc, miss, wb int64 }{{68, 66, 2}, {66, 34, 2}}
	for i, l := range r.Levels {
		if c := l.Counts; c.Accesses != want[i].acc || c.Misses != want[i].miss || c.Writebacks != want[i].wb {
			t.Errorf("%s: %d accesses, %d misses, %d write-backs; want %+v", l.Level.Name, c.Accesses, c.Misses, c.Writebacks, want[i])
		}
	}
	if r.Reads != 65 || r.Writes != 3 || r.Dependent != 0 {
		t.Errorf("reads %d, writes %d, dependent %d; want 65, 3, 0", r.Reads, r.Writes, r.Dependent)
	}
	// A trace's time is its levels' traffic: no operations, no branches.
	if r.Note != hier.TraceNote || r.Ops != 0 || r.Branch != 0 || r.Seconds != r.Memory() || !(r.Seconds > 0) {
		t.Errorf("result %+v", r)
	}
}
