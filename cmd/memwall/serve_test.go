package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"memwall/cmd/memwall/site"
)

// TestServeDirConfined: --dir serves its own files, and no name, ".."
// or symbolic link reaches a file outside it.
func TestServeDirConfined(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "site"), filepath.Join(base, "outside")
	for _, d := range []string{dir, outside, filepath.Join(dir, "web")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>memwall</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "web", "in.css"), []byte("body{}"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644)
	for name, target := range map[string]string{
		"etc":            "/etc",
		"passwd":         "/etc/passwd",
		"secret.txt":     filepath.Join(outside, "secret"),
		"rel":            "../outside",
		"web/up.css":     "../../outside/secret",
		"web/inside.css": "in.css", // a link that stays inside is served
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := openSiteDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ts := newLoopbackServer(t, site.NewHandler(root.FS()), defaultLimits)
	tests := []struct {
		path   string
		status int
	}{
		{"/", 200}, {"/web/in.css", 200}, {"/web/inside.css", 200},
		{"/etc/passwd", 404}, {"/passwd", 404}, {"/secret.txt", 404}, {"/rel/secret", 404},
		{"/web/up.css", 404}, {"/../outside/secret", 404}, {"/%2e%2e/outside/secret", 404},
	}
	for _, tc := range tests {
		resp, err := http.Get(ts + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || bytes.Contains(body, []byte("root:")) || bytes.Contains(body, []byte("SECRET")) {
			t.Errorf("%s: status %d, body %.40q; want %d", tc.path, resp.StatusCode, body, tc.status)
		}
	}
	if _, err := openSiteDir(outside); err == nil || err.Error() != "--dir "+outside+": no index.html; generate a site with go run ./wasm -out "+outside {
		t.Errorf("a directory without index.html: %v", err)
	}
}

// newLoopbackServer serves h on 127.0.0.1 with the limits and returns its
// base URL; the server stops with the test.
func newLoopbackServer(t testing.TB, h http.Handler, l limits) string {
	base, _ := newLoopbackServerConns(t, h, l)
	return base
}

// newLoopbackServerConns is newLoopbackServer that also returns the number
// of connections the server holds open.
func newLoopbackServerConns(t testing.TB, h http.Handler, l limits) (string, func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, ln := newServer(h, ln, l)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), func() int { return int(ln.(*limitListener).open.Load()) }
}

// TestServeUnderLoad is a bounded load test on loopback: beside 32 normal
// clients downloading the uncompressed app.wasm (4 MiB) in a loop, 16
// clients stop reading a download after its first bytes, 16 open a
// keep-alive connection and leave it idle, and 16 send half a request
// header and stall. With 1 s timeouts all normal downloads arrive whole,
// every slow and idle connection is closed by the server within a few
// timeouts, and the Go heap stays under 64 MiB (a copy of app.wasm per
// request would take 32 × 4 MiB = 128 MiB). It stops itself after about
// 2 s of load.
func TestServeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const (
		wasmSize = 4 << 20
		normal   = 32
		slow     = 16
		loadFor  = 2 * time.Second
		heapCap  = 64 << 20
	)
	wasm := bytes.Repeat([]byte("\x00asm0123456789abcdef"), wasmSize/20+1)[:wasmSize]
	fsys := fstest.MapFS{
		"index.html":   {Data: []byte("<p>memwall</p>")},
		"web/app.wasm": {Data: wasm},
	}
	l := limits{Header: time.Second, Read: 2 * time.Second, Stall: time.Second, Idle: time.Second, Conns: 128}
	base, open := newLoopbackServerConns(t, site.NewHandler(fsys), l)
	addr := strings.TrimPrefix(base, "http://")

	// The heap is measured above what earlier tests left live.
	runtime.GC()
	var heap0 runtime.MemStats
	runtime.ReadMemStats(&heap0)
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > heap0.HeapInuse && ms.HeapInuse-heap0.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse - heap0.HeapInuse)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()

	// dropped reports whether the server closed c within limit: a read
	// that drains what is buffered ends in EOF or a reset.
	dropped := func(c net.Conn, limit time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(limit))
		_, err := io.Copy(io.Discard, c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			return false
		}
		return true
	}
	var wg sync.WaitGroup
	var slowDropped, idleDropped, headerDropped, served, failed atomic.Int64
	start := time.Now()
	for i := 0; i < slow; i++ {
		wg.Add(3)
		go func() { // stops reading after the first bytes of a download
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			c.(*net.TCPConn).SetReadBuffer(4096)
			fmt.Fprintf(c, "GET /web/app.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
			c.Read(make([]byte, 512))
			time.Sleep(l.Stall + loadFor/2) // stalled past the timeout
			// The server gave up: the rest of the file never comes, only
			// what the kernels had buffered before the timeout.
			c.SetReadDeadline(time.Now().Add(time.Second))
			n, _ := io.Copy(io.Discard, c)
			if n < wasmSize-512 {
				slowDropped.Add(1)
			}
		}()
		go func() { // a keep-alive connection left idle after one request
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if dropped(c, l.Idle+3*time.Second) {
				idleDropped.Add(1)
			}
		}()
		go func() { // half a request header, then silence
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n")
			if dropped(c, l.Header+3*time.Second) {
				headerDropped.Add(1)
			}
		}()
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: normal}, Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	for i := 0; i < normal; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < loadFor {
				resp, err := client.Get(base + "/web/app.wasm")
				if err != nil {
					failed.Add(1)
					t.Errorf("normal client: %v", err)
					return
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || n != wasmSize || resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" {
					failed.Add(1)
					t.Errorf("normal client: status %d, %d bytes, err %v", resp.StatusCode, n, err)
					return
				}
				served.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stopSampling)
	sampler.Wait()
	t.Logf("%d normal downloads of %d MiB in %v; dropped: %d of %d stalled readers, %d of %d idle, %d of %d slow headers; peak heap in use %.1f MiB above the start",
		served.Load(), wasmSize>>20, time.Since(start).Round(time.Millisecond), slowDropped.Load(), slow, idleDropped.Load(), slow, headerDropped.Load(), slow, float64(peak.Load())/(1<<20))
	// With the normal clients' connections closed, the server holds none:
	// it closed every stalled, idle and half-sent one itself.
	client.CloseIdleConnections()
	for deadline := time.Now().Add(2 * time.Second); open() > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := open(); n > 0 {
		t.Errorf("the server still holds %d connections", n)
	}
	if failed.Load() > 0 || served.Load() < normal {
		t.Errorf("%d normal downloads served, %d failed", served.Load(), failed.Load())
	}
	if slowDropped.Load() != slow || idleDropped.Load() != slow || headerDropped.Load() != slow {
		t.Errorf("dropped %d stalled readers, %d idle, %d slow headers; want %d of each", slowDropped.Load(), idleDropped.Load(), headerDropped.Load(), slow)
	}
	if p := peak.Load(); p > heapCap {
		t.Errorf("peak heap in use %.1f MiB, want under %d MiB", float64(p)/(1<<20), heapCap>>20)
	}
}

// TestServeConnectionCap: with a cap of 2, a third client waits until a
// connection closes, then is served.
func TestServeConnectionCap(t *testing.T) {
	l := defaultLimits
	l.Conns = 2
	base := newLoopbackServer(t, site.NewHandler(fstest.MapFS{"index.html": {Data: []byte("x")}}), l)
	addr := strings.TrimPrefix(base, "http://")
	var held []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if _, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan error, 1)
	go func() {
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(base + "/")
		if err == nil {
			resp.Body.Close()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a third connection was served beside two (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	held[0].Close()
	if err := <-got; err != nil {
		t.Fatalf("after a connection closed: %v", err)
	}
	held[1].Close()
}
