//go:build unix

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
