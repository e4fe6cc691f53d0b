package jsonx

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const goccy = "github.com/goccy/go-json"

// goList runs go list in this module with extra environment.
func goList(t *testing.T, env []string, args ...string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestWasmHasNoGoccy: app.wasm (./wasm for js/wasm) links no package of
// goccy/go-json, which would add about 680 KB brotli; under js jsonx is
// encoding/json. (go tool nm does not read wasm binaries, so the
// dependency list is what is checked.)
func TestWasmHasNoGoccy(t *testing.T) {
	deps := goList(t, []string{"GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0"}, "-deps", "memwall/wasm")
	if !strings.Contains(deps, "memwall/app\n") {
		t.Fatalf("go list -deps memwall/wasm does not list memwall/app:\n%s", deps)
	}
	for _, p := range strings.Fields(deps) {
		if strings.HasPrefix(p, goccy) {
			t.Errorf("the js/wasm build of memwall/wasm depends on %s", p)
		}
	}
}

// TestOneDoor: no package of the module but jsonx imports goccy/go-json,
// so the build tag in jsonx alone keeps it out of the browser.
func TestOneDoor(t *testing.T) {
	out := goList(t, nil, "-f", `{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}`, "memwall/...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, p := range strings.Fields(imports) {
			if strings.HasPrefix(p, goccy) && pkg != "memwall/internal/jsonx" {
				t.Errorf("%s imports %s; use memwall/internal/jsonx", pkg, p)
			}
		}
	}
}
