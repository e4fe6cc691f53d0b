package units_test

import (
	"fmt"

	"memwall/engine/units"
)

// SI prefixes are decimal, IEC prefixes binary, and 2^n is a power of two.
func ExampleParseCount() {
	for _, s := range []string{"8M", "8Mi", "2^23", "1e6", "1.5"} {
		n, err := units.ParseCount(s)
		if err != nil {
			fmt.Println(s, "->", err)
			continue
		}
		fmt.Println(s, "->", n)
	}
	// Output:
	// 8M -> 8000000
	// 8Mi -> 8388608
	// 2^23 -> 8388608
	// 1e6 -> 1000000
	// 1.5 -> "1.5" is not a whole number
}

// A bare number is bytes; KB is 1000 bytes and KiB 1024.
func ExampleParseSize() {
	for _, s := range []string{"128", "256 KB", "256KiB", "4MiB"} {
		n, _ := units.ParseSize(s)
		fmt.Println(s, "->", n)
	}
	// Output:
	// 128 -> 128
	// 256 KB -> 256000
	// 256KiB -> 262144
	// 4MiB -> 4194304
}

// Bandwidths in GB/s are 10^9 bytes per second.
func ExampleParseBandwidth() {
	b, _ := units.ParseBandwidth("2.12GB/s")
	fmt.Println(b, units.FormatBandwidth(b))
	// Output: 2.12e+09 2.12 GB/s
}

// FormatCount writes a count the way the fields and links take it back.
func ExampleFormatCount() {
	fmt.Println(units.FormatCount(8<<20), units.FormatCount(1000000), units.FormatCount(12345))
	// Output: 8Mi 1000000 12345
}
