//go:build js

package lang

// Browser limits: WebAssembly runs Go's calls on the browser's own call
// stack, which overflows (a RangeError that stops the whole app) some
// thousands of language calls deep, and a tab's memory is a few GiB at
// most.
const (
	// DefaultMaxMemory bounds the pages a run allocates.
	DefaultMaxMemory = 1 << 30
	// DefaultMaxDepth bounds the depth of calls.
	DefaultMaxDepth = 1000
)
