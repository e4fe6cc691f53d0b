//go:build js

package app

import (
	"os"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TestMain runs the package's tests in a browser (wasmbrowsertest). The
// page there has no app.js, so the goappGetenv it defines is stood in for:
// every variable is unset, as for a site at the root of a host.
func TestMain(m *testing.M) {
	app.Window().Set("goappGetenv", app.FuncOf(func(app.Value, []app.Value) any { return nil }))
	os.Exit(m.Run())
}
