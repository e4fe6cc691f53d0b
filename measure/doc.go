// Package measure takes real measurements: microbenchmarks that calibrate
// the MBRAM parameters of the machine it runs on (the MBRAM paper, section II:
// beta1, beta2, C, B, m; docs/readings.md), and plain Go implementations of the
// MBRAM paper's kernels (permutation products, row-major matrix product, seven
// sorts) whose running times memwall validate sets against the closed-form
// predictions.
//
// Every microbenchmark warms up, repeats, and reports the median with the
// relative interquartile range as its spread (Stat): the development
// machines are shared, and a median shrugs off a repetition that another
// process slowed down. Each benchmark's method is written at its code:
// bandwidth.go (beta1 in four variants, beta2 from independent random line
// reads), latency.go (pointer chasing over a random cycle, kept as a
// chart), throughput.go and cache.go (C from the time per independent
// random read against working-set size), line.go (B), branch.go (m).
//
// C comes from throughput, not latency, because the model charges B/beta2
// per random line (the MBRAM paper, II), a cost of overlapping reads; and because
// on a virtual machine the latency curve can hide the last cache entirely:
// on the development machine (KVM guest) a dependent chase costs 160-500
// ns anywhere from 2 MiB to 512 MiB, while independent reads show a clear
// L3 level (about 4 ns) up to about 8 MiB. Curve minima, not medians, feed
// the cache detection: load from other processes only ever slows a run.
//
// numl.go times the lines-touched paper's messages (section 4): k whole rows or the k
// leftmost columns of a row-major array gathered into a send buffer from
// flushed caches, each with the lines it touches (u) counted by
// engine/numl at the array's real offset within a line, so that the
// message models S1–S3 and M1–M3 can be fitted to this machine.
//
// supersteps.go runs the superstep paper's experiment suites for real (section 4.1):
// p goroutines locked to OS threads read and write one shared array in the
// Good and Bad patterns, with a spinning barrier between the copy-in and
// copy-out phases, and each superstep's median time is written with the
// features the paper's cost functions take (h_r, h_w, h, M, h_rc, h_rm,
// h_wc, h_wm), so that the fits of its Tables 1–8 can be redone here.
//
// The package is pure Go apart from reading the OS's own description of the
// machine (sysinfo_linux.go; elsewhere, including GOOS=js GOARCH=wasm, it
// reports nothing), so the same calibration can run in a browser. Calibrate
// takes a context (cancel it to stop between steps), reports progress
// through Options.Progress, and Options.MaxBytes bounds the memory it uses.
package measure
