// Command wasm is memwall's web app. Compiled with GOOS=js GOARCH=wasm it
// is app.wasm, the whole UI and engine running in the browser. Run natively
// it is the static-site generator: it builds app.wasm, renders every page
// with the go-app Handler and writes a site that any static server can
// serve, at the root of a host or under a sub-path:
//
//	go run ./wasm -out dist                  # site for the root of a host
//	go run ./wasm -out dist -prefix memwall  # site for https://host/memwall/
//
// `memwall serve` serves the same site from inside the CLI binary.
package main

import (
	"os"

	goapp "github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/app"
)

func main() {
	app.Route()
	goapp.RunWhenOnBrowser() // in the browser this never returns
	os.Exit(generate(os.Args[1:], os.Stdout, os.Stderr))
}
