//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html"

	"memwall/app"
)

// generate builds the static site. It is deterministic: the same source
// and toolchain give the same bytes (the browser tests check this).
func generate(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("wasm", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "directory to write the site to (required; replaced if it holds a memwall site)")
	prefix := fl.String("prefix", "", "sub-path the site is served under, e.g. memwall for https://user.github.io/memwall/")
	wasmPath := fl.String("wasm", "", "use this app.wasm instead of building one")
	tags := fl.String("tags", "", "extra build tags for app.wasm (e.g. goccy, to measure its cost)")
	web := fl.String("web", "", "static assets directory (default: web/ of the module)")
	quality := fl.Int("brotli", 11, "brotli quality, 0 to 11: 11 is 13% smaller than 9 but takes a minute for app.wasm; tests use 5")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./wasm -out DIR [-prefix PATH] [-wasm FILE] [-tags TAGS]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fl.Usage()
		return 2
	}
	if *quality < 0 || *quality > 11 {
		fmt.Fprintln(stderr, "wasm: -brotli must be from 0 to 11")
		return 2
	}
	g := &generator{out: *out, prefix: strings.Trim(*prefix, "/"), wasm: *wasmPath, tags: *tags, web: *web, brotli: *quality, log: stdout}
	if err := g.run(); err != nil {
		fmt.Fprintln(stderr, "wasm:", err)
		return 1
	}
	return 0
}

type generator struct {
	out, prefix, wasm, tags, web string
	brotli                       int
	root                         string // module root
	log                          io.Writer
}

func (g *generator) run() error {
	root, err := goEnv("GOMOD")
	if err != nil || root == "" || root == os.DevNull {
		return fmt.Errorf("run from inside the memwall module (go env GOMOD: %q, %v)", root, err)
	}
	g.root = filepath.Dir(root)
	if g.web == "" {
		g.web = filepath.Join(g.root, "web")
	}
	if err := g.prepareOut(); err != nil {
		return err
	}
	if err := copyTree(g.web, filepath.Join(g.out, "web"), skipAsset); err != nil {
		return fmt.Errorf("copying %s: %w", g.web, err)
	}
	wasmOut := filepath.Join(g.out, "web", "app.wasm")
	if err := g.buildWasm(wasmOut); err != nil {
		return err
	}
	version, err := hashTree(filepath.Join(g.out, "web"), g.prefix)
	if err != nil {
		return err
	}
	if err := g.renderPages(version); err != nil {
		return err
	}
	if err := g.copyWasmExec(); err != nil {
		return err
	}
	sizes, err := compressTree(g.out, g.brotli)
	if err != nil {
		return err
	}
	w := sizes["web/app.wasm"]
	fmt.Fprintf(g.log, "site written to %s (version %s, prefix %q)\n", g.out, version, "/"+g.prefix)
	fmt.Fprintf(g.log, "app.wasm: %s raw, %s gzip, %s brotli\n", mib(w[0]), mib(w[1]), mib(w[2]))
	var total [3]int64
	for _, s := range sizes {
		for i := range total {
			total[i] += s[i]
		}
	}
	fmt.Fprintf(g.log, "whole site: %s raw, %s gzip, %s brotli (compressible files, as served)\n", mib(total[0]), mib(total[1]), mib(total[2]))
	return nil
}

// prepareOut empties the output directory, refusing to touch one that is
// neither empty nor a site this generator wrote.
func (g *generator) prepareOut() error {
	entries, err := os.ReadDir(g.out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(entries) > 0:
		if _, err := os.Stat(filepath.Join(g.out, "app-worker.js")); err != nil {
			if _, err := os.Stat(filepath.Join(g.out, "README.txt")); err != nil {
				return fmt.Errorf("%s is not empty and holds no memwall site; refusing to replace it", g.out)
			}
		}
		for _, e := range entries {
			if e.Name() == "README.txt" {
				continue // the placeholder cmd/memwall/site keeps in git
			}
			if err := os.RemoveAll(filepath.Join(g.out, e.Name())); err != nil {
				return err
			}
		}
	}
	return os.MkdirAll(g.out, 0o755)
}

// skipAsset leaves build outputs and repository notes out of the site.
func skipAsset(rel string) bool {
	base := path.Base(rel)
	return strings.HasPrefix(base, "app.wasm") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".sh")
}

// noInline are the packages app.wasm builds without inlining (buildWasm
// says why).
var noInline = []string{"memwall/app", "memwall/engine/scenario", "memwall/engine/link", "memwall/engine/machine", "memwall/engine/units"}

func (g *generator) buildWasm(dst string) error {
	if g.wasm != "" {
		return copyFile(g.wasm, dst)
	}
	// The app package is built without inlining: its pages are chains of
	// go-app element builders, which inlined into WebAssembly take about
	// 60 KB more of app.wasm as served (brotli), and run once per render,
	// where a call costs nothing anyone sees. So are the packages that
	// read and write share links, which run once per navigation (12 KB
	// less), and the machine package, whose validation and file parsing
	// run once per edit and which no simulated access calls (7 KB), and
	// units, which parses and formats quantities for forms and step
	// names and is in no timed loop (4 KB). The rest keep the compiler's
	// inlining: the engine's timed and swept loops, and presets.
	// (Click timeouts in the machine editor's e2e tests, once seen with
	// more packages built so, came from clicks at an element's place
	// missing it, and went when the tests clicked through the element.)
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", dst}
	for _, pkg := range noInline {
		args = append(args, "-gcflags="+pkg+"=-l")
	}
	if g.tags != "" {
		args = append(args, "-tags", g.tags)
	}
	args = append(args, "./wasm")
	cmd := exec.Command("go", args...)
	cmd.Dir = g.root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = g.log, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building app.wasm: %w", err)
	}
	return nil
}

// renderPages asks the go-app Handler for every page and PWA file, as
// app.GenerateStaticWebsite does, but with a fixed host: that function
// renders through a test server whose random port ends up in each page's
// og:url, and the site would differ from build to build.
func (g *generator) renderPages(version string) error {
	h := newHandler(g.prefix, version)
	h.ServiceWorkerTemplate = workerJS // pages precached by any name the server answers
	files := map[string]string{
		"/app.js":               "app.js",
		"/app-worker.js":        "app-worker.js",
		"/manifest.webmanifest": "manifest.webmanifest",
		"/app.css":              "app.css",
	}
	for _, p := range app.Pages() {
		name := strings.TrimPrefix(p.Path, "/") + ".html"
		if p.Path == "/" {
			name = "index.html"
		}
		files[p.Path] = name
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		req := httptest.NewRequest(http.MethodGet, "http://localhost"+p, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return fmt.Errorf("rendering %s: HTTP %d", p, rec.Code)
		}
		body := rec.Body.Bytes()
		if strings.HasSuffix(files[p], ".html") {
			var err error
			if body, err = sortAttributes(body); err != nil {
				return fmt.Errorf("rendering %s: %w", p, err)
			}
		}
		if err := os.WriteFile(filepath.Join(g.out, files[p]), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// sortAttributes rewrites each start tag with its attributes in name
// order. go-app prints an element's attributes in Go map order, so two
// renders of the same page differ; everything but the start tags is copied
// byte for byte.
func sortAttributes(page []byte) ([]byte, error) {
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return out.Bytes(), nil
			}
			return nil, z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			sort.SliceStable(tok.Attr, func(i, j int) bool { return tok.Attr[i].Key < tok.Attr[j].Key })
			out.WriteString("<" + tok.Data)
			for _, a := range tok.Attr {
				out.WriteString(" " + a.Key)
				if a.Val != "" {
					out.WriteString(`="` + html.EscapeString(a.Val) + `"`)
				}
			}
			if tt == html.SelfClosingTagToken {
				out.WriteString("/")
			}
			out.WriteString(">")
		default:
			out.Write(z.Raw())
		}
	}
}

// copyWasmExec replaces go-app's wasm_exec.js, a copy from Go 1.21, with
// the one of the toolchain that built app.wasm: the two must match.
func (g *generator) copyWasmExec() error {
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	for _, rel := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		src := filepath.Join(goroot, rel)
		if _, err := os.Stat(src); err == nil {
			return copyFile(src, filepath.Join(g.out, "wasm_exec.js"))
		}
	}
	return fmt.Errorf("wasm_exec.js not found under %s", goroot)
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	return strings.TrimSpace(string(out)), err
}

// hashTree hashes every file under dir (names and contents, in order) and
// the prefix: the site's version changes whenever anything served changes.
func hashTree(dir, prefix string) (string, error) {
	h := sha256.New()
	io.WriteString(h, "prefix="+prefix+"\x00")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:20], err
}

// compressible files get .gz and .br siblings for servers that send
// precompressed files (memwall serve, nginx gzip_static/brotli_static).
var compressible = map[string]bool{".wasm": true, ".js": true, ".css": true, ".html": true, ".json": true, ".webmanifest": true, ".svg": true, "": true}

// compressTree writes the .gz and .br files and returns, per compressible
// file, its raw, gzip and brotli sizes.
func compressTree(dir string, quality int) (map[string][3]int64, error) {
	sizes := map[string][3]int64{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(p)] || filepath.Base(p) == "README.txt" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		var gz, br bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, zero mtime: reproducible
		zw.Write(data)
		zw.Close()
		bw := brotli.NewWriterOptions(&br, brotli.WriterOptions{Quality: quality, LGWin: 24})
		bw.Write(data)
		bw.Close()
		sizes[filepath.ToSlash(rel)] = [3]int64{int64(len(data)), int64(gz.Len()), int64(br.Len())}
		if len(data) < 1024 {
			return nil // not worth a request header's worth of savings
		}
		if err := os.WriteFile(p+".gz", gz.Bytes(), 0o644); err != nil {
			return err
		}
		return os.WriteFile(p+".br", br.Bytes(), 0o644)
	})
	return sizes, err
}

func copyTree(src, dst string, skip func(rel string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if skip(filepath.ToSlash(rel)) {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
