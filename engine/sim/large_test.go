package sim

import (
	"math/rand/v2"
	"testing"
)

// TestAgainstReferenceLarge drives caches of up to a few hundred lines with
// long traces over a few times as many lines, so the hash table wraps
// around, deletes by backward shift across runs of collisions, and the
// recent set and the list trade lines many times; some traces sit high in
// the address space so lines do not start at zero.
func TestAgainstReferenceLarge(t *testing.T) {
	cases := 40
	if testing.Short() {
		cases = 10
	}
	againstReferenceLarge(t, cases, rand.New(rand.NewPCG(3, 4)))
}

// TestGrowAgainstReference is TestAgainstReferenceLarge with simulators
// that start from one slot, so that the tables grow (grow) at every
// power of two of the lines filled, with lines in the recent set, the
// list and holes in its ring, and dirty and sequential flags on them;
// the counts must still be the reference's, and so after Reset, which
// keeps the grown tables.
func TestGrowAgainstReference(t *testing.T) {
	defer func(n int64) { initLines = n }(initLines)
	initLines = 1
	againstReferenceLarge(t, 20, rand.New(rand.NewPCG(5, 6)))
}

func againstReferenceLarge(t *testing.T, cases int, rng *rand.Rand) {
	t.Helper()
	for tc := 0; tc < cases; tc++ {
		line := int64(4) << rng.IntN(5)
		lines := int64(1 + rng.IntN(300))
		if tc%4 == 0 {
			lines = int64(1 + rng.IntN(6))
		}
		mu1 := 1 + rng.IntN(4)
		window := 0
		if rng.IntN(2) == 0 {
			window = mu1 + 1 + rng.IntN(20)
		}
		c := cfg(line, lines, mu1, window)
		span := uint64(lines) * uint64(1+rng.IntN(4)) * uint64(line)
		base := uint64(0)
		if rng.IntN(3) == 0 {
			base = rng.Uint64() >> 3 &^ (1<<20 - 1)
		}
		var ops []op
		for len(ops) < 20000 {
			switch rng.IntN(4) {
			case 0: // a scan, up or down, with a word of a random line between
				start := base + rng.Uint64N(span)
				down := rng.IntN(2) == 0
				for i := uint64(0); i < uint64(rng.IntN(200)); i++ {
					a := start + 4*i
					if down {
						a = start - 4*i
					}
					ops = append(ops, op{kind: "RW"[rng.IntN(2)], addr: a})
					if rng.IntN(3) == 0 {
						ops = append(ops, op{kind: 'R', addr: base + rng.Uint64N(span)})
					}
				}
			case 1: // random words
				for i := 0; i < 50; i++ {
					ops = append(ops, op{kind: "RW"[rng.IntN(2)], addr: base + rng.Uint64N(span)})
				}
			case 2: // a small working set, mostly in the recent set
				var set [6]uint64
				for i := range set {
					set[i] = base + rng.Uint64N(span)
				}
				for i := 0; i < 100; i++ {
					ops = append(ops, op{kind: "RW"[rng.IntN(2)], addr: set[rng.IntN(len(set))]})
				}
			case 3:
				ops = append(ops, op{kind: "AS"[rng.IntN(2)], addr: base + rng.Uint64N(span), size: uint64(rng.IntN(int(3 * line)))})
			}
		}
		f, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		r := newRef(c)
		run(fast{f}, ops)
		run(r, ops)
		mid1, mid2 := f.Counts(), r.c
		f.Finish()
		r.finish()
		if mid1 != mid2 || f.Counts() != r.c {
			t.Fatalf("case %d %+v:\nfast %+v\n ref %+v\n(before finish fast %+v ref %+v)", tc, c, f.Counts(), r.c, mid1, mid2)
		}
		// The same trace again after Reset gives the same counts.
		f.Reset()
		run(fast{f}, ops)
		f.Finish()
		if f.Counts() != r.c {
			t.Fatalf("case %d after Reset: %+v, want %+v", tc, f.Counts(), r.c)
		}
	}
}

// TestFinishThenWrite checks that a line written again after Finish (which
// leaves it clean) is written back again, whether the write is to the most
// recently used line, to another line of the recent set or through Batch.
func TestFinishThenWrite(t *testing.T) {
	for _, batch := range []bool{false, true} {
		s, _ := New(cfg(64, 16, 2, 0))
		r := newRef(cfg(64, 16, 2, 0))
		for _, addrs := range [][]uint64{{0, 0}, {0, 64, 0}, {128, 0, 64, 128}} {
			for _, a := range addrs {
				if batch {
					s.Batch([]uint64{a | WriteBit})
				} else {
					s.Write(a)
				}
				r.access(a, true)
			}
			s.Finish()
			r.finish()
			if s.Counts() != r.c {
				t.Fatalf("batch %v after %v: %+v, want %+v", batch, addrs, s.Counts(), r.c)
			}
		}
	}
}

// TestBatchAgainstReference feeds random traces through Batch, in batches
// of random length mixed with Read and Write, and requires the counts of
// the reference, and the slice hook called at the same points, with the
// same counts, as when every access goes through Read or Write.
func TestBatchAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for tc := 0; tc < 40; tc++ {
		c := cfg(int64(4)<<rng.IntN(5), int64(1+rng.IntN(100)), 1+rng.IntN(3), 0)
		span := uint64(c.Lines) * uint64(c.Line) * 3
		f, _ := New(c)
		one, _ := New(c)
		r := newRef(c)
		slice := int64(1 + rng.IntN(500))
		var got, want []Counts
		f.OnSlice(slice, func(s *Sim) error {
			got = append(got, s.Counts())
			return nil
		})
		one.OnSlice(slice, func(s *Sim) error {
			want = append(want, s.Counts())
			return nil
		})
		var buf []uint64
		for n := 0; n < 5000; {
			buf = buf[:0]
			for k := rng.IntN(40); k > 0; k-- {
				a := rng.Uint64N(span)
				if rng.IntN(2) == 0 { // often the same or the next word
					a = buf0(buf) + 4*uint64(rng.IntN(2))
				}
				w := rng.IntN(3) == 0
				r.access(a, w)
				a &^= WriteBit // bit 0 carries the write flag, not the address
				if w {
					one.Write(a)
					a |= WriteBit
				} else {
					one.Read(a)
				}
				buf = append(buf, a)
			}
			f.Batch(buf)
			n += len(buf)
			if rng.IntN(2) == 0 {
				a := rng.Uint64N(span)
				f.Write(a)
				one.Write(a)
				r.access(a, true)
				f.Read(a)
				one.Read(a)
				r.access(a, false)
				n += 2
			}
		}
		f.OnSlice(0, nil)
		f.Finish()
		r.finish()
		if f.Counts() != r.c {
			t.Fatalf("case %d %+v:\nbatch %+v\n  ref %+v", tc, c, f.Counts(), r.c)
		}
		if len(got) != len(want) {
			t.Fatalf("case %d: hook called %d times through Batch, %d through Read and Write", tc, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("case %d: hook call %d saw %+v through Batch, %+v through Read and Write", tc, i, got[i], want[i])
			}
		}
	}
}

func buf0(buf []uint64) uint64 {
	if len(buf) == 0 {
		return 0
	}
	return buf[len(buf)-1] &^ WriteBit
}
