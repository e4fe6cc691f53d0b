package app

import (
	"fmt"
	"io"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/trace"
	"memwall/engine/units"
)

// maxTrace is the largest trace file the page replays. The file is read
// in chunks while it is simulated, so it bounds time, not memory.
const maxTrace = trace.DefaultSize

// pickedTrace is the trace file the user chose: the browser's File, read
// only when a run starts.
type pickedTrace struct {
	value app.Value
	name  string
	size  int64
	err   string
}

func (f pickedTrace) ok() bool { return f.name != "" && f.err == "" && f.value != nil }

// pickTrace takes the file chosen in the <input type=file> that fired the
// event, refusing one over maxTrace before anything is read.
func pickTrace(ctx app.Context) pickedTrace {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return pickedTrace{}
	}
	file := files.Index(0)
	f := pickedTrace{value: file, name: file.Get("name").String(), size: int64(file.Get("size").Float())}
	if f.size > maxTrace {
		f.err = fmt.Sprintf("%s is %s; traces up to %s are accepted", f.name, units.FormatSize(f.size), units.FormatSize(maxTrace))
	}
	return f
}

// fileReader reads a browser File in chunks as the replay asks for them,
// so a trace of hundreds of megabytes never sits in memory whole. It
// blocks the simulating goroutine on each chunk's promise, which lets the
// browser run while the chunk is read.
type fileReader struct {
	file      app.Value
	off, size int64
	buf       []byte
}

const fileChunk = 4 << 20

func newFileReader(file app.Value, size int64) *fileReader {
	return &fileReader{file: file, size: size}
}

type chunkResult struct {
	data []byte
	err  error
}

func (r *fileReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		end := min(r.off+fileChunk, r.size)
		done := make(chan chunkResult, 1)
		var onData, onErr app.Func
		onData = app.FuncOf(func(this app.Value, args []app.Value) any {
			arr := app.Window().Get("Uint8Array").New(args[0])
			b := make([]byte, arr.Length())
			app.CopyBytesToGo(b, arr)
			done <- chunkResult{data: b}
			return nil
		})
		onErr = app.FuncOf(func(this app.Value, args []app.Value) any {
			done <- chunkResult{err: fmt.Errorf("reading the file failed: %s", args[0].Call("toString").String())}
			return nil
		})
		r.file.Call("slice", float64(r.off), float64(end)).Call("arrayBuffer").Call("then", onData).Call("catch", onErr)
		c := <-done
		onData.Release()
		onErr.Release()
		if c.err != nil {
			return 0, c.err
		}
		if len(c.data) == 0 {
			return 0, io.ErrUnexpectedEOF
		}
		r.buf = c.data
		r.off += int64(len(c.data))
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// formatName says which trace format a run reads.
func formatName(f trace.Format) string {
	switch f {
	case trace.Lackey:
		return "Valgrind Lackey"
	case trace.Detect:
		return "format detected from its first line"
	}
	return "plain"
}
