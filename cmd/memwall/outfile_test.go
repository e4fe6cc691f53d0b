package main

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOutputsCheckedFirst: every output flag is checked before a
// measurement starts or a file is opened. Each case would otherwise run
// for seconds to minutes (calibrate, numl measure, superstep-suites) or
// replace its input (superstep-fit), so a prompt status 2 with the exact
// message, and the old file byte for byte, show the check ran first.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	const oldText = "previous result\n"
	if err := os.WriteFile(old, []byte(oldText), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing", "x.json")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--out", missing}, "memwall calibrate: --out " + missing + ": the directory " + filepath.Join(dir, "missing") + " does not exist\n"},
		{[]string{"calibrate", "--out", old}, "memwall calibrate: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"calibrate", "--out", dir}, "memwall calibrate: --out " + dir + ": is a directory; give a file name\n"},
		{[]string{"calibrate", "--out", missing[:len(missing)-6] + "y.json", "--curves", old, "--force"}, "memwall calibrate: --out " + missing[:len(missing)-6] + "y.json: the directory " + filepath.Join(dir, "missing") + " does not exist\n"},
		{[]string{"calibrate", "--out", old, "--curves", old, "--force"}, "memwall calibrate: --curves " + old + ": --out names the same file; give two different files\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", old}, "memwall superstep-fit: --coef-out " + old + ": that is the input --data; write to another file\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", old, "--force"}, "memwall superstep-fit: --coef-out " + old + ": that is the input --data; write to another file\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", dir + "/./old.json"}, "memwall superstep-fit: --coef-out " + dir + "/./old.json: that is the input --data; write to another file\n"},
		{[]string{"numl", "measure", "-L", "0", "--out", old, "--force"}, "memwall numl measure: -L: a power of two from 8 to 4096 bytes, e.g. 64; got \"0\"\n"},
		{[]string{"numl", "measure", "--out", old}, "memwall numl measure: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"superstep-suites", "--out", old}, "memwall superstep-suites: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"superstep-suites", "--out", "-"}, "memwall superstep-suites: --out: give a file name; leave --out out to write to standard output\n"},
		{[]string{"calibrate", "--out", filepath.Join(dir, "a\x1b[2Jb.json"), "--curves", filepath.Join(dir, "a\x1b[2Jb.json")}, "memwall calibrate: --curves \"" + dir + "/a\\x1b[2Jb.json\": --out names the same file; give two different files\n"},
	}
	for _, tc := range tests {
		start := time.Now()
		_, errs, st := runCLI(tc.args...)
		if st != 2 || errs != tc.want {
			t.Errorf("%q: status %d, stderr\n%q\nwant 2 and\n%q", tc.args, st, errs, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q: took %v: the check ran after measuring", tc.args, d)
		}
		if b, _ := os.ReadFile(old); string(b) != oldText {
			t.Fatalf("%q: the old file now holds %q", tc.args, b)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestWriteOutputKeepsOldFile: a write error, a failing writer after part
// of the output, and Ctrl-C during the write leave the previous file as it
// was and no temporary file beside it; a write that succeeds replaces it
// whole, keeping its permissions.
func TestWriteOutputKeepsOldFile(t *testing.T) {
	errDiskFull := errors.New("no space left on device")
	tests := []struct {
		name    string
		write   func(io.Writer) error
		wantErr string
		want    string
	}{
		{"write error at once", func(io.Writer) error { return errDiskFull }, "--out F: no space left on device", "old"},
		{"write error after part of the file", func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("new", 1<<16))
			return errDiskFull
		}, "--out F: no space left on device", "old"},
		{"interrupt during the write", func(w io.Writer) error {
			io.WriteString(w, "half")
			syscall.Kill(os.Getpid(), syscall.SIGINT)
			time.Sleep(50 * time.Millisecond) // the signal is delivered asynchronously
			io.WriteString(w, "rest")
			return nil
		}, "--out F: interrupted; the previous file, if any, is unchanged", "old"},
		{"success", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "", "new"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "F")
			if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
				t.Fatal(err)
			}
			if err := checkOutputs(true, nil, output{"--out", path}); err != nil {
				t.Fatal(err)
			}
			err := writeOutput(output{"--out", path}, tc.write)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), path, "F")
			}
			if got != tc.wantErr {
				t.Errorf("error %q, want %q", got, tc.wantErr)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.want {
				t.Errorf("file holds %.20q, want %q", b, tc.want)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", info.Mode().Perm())
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("directory holds %d entries, want the file alone", len(ents))
			}
		})
	}
}

// TestInterruptKeepsOldOutput: Ctrl-C during a measurement (superstep-suites
// with 1000 repetitions a superstep runs for minutes) stops it with a
// message, and the file --out names keeps its previous content, with no
// temporary file beside it.
func TestInterruptKeepsOldOutput(t *testing.T) {
	// While the test listens for SIGINT, the signal does not end the test
	// process; the command's own listener sees it as well.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	dir := t.TempDir()
	path := filepath.Join(dir, "supersteps.csv")
	if err := os.WriteFile(path, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		errs   string
		status int
	}
	done := make(chan result, 1)
	go func() {
		_, errs, st := runCLI("superstep-suites", "--p", "1", "--reps", "1000", "--out", path, "--force")
		done <- result{errs, st}
	}()
	time.Sleep(300 * time.Millisecond)
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the command did not stop on Ctrl-C")
	}
	want := "memwall superstep-suites: interrupted before anything was written; --out " + path + " is unchanged\n"
	if r.status != 1 || r.errs != want {
		t.Errorf("status %d, stderr %q; want 1 and %q", r.status, r.errs, want)
	}
	if b, _ := os.ReadFile(path); string(b) != "previous\n" {
		t.Errorf("the file now holds %.40q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %d entries, want the file alone", len(ents))
	}
}
