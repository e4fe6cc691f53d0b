package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
)

// This file is the one way a command writes a file the user named. Every
// output is checked before any measurement starts or any file is opened
// (checkOutputs), and written to a temporary file in the same directory,
// synced and renamed over the target at the end (writeOutput): an
// interrupt, a full disk or a write error leaves the previous file as it
// was.

// output is one file a command will write: the flag that names it and the
// path ("" when the flag was not given: the output goes to standard output
// or nowhere).
type output struct {
	flag string
	path string
}

// forceFlag registers --force on a command that writes files.
func forceFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("force", false, "replace output files that already exist")
}

// checkOutputs refuses, before anything runs, an output that exists
// (without force), is a directory, lies in a directory that is missing or
// not writable, is one of the command's inputs, or is named by two flags.
// inputs are the files the command reads, as flag and path.
func checkOutputs(force bool, inputs []output, outs ...output) error {
	type seen struct {
		flag string
		info os.FileInfo
		abs  string
	}
	var known []seen
	for _, in := range inputs {
		if in.path == "" || in.path == "-" {
			continue
		}
		abs, _ := filepath.Abs(in.path)
		info, _ := os.Stat(in.path)
		known = append(known, seen{in.flag, info, abs})
	}
	nIn := len(known)
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			return fmt.Errorf("%s: give a file name; leave %s out to write to standard output", o.flag, o.flag)
		}
		abs, err := filepath.Abs(o.path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", o.flag, quoteName(o.path), err)
		}
		info, statErr := os.Stat(o.path)
		for i, k := range known {
			same := k.abs == abs || (k.info != nil && info != nil && os.SameFile(k.info, info))
			if !same {
				continue
			}
			if i < nIn {
				return fmt.Errorf("%s %s: that is the input %s; write to another file", o.flag, quoteName(o.path), k.flag)
			}
			return fmt.Errorf("%s %s: %s names the same file; give two different files", o.flag, quoteName(o.path), k.flag)
		}
		known = append(known, seen{o.flag, info, abs})
		switch {
		case statErr == nil && info.IsDir():
			return fmt.Errorf("%s %s: is a directory; give a file name", o.flag, quoteName(o.path))
		case statErr == nil && !info.Mode().IsRegular():
			return fmt.Errorf("%s %s: not a regular file; give a file name", o.flag, quoteName(o.path))
		case statErr == nil && !force:
			return fmt.Errorf("%s %s: the file exists; pass --force to replace it", o.flag, quoteName(o.path))
		case statErr != nil && !errors.Is(statErr, os.ErrNotExist):
			return fmt.Errorf("%s %s: %v", o.flag, quoteName(o.path), statErr)
		}
		dir := filepath.Dir(o.path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return fmt.Errorf("%s %s: the directory %s does not exist", o.flag, quoteName(o.path), quoteName(dir))
		}
		// Creating the temporary file is the one test of writability that
		// holds for every file system and user.
		f, err := os.CreateTemp(dir, tempPattern(o.path))
		if err != nil {
			return fmt.Errorf("%s %s: cannot write in %s: %v", o.flag, quoteName(o.path), quoteName(dir), unwrapPath(err))
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// unwrapPath drops the temporary name from an *os.PathError.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// errInterrupted is returned when Ctrl-C arrives while an output is being
// written; the previous file is then left as it was.
var errInterrupted = errors.New("interrupted; the previous file, if any, is unchanged")

// writeOutput writes o.path through write: to a temporary file in the same
// directory, synced, then renamed over o.path. On any error, and on an
// interrupt during the write, the temporary file is removed and o.path is
// left as it was. o.path must have passed checkOutputs.
func writeOutput(o output, write func(io.Writer) error) (err error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	f, err := os.CreateTemp(filepath.Dir(o.path), tempPattern(o.path))
	if err != nil {
		return fmt.Errorf("%s %s: %v", o.flag, quoteName(o.path), unwrapPath(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("%s %s: %v", o.flag, quoteName(o.path), unwrapPath(err))
		}
	}()
	interrupted := func() bool {
		select {
		case <-sig:
			return true
		default:
			return false
		}
	}
	if err := write(f); err != nil {
		return err
	}
	if interrupted() {
		return errInterrupted
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(o.path); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if interrupted() {
		return errInterrupted
	}
	return os.Rename(tmp, o.path)
}

// writeTo writes to o.path through writeOutput, or to stdout when no file
// was named.
func writeTo(stdout io.Writer, o output, write func(io.Writer) error) error {
	if o.path == "" {
		return write(stdout)
	}
	return writeOutput(o, write)
}

// measureError explains a measurement that stopped: Ctrl-C says what was
// left as it was (the outputs are written only after measuring).
func measureError(err error, outs ...output) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	for _, o := range outs {
		if o.path != "" {
			return fmt.Errorf("interrupted before anything was written; %s %s is unchanged", o.flag, quoteName(o.path))
		}
	}
	return errors.New("interrupted")
}
