package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkFitMemory32MiB fits three terms to a 32 MiB CSV (about 1.3
// million rows of N, P, T) and reports the peak heap in use while fit
// runs, sampled every millisecond, in MiB, beside the file's size.
func BenchmarkFitMemory32MiB(b *testing.B) {
	const size = 32 << 20
	path := filepath.Join(b.TempDir(), "big.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n, rows := 0, 0
	for n < size-64 { // the header and the last line stay within 32 MiB, the most fit reads
		k, _ := fmt.Fprintf(w, "%d,%d,%.6f\n", 1000+rows%9000, 1+rows%64, 1.5+float64(rows%9000)*0.25+float64(rows%64)*0.125)
		n += k
		rows++
	}
	w.Flush()
	f.Close()
	hdr := []byte("N,P,T\n")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append(hdr, data...), 0o644)
	data = nil
	b.ResetTimer()
	var peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > base.HeapInuse {
					peak = max(peak, ms.HeapInuse-base.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		var errs strings.Builder
		st := run([]string{"fit", "--data", path, "--y", "T", "--terms", "1, N, P", "--weight", "abs"}, io.Discard, &errs)
		close(stop)
		wg.Wait()
		if st != 0 {
			b.Fatalf("fit: status %d: %.500s", st, errs.String())
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(rows), "rows")
}
