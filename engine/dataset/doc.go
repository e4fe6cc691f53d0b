// Package dataset imports measured data (times against parameters) from CSV
// and JSON into named numeric columns that the fit package can read.
//
// CSV follows RFC 4180 with a header row naming the columns; lines starting
// with '#' are comments. Units may stand in the header ("time_ms",
// "time [ms]", "time (ms)", "size_KiB", "bw_GB/s") or in the cells ("1.5ms",
// "256KiB", "8Mi", "2^23"), following memwall's prefix convention (package
// units: k, M, G decimal; Ki, Mi, Gi binary). Times are stored in seconds,
// sizes in bytes and bandwidths in bytes per second, and the column records
// which (docs/readings.md). Counts with multipliers ("8Mi") are plain
// numbers. A column where no cell is a number is kept as text (labels).
//
// JSON is either an array of objects, one per row, or an object with
// "columns" (names, or objects with name, unit and description) and "rows"
// (arrays of values); numbers and strings with units are both accepted.
//
// Every bad cell is reported with its line and column. A file with bad rows
// is refused, listing them, unless the caller asks to keep the good rows
// (the user agreed); then the bad rows are skipped and still listed.
package dataset
