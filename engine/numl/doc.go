// Package numl counts the unique memory lines a message touches (NUML) and
// models communication and whole-program cost with that count, following
// the lines-touched paper (the communication cost model with lines touched).
//
// Section 3.2.1 of the paper derives lower and upper bounds on the lines
// touched when k whole rows (eqs. 3, 4) or the k leftmost columns (Theorems 1
// and 2, eqs. 5, 6) of a row-major array are marshalled. This package counts
// them exactly for a given alignment of the array's first byte within a line
// (docs/readings.md): the starts of successive rows, taken modulo the
// line size L, repeat with period P = L/g, g = gcd(W, L) (Theorem 1), so one
// period of rows is summed and multiplied, the remainder added, and the lines
// that consecutive rows share (possible only when the skipped part W − kw of
// a row is shorter than a line) subtracted. The minimum and maximum over all
// alignments are the paper's lower and upper bounds, found in O(L) for all L
// alignments at once; the paper's closed forms hold when no row shares a line
// and the rows are whole periods.
//
// Section 4.3's regression models (Table 1: the standard models S1–S3 over
// messages and bytes, and M1–M3 which add the lines touched) are term lists
// for engine/fit, fitted on a training set and judged on a test set with the
// statistics of section 4.5 (s_e, eq. 10; D, eq. 11).
//
// Section 7 compares two programs for the uniform linear convolution
// (Figures 18 and 19): Conv-Shift, with 2(b − 1) shifts and no scans, and
// Conv-Scan, with two parallel-prefix scans and three shifts. Their cost is
// the sum of their communication operations (messages, bytes, lines
// touched) and computation statements (section 7.1: arithmetic operations,
// loads and stores, lines touched) under the standard model and under M1,
// and the predicted crossover block size is where Conv-Scan becomes the
// cheaper program.
package numl
