package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/measure"
)

// calibrate --quick writes a machine file that machine.ParseJSON accepts and
// a curves CSV; the measurement itself is checked in package measure.
func TestCalibrateQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("calibration skipped in -short mode")
	}
	dir := t.TempDir()
	out, curves := filepath.Join(dir, "m.json"), filepath.Join(dir, "c.csv")
	var so, se bytes.Buffer
	if s := run([]string{"calibrate", "--quick", "--max-memory", "64MiB", "--id", "here", "--out", out, "--curves", curves}, &so, &se); s != 0 {
		t.Fatalf("status %d: %s", s, se.String())
	}
	if !strings.Contains(se.String(), "[") || !strings.Contains(se.String(), "beta1") {
		t.Errorf("no progress or summary on stderr: %q", se.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.ParseJSON(data)
	if err != nil {
		t.Fatalf("machine file rejected: %v\n%s", err, data)
	}
	if m.ID != "here" || m.Source != "measured by memwall calibrate" || m.Notes["cpu"] == "" || m.Notes["go"] == "" || m.Spread["beta1"] < 0 {
		t.Errorf("machine file lacks provenance: %+v", m)
	}
	c, err := os.ReadFile(curves)
	if err != nil || !strings.HasPrefix(string(c), "curve,x_bytes") || !strings.Contains(string(c), "latency,") || !strings.Contains(string(c), "random-throughput,") {
		t.Errorf("curves CSV: %v %q", err, c)
	}
	// The file loads through the same door predict and validate use.
	if _, err := loadMachine(out); err != nil {
		t.Errorf("loadMachine: %v", err)
	}
}

// TestWriteCurves: every curve of a calibration gets its rows, named, with
// its x and the median, the fastest and the spread of its seconds.
func TestWriteCurves(t *testing.T) {
	st := func(v float64) measure.Stat { return measure.Stat{Median: v, Min: v / 2, Spread: 0.25} }
	res := measure.Result{
		Latency:      []measure.LatencyPoint{{Size: 4096, Latency: st(1e-9)}},
		Throughput:   []measure.ThroughputPoint{{Size: 8192, Access: st(2e-9)}},
		SeqLines:     []measure.SeqPoint{{Size: 16384, Block: st(3e-9)}},
		Line:         []measure.LinePoint{{Offset: 64, Time: st(4e-9)}},
		Distribution: []measure.DistPointStat{{Size: 32768, Count: st(5e-9), Scatter: st(6e-9), Walk: st(7e-9), Put: st(9e-9)}},
		Streams:      []measure.StreamPointStat{{Buckets: 16, Scatter: st(8e-9)}},
	}
	var b bytes.Buffer
	if err := writeCurves(&b, res); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"curve,x_bytes,median_seconds,min_seconds,spread",
		"latency,4096,1e-09,5e-10,0.25",
		"random-throughput,8192,2e-09,1e-09,0.25",
		"sequential-line,16384,3e-09,1.5e-09,0.25",
		"line,64,4e-09,2e-09,0.25",
		"distribution-count,32768,5e-09,2.5e-09,0.25",
		"distribution-scatter,32768,6e-09,3e-09,0.25",
		"page-walk,32768,7e-09,3.5e-09,0.25",
		"distribution-put,32768,9e-09,4.5e-09,0.25",
		"scatter-buckets,16,8e-09,4e-09,0.25",
	}
	if got := strings.Split(strings.TrimSpace(b.String()), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A curve whose put was not measured writes no put rows.
	res.Distribution[0].Put = measure.Stat{}
	b.Reset()
	if err := writeCurves(&b, res); err != nil || strings.Contains(b.String(), "distribution-put") {
		t.Errorf("without put: %v\n%s", err, b.String())
	}
}

func TestCalibrateBadInput(t *testing.T) {
	var so, se bytes.Buffer
	if s := run([]string{"calibrate", "--max-memory", "1KiB"}, &so, &se); s != 2 || !strings.Contains(se.String(), "--max-memory") {
		t.Errorf("status %d, stderr %q", s, se.String())
	}
	se.Reset()
	if s := run([]string{"calibrate", "extra"}, &so, &se); s != 2 {
		t.Errorf("stray argument: status %d", s)
	}
}

// calibrate --compare A --against B prints each parameter of both files
// with the relative change (by hand: β2 5.0 → 5.75 GB/s is +15.0%, beyond
// 10%; β1 unchanged) and both files' spreads, and counts those beyond
// 10%, and of those the ones within a spread (β2's 20 % in B covers its
// 15 %); --against alone is refused with a message naming both flags.
func TestCalibrateCompare(t *testing.T) {
	dir := t.TempDir()
	a := `{"id":"a","name":"A","beta1":4e10,"beta2":5e9,"mu1":2,"cache":16777216,"line":64,"mispredict":8e-9,"levels":[{"name":"L1","size":32768,"line":64,"beta1":2e11,"beta2":1e11,"latency":1e-9},{"name":"L2","size":16777216,"line":64,"beta1":4e10,"beta2":5e9,"latency":1e-8}],"walk_in_flight":2.32,"gather_curve":[{"span":8388608,"read":1e-9},{"span":33554432,"read":4e-9}]}`
	b := `{"id":"b","name":"B","beta1":4e10,"beta2":5.75e9,"mu1":2,"cache":16777216,"line":64,"mispredict":8.4e-9,"levels":[{"name":"L1","size":32768,"line":64,"beta1":2e11,"beta2":1e11,"latency":1e-9},{"name":"L2","size":16777216,"line":64,"beta1":4e10,"beta2":5.75e9,"latency":1e-8}],"walk_in_flight":2.23,"gather_curve":[{"span":8388608,"read":1e-9},{"span":33554432,"read":6e-9}],"spread":{"beta2":0.2}}`
	fa, fb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(fa, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fb, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCLI("calibrate", "--compare", fa, "--against", fb)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	// A heap walk's lines in flight: 2.32 to 2.23 (−3.9 %), a count.
	for _, want := range []string{"beta2", "+15.0%", "— 20.0%  > 10%, within the spreads", "mispredict", "+5.0%", "walk_in_flight                     2.32           2.23     -3.9%",
		// The gather curve at 16 MiB, half way in log from 8 to 32 MiB:
		// 2.5 ns, then 3.5 (+40 %), on the step of the 16 MiB cache; at
		// 32 MiB, twice the cache, 4 then 6 ns (+50 %), off it.
		"2.5 ns         3.5 ns    +40.0%             — —  > 10%, on the last cache's step\n",
		"4 ns           6 ns    +50.0%             — —  > 10%\n",
		"4 of 16 parameters differ by more than 10%; 1 of them by no more than its spread over the rounds of either calibration; 1 of them a curve's point on the last cache's step (within 1.5 times either cache)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, status := runCLI("calibrate", "--against", fb); status == 0 || !strings.Contains(errOut, "--against") || !strings.Contains(errOut, "--compare") {
		t.Errorf("--against alone: status %d, %q", status, errOut)
	}
}
