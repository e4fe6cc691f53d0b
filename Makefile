# memwall: two commands matter. `make run` builds and serves the app on
# http://localhost:$(PORT); `make test` runs every test.
GO    ?= go
PORT  ?= 8000

.PHONY: test test-go bench build cli

test: test-go

test-go:
	$(GO) vet ./...
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

cli:
	$(GO) build -o bin/memwall ./cmd/memwall

build: cli
