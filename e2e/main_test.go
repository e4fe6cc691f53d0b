// Package e2e runs memwall's web app in headless Chromium: the static site
// the generator writes, served by the real `memwall serve` binary (and, for
// the sub-path deployment, by a plain static file server). Screenshots of
// every page go to e2e/out (or $MEMWALL_E2E_OUT).
//
// Without a Chromium the tests skip, except under CI=true where they fail.
// $MEMWALL_SITE points the tests at an already generated site.
package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	chromePath string // the browser
	memwallBin string // the CLI, built from this tree
	siteDir    string // the generated site, served at the root
	outDir     string // screenshots
	moduleRoot string
	skipReason string
)

func TestMain(m *testing.M) {
	code, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e setup:", err)
		os.Exit(1)
	}
	if code >= 0 {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// setup finds the browser and builds the CLI and the site. It returns -1 to
// go on with the tests, or an exit code.
func setup() (int, error) {
	var err error
	moduleRoot, err = filepath.Abs("..")
	if err != nil {
		return 1, err
	}
	chromePath = findChrome()
	if chromePath == "" {
		skipReason = "no Chromium found (install Debian's chromium, or set MEMWALL_CHROME)"
		if os.Getenv("CI") != "" {
			return 1, fmt.Errorf("%s; CI must run the browser tests", skipReason)
		}
		return -1, nil
	}
	outDir = os.Getenv("MEMWALL_E2E_OUT")
	if outDir == "" {
		outDir = filepath.Join(moduleRoot, "e2e", "out")
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return 1, err
	}
	tmp, err := os.MkdirTemp("", "memwall-e2e-")
	if err != nil {
		return 1, err
	}
	// tmp is left for the OS: test binaries may still hold files in it.
	memwallBin = filepath.Join(tmp, "memwall")
	if err := goCmd(nil, "build", "-o", memwallBin, "./cmd/memwall"); err != nil {
		return 1, err
	}
	siteDir = os.Getenv("MEMWALL_SITE")
	if siteDir == "" {
		siteDir = filepath.Join(tmp, "site")
		// Quality 5 keeps the build to seconds; releases use 11.
		if err := goCmd(io.Discard, "run", "./wasm", "-out", siteDir, "-brotli", "5"); err != nil {
			return 1, err
		}
	}
	return -1, nil
}

func findChrome() string {
	if p := os.Getenv("MEMWALL_CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// goCmd runs the go tool in the module root.
func goCmd(stdout io.Writer, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot
	cmd.Stdout, cmd.Stderr = stdout, os.Stderr
	if stdout == nil {
		cmd.Stdout = os.Stderr
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func needBrowser(t testing.TB) {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
}

// server is a running `memwall serve --dir`.
type server struct {
	URL string
	cmd *exec.Cmd
}

// startServe runs the real CLI on a free port and returns once it listens.
func startServe(t testing.TB, dir string) *server {
	t.Helper()
	cmd := exec.Command(memwallBin, "serve", "--addr", "127.0.0.1:0", "--dir", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(s.stop)
	lines := bufio.NewScanner(stdout)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if i := strings.Index(lines.Text(), "http://"); i >= 0 {
				found <- strings.Fields(lines.Text()[i:])[0]
				break
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-found:
		s.URL = strings.TrimSuffix(u, "/")
	case <-time.After(20 * time.Second):
		t.Fatal("memwall serve did not report its address")
	}
	return s
}

// stop ends the server: the network is off for the pages it served.
func (s *server) stop() {
	if s.cmd.Process == nil || s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

func timeout(t testing.TB, ctx context.Context, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(ctx, d)
	t.Cleanup(cancel)
	return ctx
}
