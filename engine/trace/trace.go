package trace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"memwall/engine/sim"
)

// Format is a trace text format.
type Format int

const (
	// Plain is memwall's own format, one access per line:
	//
	//	R|W address size
	//
	// R reads, W writes (either case); address is hexadecimal with a 0x
	// prefix or decimal without; size is a decimal byte count from 1 to
	// MaxSize. Fields are separated by spaces or tabs. Blank lines and lines
	// starting with # are ignored.
	Plain Format = iota
	// Lackey is the output of valgrind --tool=lackey --trace-mem=yes:
	// "I  addr,size" (an instruction fetch, skipped), " L addr,size" (load),
	// " S addr,size" (store), " M addr,size" (modify: a load then a store of
	// the same bytes), address in hexadecimal without prefix. Valgrind's
	// own lines (starting with == or --) are ignored.
	Lackey
	// Detect reads the first line that is not blank or a comment and
	// takes Lackey when it is Valgrind's (a ==pid== banner, a -- line, or
	// an I/L/S/M record with address,size), Plain otherwise.
	Detect
)

// detect picks the format of a trace from its first meaningful line, or
// reports none for a line that says nothing yet.
func detect(line []byte) (Format, bool) {
	b := trimSpace(line)
	if len(b) == 0 || b[0] == '#' {
		return Detect, false
	}
	if bytes.HasPrefix(b, []byte("==")) || bytes.HasPrefix(b, []byte("--")) {
		return Lackey, true
	}
	if _, ok, msg := parseLackey(line); ok && msg == "" {
		return Lackey, true
	}
	return Plain, true
}

// ParseFormat reads "plain", "lackey" or "detect".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "plain", "":
		return Plain, nil
	case "lackey":
		return Lackey, nil
	case "detect":
		return Detect, nil
	}
	return 0, fmt.Errorf("format: must be plain, lackey or detect; got %q", s)
}

func (f Format) String() string {
	switch f {
	case Lackey:
		return "lackey"
	case Detect:
		return "detect"
	}
	return "plain"
}

// Limits.
const (
	MaxSize     = 4096 // bytes of one access
	MaxLine     = 4096 // bytes of one line
	DefaultSize = 1 << 30
)

// Record is one data access of a trace.
type Record struct {
	Addr uint64
	Size uint32
	// Kind is 'R' (read), 'W' (write) or 'M' (read then write).
	Kind byte
}

// LineError is a bad line.
type LineError struct {
	Line int64
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ErrTooLarge is returned when a trace exceeds the reader's size limit.
var ErrTooLarge = errors.New("trace larger than the size limit")

// Reader reads records from a text trace as a stream.
type Reader struct {
	r      *bufio.Reader
	format Format
	limit  int64
	read   int64
	line   int64
}

// NewReader reads format from r, refusing more than limit bytes (limit
// <= 0 means DefaultSize, 1 GiB).
func NewReader(r io.Reader, f Format, limit int64) *Reader {
	if limit <= 0 {
		limit = DefaultSize
	}
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), format: f, limit: limit}
}

// Format is the reader's format: the one detected once a Detect reader
// has met its first record, Detect before.
func (r *Reader) Format() Format { return r.format }

// Line is the number of the last line read.
func (r *Reader) Line() int64 { return r.line }

// BytesRead is the input consumed so far, for progress.
func (r *Reader) BytesRead() int64 { return r.read }

// Next returns the next record, io.EOF at the end, a *LineError for a bad
// line, or an error wrapping ErrTooLarge.
func (r *Reader) Next() (Record, error) {
	for {
		b, err := r.r.ReadSlice('\n')
		if len(b) == 0 && err != nil {
			if err == io.EOF {
				return Record{}, io.EOF
			}
			if err == bufio.ErrBufferFull {
				return Record{}, &LineError{r.line + 1, fmt.Sprintf("longer than %d bytes", MaxLine)}
			}
			return Record{}, err
		}
		r.line++
		r.read += int64(len(b))
		if r.read > r.limit {
			return Record{}, fmt.Errorf("line %d: %w of %d bytes", r.line, ErrTooLarge, r.limit)
		}
		if err == bufio.ErrBufferFull || len(b) > MaxLine {
			return Record{}, &LineError{r.line, fmt.Sprintf("longer than %d bytes", MaxLine)}
		}
		if err != nil && err != io.EOF {
			return Record{}, err
		}
		b = bytes.TrimRight(b, "\r\n")
		if r.format == Detect {
			if f, ok := detect(b); ok {
				r.format = f
			} else {
				continue
			}
		}
		var rec Record
		var ok bool
		var msg string
		if r.format == Lackey {
			rec, ok, msg = parseLackey(b)
		} else {
			rec, ok, msg = parsePlain(b)
		}
		if msg != "" {
			return Record{}, &LineError{r.line, msg}
		}
		if ok {
			return rec, nil
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// quote shows a bad line, shortened.
func quote(b []byte) string {
	if len(b) > 60 {
		return strconv.Quote(string(b[:60])) + "…"
	}
	return strconv.Quote(string(b))
}

// parsePlain parses "R|W address size". ok is false for a line to skip;
// msg is non-empty for a bad line.
func parsePlain(line []byte) (rec Record, ok bool, msg string) {
	b := trimSpace(line)
	if len(b) == 0 || b[0] == '#' {
		return rec, false, ""
	}
	if bytes.HasPrefix(b, []byte("==")) {
		return rec, false, fmt.Sprintf("%s looks like Valgrind's banner: this is a Lackey trace; choose the Lackey format (or Detect)", quote(line))
	}
	fields := bytes.Fields(b)
	if len(fields) != 3 {
		return rec, false, fmt.Sprintf("want \"R|W address size\" (3 fields), got %d fields in %s", len(fields), quote(line))
	}
	switch string(fields[0]) {
	case "R", "r":
		rec.Kind = 'R'
	case "W", "w":
		rec.Kind = 'W'
	default:
		return rec, false, fmt.Sprintf("access kind must be R or W; got %s", quote(fields[0]))
	}
	a := fields[1]
	var err error
	if len(a) > 2 && a[0] == '0' && (a[1] == 'x' || a[1] == 'X') {
		rec.Addr, err = strconv.ParseUint(string(a[2:]), 16, 64)
	} else {
		rec.Addr, err = strconv.ParseUint(string(a), 10, 64)
	}
	if err != nil {
		return rec, false, fmt.Sprintf("address must be 0x-prefixed hexadecimal or decimal below 2^64; got %s", quote(a))
	}
	size, m := parseSize(fields[2])
	if m != "" {
		return rec, false, m
	}
	rec.Size = size
	return rec, true, ""
}

func parseSize(b []byte) (uint32, string) {
	v, err := strconv.ParseUint(string(b), 10, 32)
	if err != nil || v < 1 || v > MaxSize {
		return 0, fmt.Sprintf("size must be a whole number of bytes from 1 to %d; got %s", MaxSize, quote(b))
	}
	return uint32(v), ""
}

// parseLackey parses one line of lackey output.
func parseLackey(line []byte) (rec Record, ok bool, msg string) {
	b := trimSpace(line)
	if len(b) == 0 || bytes.HasPrefix(b, []byte("==")) || bytes.HasPrefix(b, []byte("--")) {
		return rec, false, ""
	}
	kind := b[0]
	switch kind {
	case 'I':
	case 'L':
		rec.Kind = 'R'
	case 'S':
		rec.Kind = 'W'
	case 'M':
		rec.Kind = 'M'
	default:
		return rec, false, fmt.Sprintf("not a lackey record (I, L, S or M, then address,size): %s", quote(line))
	}
	if len(b) < 2 || !isSpace(b[1]) {
		return rec, false, fmt.Sprintf("not a lackey record (I, L, S or M, then address,size): %s", quote(line))
	}
	rest := trimSpace(b[1:])
	addr, size, found := bytes.Cut(rest, []byte{','})
	if !found {
		return rec, false, fmt.Sprintf("want address,size after %c; got %s", kind, quote(rest))
	}
	a, err := strconv.ParseUint(string(addr), 16, 64)
	if err != nil {
		return rec, false, fmt.Sprintf("address must be hexadecimal below 2^64; got %s", quote(addr))
	}
	s, m := parseSize(size)
	if m != "" {
		return rec, false, m
	}
	if kind == 'I' {
		return rec, false, "" // instruction fetches are not data traffic
	}
	rec.Addr, rec.Size = a, s
	return rec, true, ""
}

// Stats describes a replay.
type Stats struct {
	Records int64 `json:"records"`
	Lines   int64 `json:"lines"`
	Bytes   int64 `json:"bytes"`
}

// Tee receives every access Replay gives the simulator, in the same
// order: engine/hier's hierarchy simulator takes one beside engine/sim's.
// A trace does not say which loads wait for the one before, so no access
// is marked dependent.
type Tee interface {
	Access(addr, size uint64, write, dependent bool)
}

// Replay feeds every record of r to s and, when also is not nil, to also
// (a modify is a read then a write; an access that spans lines touches
// each), calling progress, if set, and checking ctx every slice records
// (default 1<<20). It calls s.Finish at the end of a complete trace (also's
// end is the caller's). On error the simulators hold the records before
// the bad line.
func Replay(ctx context.Context, s *sim.Sim, also Tee, r *Reader, slice int64, progress func(s *sim.Sim, st Stats)) (Stats, error) {
	if slice <= 0 {
		slice = 1 << 20
	}
	var st Stats
	stats := func() Stats { st.Lines, st.Bytes = r.line, r.read; return st }
	for {
		for i := int64(0); i < slice; i++ {
			rec, err := r.Next()
			if err == io.EOF {
				s.Finish()
				return stats(), nil
			}
			if err != nil {
				return stats(), err
			}
			st.Records++
			a, n := rec.Addr, uint64(rec.Size)
			switch rec.Kind {
			case 'R':
				s.Access(a, n, false)
			case 'W':
				s.Access(a, n, true)
			default:
				s.Access(a, n, false)
				s.Access(a, n, true)
			}
			if also != nil {
				if rec.Kind != 'W' {
					also.Access(a, n, false, false)
				}
				if rec.Kind != 'R' {
					also.Access(a, n, true, false)
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return stats(), err
		}
		if progress != nil {
			progress(s, stats())
		}
	}
}
