package dataset

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestReadCSVUnits(t *testing.T) {
	in := "# measured on a laptop\nn,procs,time_ms,size,label\n8Mi,1,1.5,256KiB,\"a, b\"\n2^23,2,750us,1MiB,x\n"
	tb, _, err := ReadCSV(strings.NewReader(in), Options{Rename: map[string]string{"procs": "P"}})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := tb.Column("n")
	p, _ := tb.Column("P")
	tm, _ := tb.Column("time")
	sz, _ := tb.Column("size")
	// 1.5 ms in the header's unit is 1.5e-3 s; "750us" in a cell overrides it.
	want := [][]float64{{8 << 20, 1 << 23}, {1, 2}, {1.5e-3, 750e-6}, {256 << 10, 1 << 20}}
	for i, col := range [][]float64{n, p, tm, sz} {
		for j := range want[i] {
			if math.Abs(col[j]-want[i][j]) > 1e-15*want[i][j] {
				t.Errorf("column %d row %d = %g, want %g", i, j, col[j], want[i][j])
			}
		}
	}
	if c := tb.Col("time_ms"); c == nil || c.Kind != Duration || c.SourceUnit != "ms" {
		t.Errorf("time column: %+v", c)
	}
	if c := tb.Col("label"); c.Kind != Text || c.Strings[0] != "a, b" {
		t.Errorf("label column: %+v", c)
	}
	if tb.Lines[0] != 3 || tb.Lines[1] != 4 {
		t.Errorf("lines %v, want [3 4]", tb.Lines)
	}
}

func TestReadCSVBadRows(t *testing.T) {
	in := "N,P,T\n8,1,4161\n8,2,abc\n8,4\n8,8,2491\n16,,5\n"
	_, _, err := ReadCSV(strings.NewReader(in), Options{})
	var bre *BadRowsError
	if !errors.As(err, &bre) || bre.BadRows != 3 || bre.GoodRows != 2 {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"line 3, column 3 (T): \"abc\" is not a number", "line 4: 2 fields, but the header (line 1) names 3 columns", "line 6, column 2 (P): missing value"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%v", want, err)
		}
	}
	tb, skipped, err := ReadCSV(strings.NewReader(in), Options{KeepGoodRows: true})
	if err != nil || tb.Len() != 2 || len(skipped) != 3 {
		t.Errorf("keep good rows: %v, %d skipped", err, len(skipped))
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"a,a\n1,2\n", "repeats column 1"},
		{"a,b\n", "no data rows"},
		{"t\n1ms\n2KiB\n", "is a size but the column holds times"},
		{"x\n\"1\n", "line 2"},
	} {
		_, _, err := ReadCSV(strings.NewReader(c.in), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	if _, _, err := ReadCSV(strings.NewReader(strings.Repeat("x\n1\n", 100)), Options{MaxBytes: 64}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("size limit: %v", err)
	}
}

func TestReadJSON(t *testing.T) {
	objs := "[\n {\"N\": 8, \"P\": 1, \"T\": \"4.161ms\"},\n {\"N\": 8, \"P\": 2, \"T\": null}\n]"
	_, _, err := ReadJSON(strings.NewReader(objs), Options{})
	if err == nil || !strings.Contains(err.Error(), "line 3, column 3 (T): missing value") {
		t.Errorf("objects: %v", err)
	}
	doc := `{"id": "x", "columns": [{"name": "N"}, {"name": "T", "unit": "ms"}],
 "rows": [
  [8, 4.161],
  [16, "x"]
 ]}`
	tb, skipped, err := Read(strings.NewReader(doc), Options{KeepGoodRows: true})
	if err != nil || tb.Len() != 1 || len(skipped) != 1 || skipped[0].Line != 4 {
		t.Fatalf("doc: %v %v", err, skipped)
	}
	if v, _ := tb.Column("T"); math.Abs(v[0]-4.161e-3) > 1e-15 || tb.ID != "x" {
		t.Errorf("T = %v", v)
	}
	if _, _, err := ReadJSON(strings.NewReader("{\"columns\": [\"a\"], \"rows\": [[1],\n[2,]]}"), Options{}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("syntax: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"N,P,T\n8,1,4161\n", "a,b\n\"x\"\"y\",2\n", "t_ms\n1.5\n2us\n", `[{"a":1}]`, `{"columns":["a"],"rows":[[1]]}`, "x\n\"1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			tb, _, err := Read(strings.NewReader(s), Options{KeepGoodRows: keep})
			if err != nil {
				continue
			}
			for _, c := range tb.Columns {
				if c.Kind != Text && len(c.Values) != tb.Len() {
					t.Fatalf("column %s has %d values for %d rows", c.Name, len(c.Values), tb.Len())
				}
				for _, v := range c.Values {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("non-finite value in %s", c.Name)
					}
				}
			}
		}
	})
}

// TestJSONFormsAgree: rows of values in the object form read as the same
// rows written as objects: null, numbers as written, strings trimmed and
// unescaped, booleans, nested values, and the errors about them.
func TestJSONFormsAgree(t *testing.T) {
	rows := [][]string{
		{`1e3`, `" 2 ms "`, `"x\"y"`, `true`, `7`},
		{`null`, `"4\u00b5s"`, `"a"`, `false`, `-0.50`},
		{`2`, `"1ms"`, `[1]`, `"b"`, `{"a": 1}`},
		{`3`, `"3us"`, `" c "`, `"\td "`, `8`},
	}
	var doc, objs strings.Builder
	doc.WriteString(`{"columns": ["a", "b", "c", "d", "e"], "rows": [`)
	objs.WriteString(`[`)
	for i, r := range rows {
		sep := map[bool]string{true: ",\n", false: "\n"}[i > 0]
		doc.WriteString(sep + "[" + strings.Join(r, ", ") + "]")
		objs.WriteString(sep + "{")
		for j, c := range r {
			if j > 0 {
				objs.WriteString(", ")
			}
			fmt.Fprintf(&objs, `"%c": %s`, 'a'+j, c)
		}
		objs.WriteString("}")
	}
	doc.WriteString("]}")
	objs.WriteString("]")
	for _, keep := range []bool{false, true} {
		a, aerrs, aerr := ReadJSON(strings.NewReader(doc.String()), Options{KeepGoodRows: keep})
		b, berrs, berr := ReadJSON(strings.NewReader(objs.String()), Options{KeepGoodRows: keep})
		if fmt.Sprint(aerr, aerrs) != fmt.Sprint(berr, berrs) {
			t.Errorf("keep %v: errors differ:\n%v %v\n%v %v", keep, aerr, aerrs, berr, berrs)
		}
		if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Errorf("keep %v: tables differ:\n%+v\n%+v", keep, a, b)
		}
		if keep && (a == nil || a.Len() != 2) {
			t.Errorf("keep %v: no rows read: %v %v", keep, aerr, aerrs)
		}
	}
}
