package dataset

import (
	"bytes"
	"fmt"
	"testing"
)

// benchJSON returns a data set of rows rows (N, P, T) in the object form
// (columns and rows of values) or as an array of row objects.
func benchJSON(rows int, objects bool) []byte {
	var b bytes.Buffer
	if objects {
		b.WriteString("[\n")
	} else {
		b.WriteString(`{"title": "bench", "columns": [{"name": "N"}, {"name": "P"}, {"name": "T", "unit": "us"}],` + "\n" + ` "rows": [` + "\n")
	}
	for i := range rows {
		if i > 0 {
			b.WriteString(",\n")
		}
		n, p, t := 1000+i%9000, 1+i%64, 1.5+float64(i%9000)*0.25+float64(i%64)*0.125
		if objects {
			fmt.Fprintf(&b, `  {"N": %d, "P": %d, "T": %.6f}`, n, p, t)
		} else {
			fmt.Fprintf(&b, "  [%d, %d, %.6f]", n, p, t)
		}
	}
	if objects {
		b.WriteString("\n]\n")
	} else {
		b.WriteString("\n ]}\n")
	}
	return b.Bytes()
}

// BenchmarkReadJSON100k imports a 100 000-row JSON data set in both forms,
// strictjson.Check included, with the codec jsonx picks (goccy/go-json in
// a native build).
func BenchmarkReadJSON100k(b *testing.B) {
	for _, objects := range []bool{false, true} {
		name := map[bool]string{false: "columns-rows", true: "row-objects"}[objects]
		data := benchJSON(100_000, objects)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				t, _, err := ReadJSON(bytes.NewReader(data), Options{})
				if err != nil || t.Len() != 100_000 {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}
