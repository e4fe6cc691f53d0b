# memwall: two commands matter. `make run` builds and serves the app on
# http://localhost:$(PORT); `make test` runs every test.
GO    ?= go
PORT  ?= 8000

# BROTLI is the compression level of the site's precompressed files: 11 for
# what ships (a minute for app.wasm), 5 for a quick local build.
BROTLI ?= 11

# Runs Go's js/wasm tests in headless Chromium.
WASMEXEC := $(abspath bin/wasmbrowsertest)

.PHONY: test test-go test-wasm bench bench-wasm build cli run site site-subpath repro

test: test-go test-wasm

# The packages that share state between goroutines (the server and its
# site, the presets' lazy loading, the app's page state, the goroutines
# that run measure/'s supersteps) run again under the race detector. The
# microbenchmarks of measure/ time this machine, so
# they run alone, after everything else (browser tests beside them would
# skew the numbers).
test-go:
	$(GO) vet ./...
	$(GO) test -timeout 40m $$($(GO) list ./... | grep -v '/measure$$')
	$(GO) test -race ./cmd/memwall/... ./presets/ ./app/
	$(GO) test -race -run 'Superstep|TeamAddresses' ./measure/
	$(GO) test -p 1 ./measure/

# The UI, engine and presets tests again, compiled to WebAssembly and run in
# headless Chromium (docs/readings.md): browser storage and JS interop for real.
# One package at a time: the runner keeps an Example's output in a host file
# named after the Example, and packages with Examples of the same name (each
# model's ExampleParseScenario) would race for it.
test-wasm: $(WASMEXEC)
	GOOS=js GOARCH=wasm $(GO) test -p 1 -exec $(WASMEXEC) ./app/ ./engine/... ./presets/

$(WASMEXEC):
	GOBIN=$(abspath bin) $(GO) install github.com/agnivade/wasmbrowsertest@v0.11.0

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# The simulator's benchmarks again as WebAssembly in Chromium, for the
# browser's rate beside the native one.
bench-wasm: $(WASMEXEC)
	GOOS=js GOARCH=wasm $(GO) test -exec $(WASMEXEC) -run '^$$' -bench 'Perm' -benchtime 3x ./engine/sim/ ./engine/kernels/ ./engine/lang/

cli:
	$(GO) build -o bin/memwall ./cmd/memwall

# The static site for the root of a host, in dist/: serve it with any static
# server that maps /machines to machines.html (GitHub Pages, nginx try_files).
site:
	$(GO) run ./wasm -out dist -brotli $(BROTLI)

# The same site for https://HOST/memwall/ (GitHub Pages of a repository).
site-subpath:
	$(GO) run ./wasm -out dist-memwall -prefix memwall -brotli $(BROTLI)

# memwall with the web app inside: the site is generated into the directory
# cmd/memwall/site embeds.
build:
	$(GO) run ./wasm -out cmd/memwall/site/dist -brotli $(BROTLI)
	$(GO) build -o bin/memwall ./cmd/memwall

run: build
	bin/memwall serve --addr localhost:$(PORT)

# Two builds of app.wasm from empty build caches give the same bytes.
repro:
	scripts/repro.sh
