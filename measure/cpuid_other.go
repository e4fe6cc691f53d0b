//go:build !(amd64 || 386)

package measure

// processorInfo is empty off x86: there is no CPUID to ask (arm64
// states its caches only to the kernel, and a browser, GOOS=js, states
// nothing), and the measured values stand alone.
func processorInfo() OSInfo { return OSInfo{} }
