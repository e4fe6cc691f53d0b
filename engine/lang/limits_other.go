//go:build !js

package lang

// Native limits: a call of the language takes a few Go frames on a
// goroutine stack that grows to a gigabyte.
const (
	// DefaultMaxMemory bounds the pages a run allocates.
	DefaultMaxMemory = 4 << 30
	// DefaultMaxDepth bounds the depth of calls.
	DefaultMaxDepth = 10000
)
