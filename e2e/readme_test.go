package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// readmeShots are the README's screenshots: the page, what to wait for,
// what to click first ("" for nothing), what shows the click's result,
// and the file under docs/.
var readmeShots = []struct{ url, ready, click, done, file string }{
	{"/#machine=xeon-kvm-2vcpu&kernel=perm&n=8Mi&w=4", "#total", "", "", "kernels.png"},
	{"/simulate#kernel=perm&n=1Mi", "#run", "#run", "#cost-chart svg", "simulate.png"},
	{"/program", "#run", "#run", "#profile-table", "program.png"},
}

// TestReadmeScreenshots checks that the README's screenshots show the app
// as it is: the header of each (the menu, every page of it) matches a
// fresh screenshot's. MEMWALL_UPDATE_DOCS=1 writes them anew (point 11).
func TestReadmeScreenshots(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	update := os.Getenv("MEMWALL_UPDATE_DOCS") != ""
	for _, s := range readmeShots {
		b.open(t, srv.URL+s.url, s.ready)
		if s.click != "" {
			b.run(t, chromedp.Click(s.click, chromedp.ByQuery))
			waitLong(t, b, "the run", `document.querySelector("`+s.done+`")`, 60*time.Second)
		}
		b.waitFor(t, "charts drawn", `[...document.querySelectorAll(".chart")].every(el => el.querySelector("svg"))`)
		var ok bool
		b.eval(t, `(() => { window.scrollTo(0, 0); return true; })()`, &ok)
		time.Sleep(300 * time.Millisecond)
		var shot []byte
		b.run(t, chromedp.CaptureScreenshot(&shot))
		path := filepath.Join(moduleRoot, "docs", s.file)
		if update {
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("the README's %s: %v", s.file, err)
			continue
		}
		if d := headerDiff(t, old, shot); d > 3 {
			t.Errorf("docs/%s shows another menu than the app's (mean difference %.1f of 255 in the header); run with MEMWALL_UPDATE_DOCS=1", s.file, d)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	for _, s := range readmeShots {
		if !bytes.Contains(readme, []byte("docs/"+s.file)) {
			t.Errorf("README.md does not show docs/%s", s.file)
		}
	}
}

// headerDiff is the mean difference per channel of the top 56 pixels (the
// header with the menu) of two screenshots of the same width.
func headerDiff(t *testing.T, a, b []byte) float64 {
	t.Helper()
	ia, err1 := png.Decode(bytes.NewReader(a))
	ib, err2 := png.Decode(bytes.NewReader(b))
	if err1 != nil || err2 != nil {
		t.Fatalf("decoding screenshots: %v %v", err1, err2)
	}
	if ia.Bounds().Dx() != ib.Bounds().Dx() {
		return 255
	}
	var sum, n float64
	for y := 0; y < 56 && y < ia.Bounds().Dy() && y < ib.Bounds().Dy(); y++ {
		for x := 0; x < ia.Bounds().Dx(); x++ {
			sum += pixelDiff(ia, ib, x, y)
			n += 3
		}
	}
	return sum / n
}

func pixelDiff(a, b image.Image, x, y int) float64 {
	r1, g1, b1, _ := a.At(a.Bounds().Min.X+x, a.Bounds().Min.Y+y).RGBA()
	r2, g2, b2, _ := b.At(b.Bounds().Min.X+x, b.Bounds().Min.Y+y).RGBA()
	abs := func(u, v uint32) float64 {
		if u > v {
			return float64(u-v) / 257
		}
		return float64(v-u) / 257
	}
	return abs(r1, r2) + abs(g1, g2) + abs(b1, b2)
}
