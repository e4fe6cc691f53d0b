package measure

import (
	"context"
	"fmt"
	"runtime"
	"unsafe"

	"memwall/engine/numl"
)

// The lines-touched paper's point-to-point benchmarks (sections 4.1–4.2) time the
// marshalling of a message: k whole rows, or the k leftmost columns, of a
// row-major array gathered into a contiguous send buffer. The paper prints
// no measurements, so memwall times its own: the same gathers, on this
// machine, for shapes that vary the bytes sent n and the lines touched u
// independently (the same bytes as rows and as columns; columns of one
// element's width from arrays of different widths, which touch a line per
// row whatever the width; the same columns started at a line boundary and
// just before one, which touch one or two lines per row for the same
// bytes). The model is about lines fetched from memory, so before every
// repetition the arrays are evicted from the caches by reading a flush
// buffer larger than the last cache level, and u is counted by engine/numl
// for the real offset of each array's first byte within its line.

// NUMLOptions sets what MeasureNUML times.
type NUMLOptions struct {
	// Quick measures a smaller plan with fewer repetitions: seconds, for a
	// first look and for tests.
	Quick bool
	// Reps is the number of timed repetitions of each shape (after one
	// warm-up); the median is kept. Zero: 9, or 5 when Quick.
	Reps int
	// Line is L in bytes. Zero: the OS's line size, or 64.
	Line int64
	// FlushBytes are read before every repetition to evict the arrays.
	// Zero: 1.5 times the last cache the OS reports (at least 8 MiB, or
	// 64 MiB when the OS says nothing). Negative: no flush (warm caches).
	FlushBytes int64
	// Messages lists the message counts m of the plan: m messages of the
	// same shape from m separate arrays, timed together. Zero: {1, 4}, or
	// {1} when Quick.
	Messages []int64
	// Scatter also times each shape gathered and scattered back into the
	// array (the receiving side's unmarshalling), as rows with Scatter set.
	Scatter bool
	// Shapes replaces the built-in plan (one message each; Offset is the
	// wanted offset within a line).
	Shapes []numl.Shape
	// MaxBytes bounds the arrays and the flush buffer together. Zero: 1 GiB.
	MaxBytes int64
	// Progress, when set, is called after each measured point.
	Progress func(done, total int)
	// OS is what the platform reports; nil means ReadOSInfo().
	OS *OSInfo
}

// NUMLPoint is one measured message shape: m messages of the shape, n
// bytes and u lines touched in all, and the median time of gathering them
// (and scattering them back when Scatter).
type NUMLPoint struct {
	Shape   numl.Shape `json:"-"`
	Kind    string     `json:"kind"`
	M       int64      `json:"m"`
	N       int64      `json:"n"`
	U       int64      `json:"u"`
	W       int64      `json:"W"`
	K       int64      `json:"k"`
	Elem    int64      `json:"w"`
	R       int64      `json:"r"`
	Offset  int64      `json:"o"`
	Line    int64      `json:"L"`
	Scatter bool       `json:"scatter"`
	Seconds Stat       `json:"seconds"`
}

// NUMLRun is the result of MeasureNUML.
type NUMLRun struct {
	Line       int64       `json:"line"`
	FlushBytes int64       `json:"flush_bytes"`
	Reps       int         `json:"reps"`
	OS         OSInfo      `json:"os"`
	Points     []NUMLPoint `json:"points"`
}

// numlArray is one array of the plan: r rows of W bytes.
type numlArray struct{ W, R int64 }

// numlPlanArrays are the arrays of the built-in plan. Widths that are
// multiples of a 64-byte line put every row start at the same offset, so
// a column of one element touches one line per row at any width; W = 4000
// (the paper's rows of 1000 integers) makes row starts walk through the
// line. The row counts keep every array at most 8 MiB, far above the
// per-core caches, so even the warm-up cannot leave them cached in L1/L2.
var numlPlanArrays = []numlArray{{256, 2048}, {1024, 1024}, {4000, 1024}, {4096, 512}, {4096, 2048}}

// PlanNUML returns the shapes (one message each) that MeasureNUML times,
// with line size line. For every array, element size w = 4 and k columns
// with k·w from 4 bytes up to a quarter of a row (at most 256 bytes), it
// takes the columns and the whole rows holding about the same bytes
// (rounded to whole rows, at least one), each at offset 0 and at offset
// L − 8 (8-byte aligned, so an element of up to 8 bytes never straddles
// a line within itself, while a run of them may straddle two).
func PlanNUML(line int64, quick bool) []numl.Shape {
	ks := []int64{1, 2, 4, 8, 16, 32, 64}
	arrays := numlPlanArrays
	offsets := []int64{0, max(0, line-8)}
	if quick {
		ks = []int64{1, 4, 16}
		arrays = []numlArray{{1024, 1024}, {4000, 1024}}
	}
	var out []numl.Shape
	for _, a := range arrays {
		for _, k := range ks {
			const w = 4
			if k*w > min(a.W/4, 256) {
				continue
			}
			n := k * w * a.R
			rows := max(1, (n+a.W/2)/a.W)
			for _, o := range offsets {
				out = append(out,
					numl.Shape{Kind: numl.Columns, W: a.W, K: k, Elem: w, R: a.R, Line: line, Offset: o},
					numl.Shape{Kind: numl.Rows, W: a.W, K: rows, Line: line, Offset: o})
			}
		}
	}
	return out
}

// settle fills in the defaults and checks the options.
func (o NUMLOptions) settle() (NUMLOptions, OSInfo, error) {
	var os OSInfo
	if o.OS != nil {
		os = *o.OS
	} else {
		os = ReadOSInfo()
	}
	if o.Reps == 0 {
		o.Reps = 9
		if o.Quick {
			o.Reps = 5
		}
	}
	if o.Reps < 1 || o.Reps > 1000 {
		return o, os, fmt.Errorf("reps: must be from 1 to 1000; got %d", o.Reps)
	}
	if o.Line == 0 {
		o.Line = cmp0(os.Line, 64)
	}
	if o.Line < 8 || o.Line > 4096 || o.Line&(o.Line-1) != 0 {
		return o, os, fmt.Errorf("line: must be a power of two from 8 to 4096 bytes; got %d", o.Line)
	}
	switch {
	case o.FlushBytes < 0:
		o.FlushBytes = 0
	case o.FlushBytes == 0 && os.LastCache > 0:
		o.FlushBytes = max(8<<20, os.LastCache*3/2)
	case o.FlushBytes == 0:
		o.FlushBytes = 64 << 20
	}
	if len(o.Messages) == 0 {
		o.Messages = []int64{1, 4}
		if o.Quick {
			o.Messages = []int64{1}
		}
	}
	for _, m := range o.Messages {
		if m < 1 || m > 64 {
			return o, os, fmt.Errorf("messages: must be from 1 to 64; got %d", m)
		}
	}
	if len(o.Shapes) == 0 {
		o.Shapes = PlanNUML(o.Line, o.Quick)
	}
	for i, s := range o.Shapes {
		s.Line = o.Line
		if err := s.Validate(); err != nil {
			return o, os, fmt.Errorf("shape %d: %v", i+1, err)
		}
		o.Shapes[i] = s
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 1 << 30
	}
	return o, os, nil
}

// arrayBytes is the memory one array of s occupies: k whole rows for a
// row message, r rows for columns.
func arrayBytes(s numl.Shape) int64 {
	if s.Kind == numl.Rows {
		return s.K * s.W
	}
	return s.R * s.W
}

// arrayGap separates consecutive arrays of a multi-message point, so that
// the adjacent-line and stream prefetchers fetching past the end of one
// array do not bring in the start of the next.
const arrayGap = 4096

// placeArrays cuts m arrays of size bytes out of buf, each starting at
// offset o within a line of L bytes (by the real address of its first
// byte), and returns their starts as indices into buf.
func placeArrays(buf []byte, m, size, o, line int64) ([]int64, error) {
	stride := (size + arrayGap + line - 1) / line * line
	if need := m*stride + line; int64(len(buf)) < need {
		return nil, fmt.Errorf("arrays need %d bytes, the buffer has %d", need, len(buf))
	}
	// The address of buf's first byte modulo L: the shift that puts the
	// first array's first byte at offset o (the lines-touched paper section 3.2.1 counts
	// lines from the array's alignment).
	base := int64(uintptr(unsafe.Pointer(unsafe.SliceData(buf))) % uintptr(line))
	first := ((o-base)%line + line) % line
	starts := make([]int64, m)
	for j := range starts {
		starts[j] = first + int64(j)*stride
	}
	return starts, nil
}

// addrOffset is the offset of b's first byte within its line.
func addrOffset(b []byte, line int64) int64 {
	return int64(uintptr(unsafe.Pointer(unsafe.SliceData(b))) % uintptr(line))
}

// gather copies the message of s from the array at arr into send and
// returns the bytes copied.
func gather(send, arr []byte, s numl.Shape) int64 {
	if s.Kind == numl.Rows {
		return int64(copy(send, arr[:s.K*s.W]))
	}
	kw := s.K * s.Elem
	var at int64
	for i := int64(0); i < s.R; i++ {
		row := i * s.W
		copy(send[at:at+kw], arr[row:row+kw])
		at += kw
	}
	return at
}

// scatter is gather's inverse: it writes the message in recv back into
// its place in the array.
func scatter(arr, recv []byte, s numl.Shape) {
	if s.Kind == numl.Rows {
		copy(arr[:s.K*s.W], recv)
		return
	}
	kw := s.K * s.Elem
	var at int64
	for i := int64(0); i < s.R; i++ {
		row := i * s.W
		copy(arr[row:row+kw], recv[at:at+kw])
		at += kw
	}
}

// flushCaches reads one word per 64 bytes of flush, which brings its lines
// into every cache level and so evicts what was there.
func flushCaches(flush []uint64) {
	var s uint64
	for i := 0; i < len(flush); i += 8 {
		s += flush[i]
	}
	sink += s
}

// MeasureNUML times the gathers of the plan on this machine. Each point
// is m messages of one shape taken from m separate arrays, gathered one
// after another into one send buffer, from caches flushed before every
// repetition; its n and u are the totals over the m messages.
func MeasureNUML(ctx context.Context, opt NUMLOptions) (*NUMLRun, error) {
	o, os, err := opt.settle()
	if err != nil {
		return nil, err
	}
	var maxArray, maxMsg, maxM int64
	for _, s := range o.Shapes {
		maxArray = max(maxArray, arrayBytes(s))
		maxMsg = max(maxMsg, s.Bytes())
	}
	for _, m := range o.Messages {
		maxM = max(maxM, m)
	}
	stride := (maxArray + arrayGap + o.Line - 1) / o.Line * o.Line
	arrBytes := maxM*stride + o.Line
	if need := arrBytes + maxM*maxMsg + o.FlushBytes; need > o.MaxBytes {
		return nil, fmt.Errorf("memory: the arrays, send buffer and flush buffer need %d MiB, above the limit of %d MiB; give a smaller flush or fewer messages",
			need>>20, o.MaxBytes>>20)
	}
	buf := make([]byte, arrBytes)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	send := make([]byte, maxM*maxMsg)
	flush := make([]uint64, o.FlushBytes/8)
	for i := range flush {
		flush[i] = uint64(i)
	}

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	run := &NUMLRun{Line: o.Line, FlushBytes: o.FlushBytes, Reps: o.Reps, OS: os}
	modes := []bool{false}
	if o.Scatter {
		modes = append(modes, true)
	}
	total := len(o.Shapes) * len(o.Messages) * len(modes)
	done := 0
	for _, m := range o.Messages {
		for _, s := range o.Shapes {
			starts, err := placeArrays(buf, m, arrayBytes(s), s.Offset, o.Line)
			if err != nil {
				return nil, err
			}
			// The offset the engine counts from is the one the array
			// really has, read back from its address.
			s.Offset = addrOffset(buf[starts[0]:], o.Line)
			f, err := numl.MessageFeatures(s)
			if err != nil {
				return nil, err
			}
			n := s.Bytes()
			for _, back := range modes {
				msg := func() {
					for j, st := range starts {
						out := send[int64(j)*n : int64(j+1)*n]
						gather(out, buf[st:], s)
						if back {
							scatter(buf[st:], out, s)
						}
					}
				}
				secs, err := repeatAfter(ctx, o.Reps, func() { flushCaches(flush) }, msg) // only msg is timed
				if err != nil {
					return nil, err
				}
				run.Points = append(run.Points, NUMLPoint{Shape: s, Kind: s.Kind.String(), M: m, N: m * f.N, U: m * f.U,
					W: s.W, K: s.K, Elem: s.Elem, R: s.R, Offset: s.Offset, Line: o.Line, Scatter: back, Seconds: Summarize(secs)})
				done++
				if o.Progress != nil {
					o.Progress(done, total)
				}
			}
		}
	}
	return run, nil
}
