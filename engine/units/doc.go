// Package units parses and formats the quantities a memwall user types:
// sizes and element counts ("256KiB", "8Mi", "2^23"), bandwidths ("2.12GB/s")
// and times ("7.52ns").
//
// Prefix convention, used everywhere in memwall: SI prefixes are decimal and
// IEC prefixes are binary. k/K, M, G, T mean 10^3, 10^6, 10^9, 10^12; Ki, Mi,
// Gi, Ti mean 2^10, 2^20, 2^30, 2^40. So "256 KB" is 256000 bytes and
// "256 KiB" is 262144 bytes, and "2.12 GB/s" is 2.12e9 bytes per second (the
// reading under which the MBRAM paper's printed predictions reproduce). The paper's
// "256 KB cache" is a binary size and memwall writes it 256 KiB.
package units
