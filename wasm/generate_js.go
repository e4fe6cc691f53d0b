//go:build js

package main

import "io"

// generate is the native static-site generator; in the browser main never
// gets this far.
func generate([]string, io.Writer, io.Writer) int { return 0 }
