package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// TestMachineLibrary makes a machine, finds it after a reload, uses it on
// the Kernels page, and derives one from specifications.
func TestMachineLibrary(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")

	b.run(t, chromedp.Click("#new-machine", chromedp.ByQuery), chromedp.WaitVisible("#machine-form", chromedp.ByQuery))
	b.typeInto(t, "#m-name", "Test rig")
	b.typeInto(t, "#m-beta1", "20 GB/s")
	b.typeInto(t, "#m-beta2", "30 GB/s") // faster than beta1: refused
	// Wait for the message about the whole value: while the keys arrive,
	// the field briefly holds "30 GB/", which has a message of its own.
	b.waitFor(t, "the beta2 > beta1 message", `(document.querySelector("#m-beta2-err")||{}).textContent?.includes("must not exceed")`)
	b.typeInto(t, "#m-beta2", "3 GB/s")
	b.typeInto(t, "#m-line", "100 B") // not a power of two
	b.waitFor(t, "the line-size message", `(document.querySelector("#m-line-err")||{}).textContent?.includes("power of two")`)
	b.typeInto(t, "#m-line", "64 B")
	b.typeInto(t, "#m-cache", "24 MiB")
	// Save once the form holds every value typed and marks no field: on
	// a loaded machine the app may still be reading the last keys.
	b.waitFor(t, "the form to settle", `document.querySelector("#m-cache").value === "24 MiB" && !document.querySelector("#machine-form .error")`)
	clickSave(t, b)
	b.waitFor(t, "the saved machine or a notice", `document.querySelector('#user-table tr[data-id="my-test-rig"]') || document.querySelector("#notice")`)
	if n := b.text(t, "#notice"); !strings.HasPrefix(n, "Saved") {
		t.Fatalf("after Save the page says %q", n)
	}

	// Export writes a machine file that reads back.
	exported, err := os.ReadFile(b.download(t, t.TempDir(), "#export-all", `"Test rig"`))
	if err != nil || !strings.Contains(string(exported), `"beta1": 20000000000`) {
		t.Errorf("exported file: %s %v", exported, err)
	}

	// It survives a reload (local storage) and opens on the Kernels page.
	b.run(t, chromedp.Reload(), appReady(`#user-table tr[data-id="my-test-rig"]`))
	b.run(t, chromedp.Click(`#user-table tr[data-id="my-test-rig"] a.button`, chromedp.ByQuery), appReady("#total"))
	var selected string
	b.eval(t, `document.querySelector("#machine").value`, &selected)
	if selected != "my-test-rig" {
		t.Errorf("Kernels page selected %q, want my-test-rig", selected)
	}
	if !strings.Contains(b.text(t, ".machine-summary"), "20 GB/s") {
		t.Errorf("machine summary: %q", b.text(t, ".machine-summary"))
	}

	// Derive from the paper's DDR-266 numbers: β1 = 8 B × 266 MHz = 2.128 GB/s.
	b.open(t, srv.URL+"/machines", "#derive-form")
	b.run(t, chromedp.Click("#derive-button", chromedp.ByQuery), chromedp.WaitVisible("#machine-form", chromedp.ByQuery))
	var beta1 string
	b.eval(t, `document.querySelector("#m-beta1").value`, &beta1)
	if beta1 != "2.128 GB/s" {
		t.Errorf("derived beta1 %q, want 2.128 GB/s", beta1)
	}
	b.noErrors(t, "machines")
}

// TestMachineImport imports a file with one good and one bad machine: the
// bad one is explained and the good one imported once the user agrees; a
// file too large is refused before it is read.
func TestMachineImport(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	dir := t.TempDir()
	mixed := filepath.Join(dir, "mixed.json")
	os.WriteFile(mixed, []byte(`[
  {"name": "Good one", "beta1": "10 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "8 MiB", "line": "64 B", "mispredict": "5 ns"},
  {"name": "Bad one", "beta1": "0 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "8 MiB", "line": "64 B", "mispredict": "5 ns"}
]`), 0o644)
	huge := filepath.Join(dir, "huge.json")
	os.WriteFile(huge, make([]byte, 3<<20), 0o644)

	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")
	b.run(t, setFile("#import-file", mixed))
	b.run(t, chromedp.WaitVisible("#import-report", chromedp.ByQuery))
	if r := b.text(t, "#import-report"); !strings.Contains(r, "machine 2") || !strings.Contains(r, "beta1") {
		t.Errorf("import report: %q", r)
	}
	b.run(t, chromedp.Click("#import-good", chromedp.ByQuery))
	b.waitFor(t, "the good machine", `document.querySelector('#user-table tr[data-id="my-good-one"]')`)

	b.run(t, setFile("#import-file", huge))
	b.waitFor(t, "the size refusal", `document.querySelector("#import-report")?.textContent.includes("files up to")`)
	b.noErrors(t, "import")
}

// TestKerncraftImport imports the Kerncraft fixture of engine/machine: the
// editor opens with B = 64 B, C = 40960 · 11 · 64 B = 27.5 MiB and
// β1 = 13.08 GB/s (one-core copy from memory), β2 and m empty and asked
// for; filled in, the machine saves. A YAML file that is not a Kerncraft
// machine file is refused with a message naming the missing key.
func TestKerncraftImport(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	fixture, err := filepath.Abs("../engine/machine/testdata/kerncraft-block.yml")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.yml")
	os.WriteFile(other, []byte("model name: X\nclock: 2 GHz\n"), 0o644)

	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")
	b.run(t, setFile("#import-file", fixture))
	b.waitFor(t, "the Kerncraft notice", `document.querySelector("#notice")?.textContent.includes("Kerncraft")`)
	for sel, want := range map[string]string{"#m-beta1": "13.08 GB/s", "#m-cache": "27.5 MiB", "#m-line": "64 B", "#m-mu1": "2", "#m-beta2": "", "#m-mispredict": ""} {
		var got string
		b.eval(t, `document.querySelector("`+sel+`").value`, &got)
		if got != want {
			t.Errorf("%s = %q; want %q", sel, got, want)
		}
	}
	b.screenshot(t, "machines-kerncraft")
	b.typeInto(t, "#m-name", "Kerncraft box")
	b.typeInto(t, "#m-beta2", "2.5 GB/s")
	b.typeInto(t, "#m-mispredict", "6 ns")
	clickSave(t, b)
	b.waitFor(t, "the saved machine", `document.querySelector('#user-table tr[data-id="my-kerncraft-box"]')`)
	if row := b.text(t, `#user-table tr[data-id="my-kerncraft-box"]`); !strings.Contains(row, "27.5 MiB") || !strings.Contains(row, "13.08 GB/s") {
		t.Errorf("saved row: %q", row)
	}

	b.run(t, setFile("#import-file", other))
	b.waitFor(t, "the refusal", `document.querySelector("#import-report")?.textContent.includes("cacheline size: missing")`)
	b.noErrors(t, "kerncraft import")
}

func setFile(sel, file string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var nodes []*cdp.Node
		if err := chromedp.Nodes(sel, &nodes, chromedp.ByQuery).Do(ctx); err != nil {
			return err
		}
		return dom.SetFileInputFiles([]string{file}).WithNodeID(nodes[0].NodeID).Do(ctx)
	})
}

// clickSave presses the machine editor's Save through the element's own
// click: a click at the button's place missed now and then under the load
// of a full test run (the page still laying out after the typing; the
// refusal in TestFormsKeepWhatWasTyped never came in a fresh-clone run
// on 2026-11-28), and the element's click does what a user's does.
func clickSave(t *testing.T, b *browser) {
	t.Helper()
	b.run(t, chromedp.Evaluate(`document.querySelector("#save-machine").click()`, nil))
}
