package dataset

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestPlainCSVAsEncodingCSV: the quote-free fast path reads every file as
// encoding/csv does (tables, skipped cells and errors alike), over random
// files with comments, blank and space-only lines, CRLF, missing cells,
// rows of the wrong width, units and text.
func TestPlainCSVAsEncodingCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	cells := []string{"1", "2.5", " 3 ", "", "8Mi", "1.5ms", "2^10", "x", "-4", "1e308", "7"}
	headers := []string{"N,T", "N,T_ms,P", "a", "N, T ,P", "#c\nN,T"}
	for i := 0; i < 400; i++ {
		var b strings.Builder
		h := headers[rng.IntN(len(headers))]
		b.WriteString(h + "\n")
		width := strings.Count(h[strings.LastIndexByte(h, '\n')+1:], ",") + 1
		for r := rng.IntN(8); r >= 0; r-- {
			switch rng.IntN(8) {
			case 0:
				b.WriteString("# a comment\n")
			case 1:
				b.WriteString("\n")
			case 2:
				b.WriteString("   \r\n")
			default:
				w := width
				if rng.IntN(6) == 0 {
					w += rng.IntN(3) - 1
				}
				row := make([]string, max(w, 1))
				for j := range row {
					row[j] = cells[rng.IntN(len(cells))]
				}
				b.WriteString(strings.Join(row, ","))
				if rng.IntN(3) == 0 {
					b.WriteString("\r")
				}
				if r > 0 || rng.IntN(2) == 0 {
					b.WriteString("\n")
				}
			}
		}
		text := b.String()
		for _, keep := range []bool{false, true} {
			t1, e1, err1 := readPlainCSV(text, Options{KeepGoodRows: keep})
			t2, e2, err2 := readQuotedCSV([]byte(text), Options{KeepGoodRows: keep})
			if fmt.Sprint(err1) != fmt.Sprint(err2) || !reflect.DeepEqual(t1, t2) || fmt.Sprint(e1) != fmt.Sprint(e2) {
				t.Fatalf("%q (keep %v):\nplain  %+v %v %v\ncsv    %+v %v %v", text, keep, t1, e1, err1, t2, e2, err2)
			}
		}
	}
}
