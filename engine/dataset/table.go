package dataset

import (
	"fmt"
	"math"
	"strings"

	"memwall/engine/units"
)

// Kind is the physical quantity of a column, which fixes its stored unit.
type Kind int

const (
	Plain     Kind = iota // a number or count, no unit
	Duration              // seconds
	Size                  // bytes
	Bandwidth             // bytes per second
	Text                  // labels, not numbers
)

// Unit returns the unit the values of a column of this kind are stored in.
func (k Kind) Unit() string {
	switch k {
	case Duration:
		return "s"
	case Size:
		return "B"
	case Bandwidth:
		return "B/s"
	}
	return ""
}

func (k Kind) String() string {
	return [...]string{"number", "time", "size", "bandwidth", "text"}[k]
}

// Column is one named column of a table.
type Column struct {
	// Name is the column's name with any unit suffix removed ("time" for a
	// header "time_ms"), after renaming.
	Name string
	// Header is the name as written in the file.
	Header string
	Kind   Kind
	// SourceUnit is the unit written in the header, if any ("ms").
	SourceUnit  string
	Description string
	// Values holds the numbers in the stored unit (Kind.Unit()); nil for
	// Text columns.
	Values []float64
	// Strings holds the cells of Text columns.
	Strings []string
}

// Table is an imported data set.
type Table struct {
	ID, Title, Source, Notes string
	Columns                  []Column
	// Lines gives, per row, the line of the file it came from (1-based).
	Lines []int
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.Lines) }

// Names lists the column names.
func (t *Table) Names() []string {
	n := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		n[i] = c.Name
	}
	return n
}

// Column returns the values of a numeric column, looked up by name or by
// header as written ("time" and "time_ms" both find a "time_ms" column).
func (t *Table) Column(name string) ([]float64, bool) {
	if c := t.Col(name); c != nil && c.Kind != Text {
		return c.Values, true
	}
	return nil, false
}

// Numeric returns the values of a numeric column, or an error that says
// why there are none: no column of that name (the columns are listed), or
// a column of text, named by its first cell that is not a number, with its
// line.
func (t *Table) Numeric(name string) ([]float64, error) {
	c := t.Col(name)
	if c == nil {
		return nil, fmt.Errorf("no column %q (the columns are %s)", name, strings.Join(t.Names(), ", "))
	}
	if c.Kind != Text {
		return c.Values, nil
	}
	for i, s := range c.Strings {
		if _, err := units.ParseNumber(s); err != nil {
			line := i + 1
			if i < len(t.Lines) {
				line = t.Lines[i]
			}
			return nil, fmt.Errorf("column %q holds text, not numbers: line %d has %q", name, line, s)
		}
	}
	return nil, fmt.Errorf("column %q holds text, not numbers", name)
}

// Col returns the named column or nil.
func (t *Table) Col(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	for i := range t.Columns {
		if t.Columns[i].Header == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// Options control an import.
type Options struct {
	// Rename maps a header (as written, or without its unit) to the column
	// name the models use, e.g. {"procs": "P", "n": "N"}.
	Rename map[string]string
	// KeepGoodRows imports the good rows of a file that has bad ones (the
	// user agreed); the bad rows are returned as errors beside the table.
	KeepGoodRows bool
	// MaxBytes limits the input size; 0 means DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes is the largest file read unless Options says otherwise:
// far above any measurement table, far below what would freeze a page.
const DefaultMaxBytes = 32 << 20

// CellError is a bad cell (or row) of the input.
type CellError struct {
	Line   int    // 1-based line in the file
	Col    int    // 1-based column number; 0 for the whole row
	Column string // column header, when known
	Value  string
	Msg    string
}

func (e *CellError) Error() string {
	switch {
	case e.Col == 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	case e.Column != "":
		return fmt.Sprintf("line %d, column %d (%s): %s", e.Line, e.Col, e.Column, e.Msg)
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// BadRowsError is returned when some rows are bad and the caller did not
// ask to keep the good ones. It lists every bad cell found.
type BadRowsError struct {
	Errors   []*CellError
	BadRows  int
	GoodRows int
}

func (e *BadRowsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d bad row(s), %d good:", e.BadRows, e.GoodRows)
	for i, c := range e.Errors {
		if i == 5 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Errors)-5)
			break
		}
		b.WriteString("\n  " + c.Error())
	}
	if e.GoodRows > 0 {
		fmt.Fprintf(&b, "\nimport only the %d good rows if that is acceptable", e.GoodRows)
	}
	return b.String()
}

// headerUnits are the units recognised at the end of a header, with the
// kind they give. Bare multipliers (K, Mi) are not units here: "n_K" is a
// name, not kilo-n.
var headerUnits = map[string]Kind{
	"s": Duration, "ms": Duration, "us": Duration, "µs": Duration, "μs": Duration, "ns": Duration, "ps": Duration, "min": Duration,
	"B": Size, "bytes": Size, "KB": Size, "KiB": Size, "MB": Size, "MiB": Size, "GB": Size, "GiB": Size, "TB": Size, "TiB": Size,
	"B/s": Bandwidth, "KB/s": Bandwidth, "MB/s": Bandwidth, "GB/s": Bandwidth, "KiB/s": Bandwidth, "MiB/s": Bandwidth, "GiB/s": Bandwidth,
}

// splitHeader separates "time_ms", "time [ms]" and "time (ms)" into name
// and unit.
func splitHeader(h string) (name, unit string, kind Kind) {
	h = strings.TrimSpace(h)
	for _, br := range [][2]string{{"[", "]"}, {"(", ")"}} {
		if strings.HasSuffix(h, br[1]) {
			if i := strings.LastIndex(h, br[0]); i > 0 {
				u := strings.TrimSpace(h[i+1 : len(h)-1])
				if k, ok := headerUnits[u]; ok {
					return strings.TrimSpace(h[:i]), u, k
				}
			}
		}
	}
	if i := strings.LastIndex(h, "_"); i > 0 {
		if k, ok := headerUnits[h[i+1:]]; ok {
			return h[:i], h[i+1:], k
		}
	}
	return h, "", Plain
}

// parseAs reads a cell as a quantity of the given kind, in stored units.
func parseAs(k Kind, s string) (float64, error) {
	switch k {
	case Duration:
		return units.ParseDuration(s)
	case Size:
		v, err := units.ParseSize(s)
		return float64(v), err
	case Bandwidth:
		return units.ParseBandwidth(s)
	}
	return units.ParseNumber(s)
}

// parseCell reads a cell of a column with no header unit: a plain number
// ("8Mi", "2^23", "1e6") or a quantity with a unit ("1.5ms", "256KiB",
// "2GB/s"), returning which.
func parseCell(s string) (float64, Kind, error) {
	if v, err := units.ParseNumber(s); err == nil {
		return v, Plain, nil
	} else if strings.TrimSpace(s) == "" {
		return 0, Plain, err
	}
	for _, k := range []Kind{Duration, Size, Bandwidth} {
		if v, err := parseAs(k, s); err == nil {
			return v, k, nil
		}
	}
	return 0, Plain, fmt.Errorf("%q is not a number or a quantity with a unit (e.g. 8Mi, 2^23, 1.5ms, 256KiB, 2GB/s)", s)
}

// MaxCell bounds the magnitude of a cell: anything a model computes from
// it (products, squares in least squares) then stays finite.
const MaxCell = 1e100

// checkRange refuses a cell that is not finite, larger in magnitude than
// MaxCell, or a negative time, size or bandwidth.
func checkRange(v float64, k Kind, s string) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxCell {
		return fmt.Errorf("%q is beyond the accepted range: magnitude at most %g", s, MaxCell)
	}
	if v < 0 && k != Plain && k != Text {
		return fmt.Errorf("%q is a negative %s; a %s is 0 or more", s, k, k)
	}
	return nil
}

// rawCell is a cell before conversion, trimmed; "" is a missing value.
type rawCell struct {
	s string
}

func (c rawCell) missing() bool { return c.s == "" }

// grid holds the rows a reader kept, width cells each, in one slice: a
// million-row file costs one allocation, not a million. A plain CSV keeps
// its cells as spans of its text instead (8 bytes a cell, not 16), and row
// fills a buffer from them.
type grid struct {
	width int
	cells []rawCell
	text  string
	spans []span
	buf   []rawCell
}

// span is a cell's offset and length in grid.text.
type span struct{ off, n uint32 }

func (g *grid) len() int {
	if g.spans != nil {
		return len(g.spans) / max(g.width, 1)
	}
	return len(g.cells) / max(g.width, 1)
}

// row returns row i; with spans, the slice is reused by the next call.
func (g *grid) row(i int) []rawCell {
	if g.spans == nil {
		return g.cells[i*g.width : (i+1)*g.width]
	}
	if g.buf == nil {
		g.buf = make([]rawCell, g.width)
	}
	for j, sp := range g.spans[i*g.width : (i+1)*g.width] {
		g.buf[j] = rawCell{s: g.text[sp.off : sp.off+sp.n]}
	}
	return g.buf
}

func (g *grid) add(row []rawCell) { g.cells = append(g.cells, row...) }

// build converts raw rows into a table, validating every cell.
func build(header []string, desc []string, hunits []string, rows *grid, lines []int, opt Options) (*Table, []*CellError, error) {
	t := &Table{}
	seen := map[string]int{}
	type colInfo struct {
		kind    Kind
		hasUnit bool
		factor  float64
	}
	info := make([]colInfo, len(header))
	for j, h := range header {
		name, u, k := splitHeader(h)
		if j < len(hunits) && hunits[j] != "" {
			name, u = strings.TrimSpace(h), hunits[j]
			kk, ok := headerUnits[u]
			if !ok {
				return nil, nil, fmt.Errorf("column %d (%s): unknown unit %q (use s, ms, us, ns, B, KiB, MiB, GB, B/s, MB/s, GB/s, ...)", j+1, h, u)
			}
			k = kk
		}
		if r, ok := opt.Rename[h]; ok {
			name = r
		} else if r, ok := opt.Rename[name]; ok {
			name = r
		}
		if name == "" {
			return nil, nil, fmt.Errorf("line 1, column %d: empty column name", j+1)
		}
		if i := strings.IndexFunc(h, func(r rune) bool { return r != '\t' && (r < 0x20 || (r >= 0x7f && r < 0xa0)) }); i >= 0 {
			return nil, nil, fmt.Errorf("line 1, column %d: the column name %q holds a control character; names are printable", j+1, h)
		}
		if prev, dup := seen[name]; dup {
			return nil, nil, fmt.Errorf("line 1, column %d: column name %q repeats column %d", j+1, name, prev+1)
		}
		seen[name] = j
		c := Column{Name: name, Header: strings.TrimSpace(h), Kind: k, SourceUnit: u}
		if j < len(desc) {
			c.Description = desc[j]
		}
		t.Columns = append(t.Columns, c)
		info[j] = colInfo{kind: k, hasUnit: u != ""}
		if u != "" {
			v, err := parseAs(k, "1"+u)
			if err != nil {
				return nil, nil, fmt.Errorf("column %d (%s): unit %q: %v", j+1, h, u, err)
			}
			info[j].factor = v
		}
	}
	// A column is text when none of its cells reads as a number.
	text := make([]bool, len(header))
	for j := range header {
		if info[j].hasUnit {
			continue
		}
		text[j] = true
		for i := 0; i < rows.len(); i++ {
			if r := rows.row(i); j < len(r) && !r[j].missing() {
				if _, _, err := parseCell(r[j].s); err == nil {
					text[j] = false
					break
				}
			}
		}
		if text[j] && rows.len() > 0 {
			t.Columns[j].Kind = Text
		}
	}
	var errs []*CellError
	bad := 0
	n := rows.len()
	for j := range header {
		if text[j] {
			t.Columns[j].Strings = make([]string, 0, n)
		} else {
			t.Columns[j].Values = make([]float64, 0, n)
		}
	}
	t.Lines = make([]int, 0, n)
	vals := make([]float64, len(header))
	kinds := make([]Kind, len(header))
	for i := 0; i < n; i++ {
		r := rows.row(i)
		clear(vals)
		clear(kinds)
		var rowErrs []*CellError
		for j := range header {
			h := t.Columns[j].Header
			if j >= len(r) || r[j].missing() {
				rowErrs = append(rowErrs, &CellError{Line: lines[i], Col: j + 1, Column: h, Msg: "missing value"})
				continue
			}
			if text[j] {
				continue
			}
			s := r[j].s
			var v float64
			var err error
			k := info[j].kind
			if info[j].hasUnit {
				if bare, err2 := units.ParseNumber(s); err2 == nil {
					v = bare * info[j].factor
				} else {
					v, err = parseAs(k, s)
					if err != nil {
						err = fmt.Errorf("%q is not a %s (the header says %s)", s, k, info[j].kind.String()+" in "+t.Columns[j].SourceUnit)
					}
				}
			} else {
				v, k, err = parseCell(s)
			}
			if err == nil {
				err = checkRange(v, k, s)
			}
			if err != nil {
				rowErrs = append(rowErrs, &CellError{Line: lines[i], Col: j + 1, Column: h, Value: s, Msg: err.Error()})
				continue
			}
			vals[j], kinds[j] = v, k
		}
		// Cells with units must agree with the column's quantity.
		for j := range header {
			if text[j] || info[j].hasUnit || kinds[j] == Plain {
				continue
			}
			if t.Columns[j].Kind == Plain {
				t.Columns[j].Kind = kinds[j]
			} else if t.Columns[j].Kind != kinds[j] {
				rowErrs = append(rowErrs, &CellError{Line: lines[i], Col: j + 1, Column: t.Columns[j].Header, Value: r[j].s,
					Msg: fmt.Sprintf("%q is a %s but the column holds %ss", r[j].s, kinds[j], t.Columns[j].Kind)})
			}
		}
		if len(rowErrs) > 0 {
			errs = append(errs, rowErrs...)
			bad++
			continue
		}
		for j := range header {
			if text[j] {
				t.Columns[j].Strings = append(t.Columns[j].Strings, r[j].s)
			} else {
				t.Columns[j].Values = append(t.Columns[j].Values, vals[j])
			}
		}
		t.Lines = append(t.Lines, lines[i])
	}
	if bad > 0 && !opt.KeepGoodRows {
		return nil, errs, &BadRowsError{Errors: errs, BadRows: bad, GoodRows: len(t.Lines)}
	}
	if len(t.Lines) == 0 {
		if bad > 0 {
			return nil, errs, &BadRowsError{Errors: errs, BadRows: bad}
		}
		return nil, nil, fmt.Errorf("no data rows after the header")
	}
	// A column with unit-bearing cells stores bare cells as the base unit
	// already (ParseNumber gives the number itself); nothing to rescale.
	return t, errs, nil
}
