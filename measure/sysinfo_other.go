//go:build !linux

package measure

// ReadOSInfo returns what the platform reports; outside Linux (and in the
// browser, GOOS=js) that is nothing, and the measured values stand alone.
func ReadOSInfo() OSInfo { return OSInfo{} }
