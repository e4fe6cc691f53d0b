// Package jsonx is memwall's one door to a JSON codec. Native builds (the
// CLI's outputs, data files) use goccy/go-json for speed; the WebAssembly
// build uses encoding/json, which go-app links anyway, because goccy/go-json
// adds about 680 KB brotli to app.wasm (docs/readings.md). The build tag decides.
//
// Through jsonx go every --json output of the CLI (writeJSON), data-set
// import (engine/dataset.ReadJSON) and strictjson.Check's token walk over
// every JSON file a user gives. Small files (machine, scenario, coefficient
// and link files, the embedded presets) stay on encoding/json: a few
// hundred bytes, and strictjson.Decode's messages are built from
// encoding/json's error types. Only this package imports goccy/go-json, and
// ./wasm under js/wasm depends on none of it (deps_test.go).
//
// What goccy buys, measured on 2026-11-23 on a shared 2-vCPU VM (Oxide
// Virtual Turin-like Processor, linux/amd64, go1.26.8, goccy/go-json
// v0.12.0; load average 5 to 7, so medians of 6 runs of
// 'go test -run ^$ -bench Codec -benchmem -benchtime 1s', ±40%):
//
//	100 000 rows                  encoding/json         goccy (jsonx)          ratio
//	fit --json output, 22.3 MB
//	  encode (MarshalIndent)      272 ms  82 MB/s 700 068 allocs  103 ms 216 MB/s 6 allocs   2.6× faster
//	  decode (Unmarshal)          398 ms  56 MB/s 600 049 allocs  138 ms 162 MB/s 200 027    2.9× faster
//	data set, columns and rows, 5.4 MB
//	  encode                       64 ms  85 MB/s      49 allocs   25 ms 223 MB/s 2 allocs   2.6× faster
//	  decode                      104 ms  52 MB/s 300 045 allocs   23 ms 236 MB/s 100 025    4.5× faster
//	  tokens (strictjson.Check)   176 ms  31 MB/s   1.67 M allocs  46 ms 122 MB/s 0.87 M     3.9× faster
//
// Encoding allocates 6 to 7 times fewer bytes (32 MB against 177 MB for
// the fit output). End to end, dataset.ReadJSON of 100 000 rows
// (BenchmarkReadJSON100k, Check included; medians of 3) went from 511 ms
// to 216 ms for 2.6 MB of columns and rows (the rows also decode without a
// Decoder each since) and from 912 ms to 322 ms for 4.1 MB of row objects.
package jsonx
