package superstep

import (
	"strings"
	"testing"

	"memwall/engine/dataset"
)

func readCSV(t *testing.T, s string) *dataset.Table {
	t.Helper()
	tbl, bad, err := dataset.ReadCSV(strings.NewReader(s), dataset.Options{})
	if err != nil || len(bad) > 0 {
		t.Fatalf("%v %v", err, bad)
	}
	return tbl
}

const measuredHeader = "suite,bad,p,h_r,h_w,M,h_rc,h_rm,h_wc,h_wm,time_us\n"

// TestReadMeasured: two good rows and one bad row. The second good row reads
// 600 words with 500 in cache (h_rc = 500, h_rm = 100), so C = 500 words;
// 12 µs is 12 µs in the samples (the table stores seconds).
func TestReadMeasured(t *testing.T) {
	m, err := ReadMeasured(readCSV(t, measuredHeader+
		"1,0,2,100,50,200,100,0,50,0,12\n"+
		"1,0,4,600,50,700,500,100,50,0,30\n"+
		"2,1,2,100,50,200,100,0,50,0,90\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Good) != 2 || len(m.Bad) != 1 || m.CacheWords != 500 || len(m.Ps) != 2 || m.Ps[0] != 2 || m.Ps[1] != 4 {
		t.Fatalf("%+v", m)
	}
	if g := m.Good[0]; g.Suite != 1 || g.P != 2 || g.Counts != (Counts{Hr: 100, Hw: 50, M: 200}) || g.Micros < 11.999999 || g.Micros > 12.000001 {
		t.Errorf("first sample %+v", g)
	}
	// With no row beyond the cache, C is the largest h: every superstep
	// is in R0.
	m, err = ReadMeasured(readCSV(t, measuredHeader+"1,0,2,100,50,200,100,0,50,0,12\n1,1,2,30,80,200,30,0,80,0,12\n"))
	if err != nil || m.CacheWords != 100 {
		t.Fatalf("C = %g, err %v; want 100", m.CacheWords, err)
	}
}

func TestReadMeasuredBad(t *testing.T) {
	tests := []struct {
		csv, want string
	}{
		{"suite,bad,p,h_r,h_w,M,h_rc,h_rm,h_wc,h_wm\n1,0,2,1,1,2,1,0,1,0\n", `no numeric column "time"`},
		{"suite,bad,p,h_r,h_w,M,h_rc,h_rm,h_wc,h_wm,time\n1,0,2,1,1,2,1,0,1,0,5\n", "has no unit"},
		{measuredHeader + "4,0,2,1,1,2,1,0,1,0,5\n", "line 2: suite 4"},
		{measuredHeader + "1,0,0,1,1,2,1,0,1,0,5\n", "line 2: p = 0"},
		{measuredHeader + "1,0,2.5,1,1,2,1,0,1,0,5\n", "line 2: p = 2.5"},
		{measuredHeader + "1,3,2,1,1,2,1,0,1,0,5\n", "line 2: bad = 3"},
		{measuredHeader + "1,0,2,5,1,2,5,0,1,0,5\n", "line 2:"}, // M below h_r
		{measuredHeader, "no data rows"},                        // refused by the reader already
	}
	for _, tc := range tests {
		tbl, _, err := dataset.ReadCSV(strings.NewReader(tc.csv), dataset.Options{})
		if err == nil {
			_, err = ReadMeasured(tbl)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.csv, err, tc.want)
		}
	}
}
