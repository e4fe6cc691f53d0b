// Package jsonx is memwall's one door to a JSON codec. Native builds (the
// CLI, data files, JSON Lines) use goccy/go-json for speed; the WebAssembly
// build uses encoding/json, which go-app links anyway, because goccy/go-json
// adds about 680 KB brotli to app.wasm (docs/readings.md). The build tag decides.
package jsonx
