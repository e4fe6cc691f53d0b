package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/machine"
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
