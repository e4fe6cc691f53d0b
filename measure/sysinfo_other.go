//go:build !linux

package measure

// ReadOSInfo returns what the platform reports. Outside Linux that is
// what the processor states of itself (processorInfo: CPUID on x86,
// Windows and macOS included), and nothing in the browser (GOOS=js) or
// on other processors, where the measured values stand alone.
func ReadOSInfo() OSInfo { return processorInfo() }
