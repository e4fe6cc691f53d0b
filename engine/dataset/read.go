package dataset

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode"

	"memwall/internal/jsonx"
	"memwall/internal/strictjson"
)

func readAll(r io.Reader, opt Options) ([]byte, error) {
	max := opt.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	// A file says its size: read it into one buffer of that size rather
	// than one that doubles its way up (twice the file, briefly).
	var b []byte
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if info, err := st.Stat(); err == nil && info.Mode().IsRegular() && info.Size() <= max {
			b = make([]byte, 0, info.Size()+bytes.MinRead+1)
		}
	}
	buf := bytes.NewBuffer(b)
	if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, err
	}
	b = buf.Bytes()
	if int64(len(b)) > max {
		return nil, fmt.Errorf("the file is larger than %d MiB; split it or keep only the rows to fit", max>>20)
	}
	return b, nil
}

// ReadCSV imports a CSV file with a header row. It returns the table, the
// bad cells that were skipped (only when opt.KeepGoodRows), and an error:
// *BadRowsError when rows are bad and KeepGoodRows is false, or an error
// about the header or the file as a whole.
func ReadCSV(r io.Reader, opt Options) (*Table, []*CellError, error) {
	b, err := readAll(r, opt)
	if err != nil {
		return nil, nil, err
	}
	return readCSV(b, opt)
}

func readCSV(b []byte, opt Options) (*Table, []*CellError, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // a spreadsheet's BOM
	if bytes.IndexByte(b, '"') < 0 {
		return readPlainCSV(string(b), opt)
	}
	return readQuotedCSV(b, opt)
}

// readQuotedCSV reads any CSV with encoding/csv.
func readQuotedCSV(b []byte, opt Options) (*Table, []*CellError, error) {
	cr := csv.NewReader(bytes.NewReader(b))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, errEmptyCSV
	}
	if err != nil {
		return nil, nil, csvError(err)
	}
	hline, _ := cr.FieldPos(0)
	header = append([]string(nil), header...)
	rows := &grid{width: len(header)}
	var lines []int
	var errs []*CellError
	bad := 0
	row := make([]rawCell, len(header))
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errs = append(errs, &CellError{Line: pe.Line, Col: pe.Column, Msg: pe.Err.Error() + " (RFC 4180: a quoted field must close its quote and a quote inside it is written \"\")"})
				bad++
				continue
			}
			return nil, nil, err
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(rec) != len(header) {
			errs = append(errs, &CellError{Line: line, Msg: fmt.Sprintf("%d fields, but the header (line %d) names %d columns", len(rec), hline, len(header))})
			bad++
			continue
		}
		for j, s := range rec {
			row[j] = rawCell{s: strings.TrimSpace(s)}
		}
		rows.add(row)
		lines = append(lines, line)
	}
	return finish(header, nil, nil, rows, lines, errs, bad, opt)
}

var errEmptyCSV = errors.New("the file is empty; expected a header row naming the columns")

// readPlainCSV reads a CSV file without quotes, as encoding/csv would
// (lines starting with # and empty lines skipped, CRLF as LF), with every
// cell a substring of the one text: no string per line, and the cells
// sized from the count of lines up front. Most data files are like this,
// and a 32 MiB file then costs a few times its size, not tens.
func readPlainCSV(text string, opt Options) (*Table, []*CellError, error) {
	var header []string
	hline := 0
	lineNo := 0
	var rows *grid
	var lines []int
	var errs []*CellError
	bad := 0
	for pos := 0; pos < len(text); {
		start := pos
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		pos = end + 1
		lineNo++
		l := strings.TrimSuffix(text[start:end], "\r")
		if l == "" || l[0] == '#' {
			continue
		}
		if header == nil {
			// The names are copied: a substring would keep the whole
			// text alive as long as the table.
			header = strings.Split(strings.Clone(l), ",")
			hline = lineNo
			n := strings.Count(text[min(pos, len(text)):], "\n") + 1
			rows = &grid{width: len(header), text: text, spans: make([]span, 0, n*len(header))}
			lines = make([]int, 0, n)
			continue
		}
		fields := strings.Count(l, ",") + 1
		if fields == 1 && strings.TrimSpace(l) == "" {
			continue // a blank line
		}
		if fields != len(header) {
			errs = append(errs, &CellError{Line: lineNo, Msg: fmt.Sprintf("%d fields, but the header (line %d) names %d columns", fields, hline, len(header))})
			bad++
			continue
		}
		off := start
		for range header {
			cell := l
			if i := strings.IndexByte(l, ','); i >= 0 {
				cell, l = l[:i], l[i+1:]
			}
			lead := len(cell) - len(strings.TrimLeftFunc(cell, unicode.IsSpace))
			trimmed := strings.TrimSpace(cell)
			rows.spans = append(rows.spans, span{uint32(off + lead), uint32(len(trimmed))})
			off += len(cell) + 1
		}
		lines = append(lines, lineNo)
	}
	if header == nil {
		return nil, nil, errEmptyCSV
	}
	return finish(header, nil, nil, rows, lines, errs, bad, opt)
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &CellError{Line: pe.Line, Col: pe.Column, Msg: pe.Err.Error()}
	}
	return err
}

// jsonColumn is a column description in the object form.
type jsonColumn struct {
	Name        string `json:"name"`
	Unit        string `json:"unit"`
	Description string `json:"description"`
}

// ReadJSON imports JSON: either an array of row objects
// ([{"N": 8, "P": 1, "T": 4161}, ...]) or an object
// {"id", "title", "source", "notes", "columns": [...], "rows": [[...], ...]}.
// Cells may be numbers or strings with units. Errors name the line of the
// row and the column.
//
// The file goes through strictjson.Check (byte order mark, duplicate keys,
// text after the value), then jsonx decodes it: goccy/go-json in the CLI,
// encoding/json in the browser, with the same tokens, offsets and syntax
// messages.
func ReadJSON(r io.Reader, opt Options) (*Table, []*CellError, error) {
	b, err := readAll(r, opt)
	if err != nil {
		return nil, nil, err
	}
	if b, err = strictjson.Check(b, "JSON"); err != nil {
		return nil, nil, err
	}
	lineAt := lineCounter(b)
	dec := jsonx.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, jsonError(err, b)
	}
	switch tok {
	case jsonx.Delim('['):
		return readObjects(dec, b, lineAt, opt)
	case jsonx.Delim('{'):
	default:
		return nil, nil, errors.New("line 1: expected a JSON array of rows or an object with \"columns\" and \"rows\"")
	}
	// Object form: decode fully, remembering where each row starts.
	var doc struct {
		ID, Title, Source, Notes string
		Table                    string
		Page                     int
		Columns                  []jsonx.RawMessage
		Rows                     []jsonx.RawMessage
	}
	if err := jsonx.Unmarshal(b, &doc); err != nil {
		return nil, nil, jsonError(err, b)
	}
	if len(doc.Columns) == 0 {
		return nil, nil, errors.New("the JSON object has no \"columns\"")
	}
	var header, desc, hunits []string
	for i, raw := range doc.Columns {
		var c jsonColumn
		var name string
		if jsonx.Unmarshal(raw, &name) == nil {
			c.Name = name
		} else if err := jsonx.Unmarshal(raw, &c); err != nil {
			return nil, nil, fmt.Errorf("columns[%d]: expected a name or {\"name\", \"unit\", \"description\"}", i)
		}
		header = append(header, c.Name)
		desc = append(desc, c.Description)
		hunits = append(hunits, c.Unit)
	}
	// Row lines: find each row's offset by scanning the "rows" array.
	offs := rowOffsets(b)
	rows := &grid{width: len(header), cells: make([]rawCell, 0, len(doc.Rows)*len(header))}
	lines := make([]int, 0, len(doc.Rows))
	var errs []*CellError
	bad := 0
	var cells []jsonValue
	for i, raw := range doc.Rows {
		line := i + 1
		if i < len(offs) {
			line = lineAt(offs[i])
		}
		cells = cells[:0]
		if err := jsonx.Unmarshal(raw, &cells); err != nil {
			errs = append(errs, &CellError{Line: line, Msg: fmt.Sprintf("row %d is not an array of values", i+1)})
			bad++
			continue
		}
		if len(cells) != len(header) {
			errs = append(errs, &CellError{Line: line, Msg: fmt.Sprintf("row %d has %d values for %d columns", i+1, len(cells), len(header))})
			bad++
			continue
		}
		for _, c := range cells {
			rows.cells = append(rows.cells, rawCell(c))
		}
		lines = append(lines, line)
	}
	t, allErrs, err := finish(header, desc, hunits, rows, lines, errs, bad, opt)
	if err != nil {
		return nil, allErrs, err
	}
	if doc.Table != "" && doc.Page > 0 {
		doc.Source = fmt.Sprintf("%s, %s, p. %d", doc.Source, doc.Table, doc.Page)
	}
	t.ID, t.Title, t.Source, t.Notes = doc.ID, doc.Title, doc.Source, doc.Notes
	return t, allErrs, nil
}

// lineCounter returns a function from a byte offset in b to its line
// number. The readers ask for offsets in increasing order, so it counts on
// from the offset it was last asked for (counting from the start each time
// made reading 100 000 rows take seconds); an earlier offset counts afresh.
func lineCounter(b []byte) func(int64) int {
	var at int64
	line := 1
	return func(off int64) int {
		off = min(max(off, 0), int64(len(b)))
		if off < at {
			at, line = 0, 1
		}
		line += bytes.Count(b[at:off], []byte("\n"))
		at = off
		return line
	}
}

func jsonCell(c any) rawCell {
	switch v := c.(type) {
	case nil:
		return rawCell{}
	case jsonx.Number:
		return rawCell{s: v.String()}
	case string:
		return rawCell{s: strings.TrimSpace(v)}
	case bool:
		return rawCell{s: fmt.Sprint(v)}
	}
	return rawCell{s: "(a nested value)"}
}

// jsonValue is a cell of a row of the object form, read from its JSON
// text as jsonCell reads the decoded value (a number's text is kept as
// Decoder.UseNumber keeps it), without a decoder or an interface value for
// every row.
type jsonValue rawCell

func (c *jsonValue) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case 'n':
		*c = jsonValue{}
	case '{', '[':
		*c = jsonValue{s: "(a nested value)"}
	case '"':
		var s string
		if err := jsonx.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = jsonValue{s: strings.TrimSpace(s)}
	default: // a number, true or false
		*c = jsonValue{s: string(b)}
	}
	return nil
}

// rowOffsets returns the byte offsets of the elements of the top-level
// "rows" array, for line numbers in messages.
func rowOffsets(b []byte) []int64 {
	dec := jsonx.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != jsonx.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		if k != "rows" {
			var skip jsonx.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != jsonx.Delim('[') {
			return nil
		}
		var offs []int64
		for dec.More() {
			// InputOffset is the end of the previous token; the element
			// starts after the separating comma and space.
			off := dec.InputOffset()
			for off < int64(len(b)) && (b[off] == ',' || b[off] == ' ' || b[off] == '\n' || b[off] == '\r' || b[off] == '\t') {
				off++
			}
			offs = append(offs, off)
			var skip jsonx.RawMessage
			if dec.Decode(&skip) != nil {
				return offs
			}
		}
		return offs
	}
	return nil
}

// readObjects reads the array-of-objects form; the first object's keys, in
// order, are the columns.
func readObjects(dec *jsonx.Decoder, b []byte, lineAt func(int64) int, opt Options) (*Table, []*CellError, error) {
	var header []string
	var rows *grid
	var lines []int
	var errs []*CellError
	bad := 0
	for i := 0; dec.More(); i++ {
		off := dec.InputOffset()
		for off < int64(len(b)) && (b[off] == ',' || b[off] == ' ' || b[off] == '\n' || b[off] == '\r' || b[off] == '\t') {
			off++
		}
		line := lineAt(off)
		t, err := dec.Token()
		if err != nil {
			return nil, nil, jsonError(err, b)
		}
		if t != jsonx.Delim('{') {
			return nil, nil, fmt.Errorf("line %d: row %d is not an object", line, i+1)
		}
		var keys []string
		vals := map[string]rawCell{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, nil, jsonError(err, b)
			}
			k, _ := kt.(string)
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, nil, jsonError(err, b)
			}
			if _, dup := vals[k]; dup {
				errs = append(errs, &CellError{Line: line, Msg: fmt.Sprintf("row %d names %q twice", i+1, k)})
				continue
			}
			keys = append(keys, k)
			vals[k] = jsonCell(v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, nil, jsonError(err, b)
		}
		if header == nil {
			header = keys
			if len(header) == 0 {
				return nil, nil, fmt.Errorf("line %d: the first row has no fields", line)
			}
			rows = &grid{width: len(header)}
		}
		row := make([]rawCell, len(header))
		okRow := true
		for j, h := range header {
			c, ok := vals[h]
			if !ok {
				c = rawCell{}
			}
			row[j] = c
		}
		for _, k := range keys {
			found := false
			for _, h := range header {
				found = found || h == k
			}
			if !found {
				errs = append(errs, &CellError{Line: line, Msg: fmt.Sprintf("row %d has field %q, which the first row does not", i+1, k)})
				okRow = false
			}
		}
		if !okRow {
			bad++
			continue
		}
		rows.add(row)
		lines = append(lines, line)
	}
	if header == nil {
		return nil, nil, errors.New("the JSON array has no rows")
	}
	return finish(header, nil, nil, rows, lines, errs, bad, opt)
}

func jsonError(err error, b []byte) error {
	var se *jsonx.SyntaxError
	if errors.As(err, &se) {
		off := se.Offset
		if off > int64(len(b)) {
			off = int64(len(b))
		}
		line := 1 + bytes.Count(b[:off], []byte("\n"))
		col := int(off) - bytes.LastIndexByte(b[:off], '\n')
		return &CellError{Line: line, Col: col, Msg: "JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("JSON: the file ends in the middle of a value")
	}
	return fmt.Errorf("JSON: %v", err)
}

// Read imports CSV or JSON, choosing by the first non-space byte ('[' or
// '{' is JSON).
func Read(r io.Reader, opt Options) (*Table, []*CellError, error) {
	b, err := readAll(r, opt)
	if err != nil {
		return nil, nil, err
	}
	trim := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trim) > 0 && (trim[0] == '[' || trim[0] == '{') {
		return ReadJSON(bytes.NewReader(b), opt)
	}
	return readCSV(b, opt)
}

// finish builds the table from the rows a reader kept, adding the reader's
// own bad-row errors (rows with the wrong number of cells) to the cells'
// ones; unless the caller agreed to keep the good rows, any bad row refuses
// the file with the count of good rows it would keep.
func finish(header, desc, hunits []string, rows *grid, lines []int, errs []*CellError, bad int, opt Options) (*Table, []*CellError, error) {
	if rows.len() == 0 && bad > 0 {
		return nil, errs, &BadRowsError{Errors: errs, BadRows: bad}
	}
	t, cellErrs, err := build(header, desc, hunits, rows, lines, opt)
	allErrs := append(errs, cellErrs...)
	if bre, ok := err.(*BadRowsError); ok {
		bre.Errors = allErrs
		bre.BadRows += bad
		return nil, allErrs, bre
	}
	if err != nil {
		return nil, nil, err
	}
	if bad > 0 && !opt.KeepGoodRows {
		return nil, allErrs, &BadRowsError{Errors: allErrs, BadRows: bad, GoodRows: t.Len()}
	}
	return t, allErrs, nil
}
