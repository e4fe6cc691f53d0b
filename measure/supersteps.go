package measure

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"memwall/engine/superstep"
)

// The experiment suites of the superstep paper (section 4.1), run for real: p
// goroutines, each locked to an OS thread, stand for the processors of the
// shared-memory machine and access one shared array of 4-byte integers. A
// superstep is the paper's copy-in phase (reads of global data), a barrier,
// and the copy-out phase (writes), timed from the release of all
// processors to the barrier after the last write; local computation is
// left out, as it is in the paper's experiments. The measured times, with
// the features every cost function of the superstep paper uses, are what the fit
// needs to redo Tables 1–8 on the user's machine.

// SuperstepOptions sets which supersteps RunSupersteps measures.
type SuperstepOptions struct {
	// P lists the processor counts (goroutines). Zero: runtime.NumCPU().
	P []int
	// Suites lists the suites, from {1, 2, 3}. Zero: all three.
	Suites []int
	// Modes lists "good" and/or "bad". Zero: both.
	Modes []string
	// H is the set of access counts. Zero: the paper's H
	// (superstep.SuiteSizes).
	H []int64
	// LineWords is t_line, the integers in a cache line: bad mode puts
	// each access of a processor on its own line. Zero: the OS's line
	// size / 4, or 16.
	LineWords int64
	// CacheWords is how many of a processor's first reads or writes count
	// as in-cache (h_rc, h_wc) after priming; the paper takes its 2 MB L2,
	// 2^19 integers. Zero: the cache below the last one the OS reports
	// (the per-core L2 when the last is a shared L3) / 4, or 2^19.
	CacheWords int64
	// FlushBytes are read by the processors before each bad-mode
	// superstep, to start it from caches holding none of its data. Zero:
	// no flush, the paper's procedure, whose Bad family gets no benefit
	// from the cache by its pattern alone (one access per line, writes to
	// lines other processors write).
	FlushBytes int64
	// Reps is the number of timed runs of each superstep (after one
	// warm-up); the median is reported. Zero: 3.
	Reps int
	// MaxBytes bounds the shared array and the flush buffer together.
	// Zero: 1 GiB.
	MaxBytes int64
	// Seed makes the random supersteps of Suites 2 and 3 reproducible.
	Seed uint64
	// Progress, when set, is called after each superstep.
	Progress func(done, total int)
	// OS is what the platform reports; nil means ReadOSInfo().
	OS *OSInfo
}

// Superstep is one planned superstep: an experiment of the superstep paper's suites
// (engine/superstep) in one mode.
type Superstep struct {
	Suite   int     `json:"suite"`
	Mode    string  `json:"mode"` // "good" or "bad"
	Pattern string  `json:"pattern"`
	P       int     `json:"p"`
	X       int     `json:"x"`
	H       int64   `json:"h_set"` // the h of the suite's pattern
	Reads   []int64 `json:"reads"`
	Writes  []int64 `json:"writes"`
}

// SuperstepTime is a measured superstep with the features of the superstep paper's
// cost functions.
type SuperstepTime struct {
	Superstep
	Features superstep.Features `json:"features"`
	Seconds  Stat               `json:"seconds"`
}

// SuperstepRun is the result of RunSupersteps.
type SuperstepRun struct {
	LineWords  int64           `json:"line_words"`
	CacheWords int64           `json:"cache_words"`
	FlushBytes int64           `json:"flush_bytes"`
	CPUs       int             `json:"cpus"`
	Steps      []SuperstepTime `json:"supersteps"`
}

// settle fills in the defaults and checks the options.
func (o SuperstepOptions) settle() (SuperstepOptions, error) {
	var os OSInfo
	if o.OS != nil {
		os = *o.OS
	} else {
		os = ReadOSInfo()
	}
	if len(o.P) == 0 {
		o.P = []int{runtime.NumCPU()}
	}
	for _, p := range o.P {
		if p < 1 || p > 256 {
			return o, fmt.Errorf("p: processor counts must be from 1 to 256; got %d", p)
		}
	}
	if len(o.Suites) == 0 {
		o.Suites = []int{1, 2, 3}
	}
	for _, s := range o.Suites {
		if s < 1 || s > 3 {
			return o, fmt.Errorf("suites: must be 1, 2 or 3; got %d", s)
		}
	}
	if len(o.Modes) == 0 {
		o.Modes = []string{"good", "bad"}
	}
	for _, m := range o.Modes {
		if m != "good" && m != "bad" {
			return o, fmt.Errorf("modes: must be good or bad; got %q", m)
		}
	}
	if len(o.H) == 0 {
		o.H = superstep.SuiteSizes()
	}
	for _, h := range o.H {
		if h < 1 || h > 1<<30 {
			return o, fmt.Errorf("h: access counts must be from 1 to 2^30; got %d", h)
		}
	}
	if o.LineWords == 0 {
		o.LineWords = 16
		if os.Line >= 8 {
			o.LineWords = os.Line / 4
		}
	}
	if o.LineWords < 1 || o.LineWords > 1<<12 {
		return o, fmt.Errorf("line: must be from 1 to 4096 integers; got %d", o.LineWords)
	}
	if slices.Contains(o.Modes, "bad") && int64(slices.Max(o.P)) > o.LineWords {
		// Bad mode gives processor i the words i + k·t_line: with more
		// processors than words in a line, two would share words.
		return o, fmt.Errorf("p: bad mode needs at most one processor per word of a line (%d); got %d", o.LineWords, slices.Max(o.P))
	}
	if o.CacheWords == 0 {
		o.CacheWords = 1 << 19
		if c := cmp0(os.LowerCache, os.LastCache); c > 0 {
			o.CacheWords = c / 4
		}
	}
	if o.CacheWords < 0 {
		return o, fmt.Errorf("cache: must be at least 0 integers; got %d", o.CacheWords)
	}
	if o.FlushBytes < 0 {
		return o, fmt.Errorf("flush: must be at least 0 bytes; got %d", o.FlushBytes)
	}
	if o.Reps == 0 {
		o.Reps = 3
	}
	if o.Reps < 1 || o.Reps > 1000 {
		return o, fmt.Errorf("reps: must be from 1 to 1000; got %d", o.Reps)
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 1 << 30
	}
	return o, nil
}

// cmp0 is a, or b when a is 0.
func cmp0(a, b int64) int64 {
	if a != 0 {
		return a
	}
	return b
}

// PlanSupersteps lists the supersteps of the options' suites in the order
// they run: for each p and suite, the experiments of superstep.SuiteOf
// (the superstep paper section 4.1), each in every mode.
func PlanSupersteps(o SuperstepOptions) ([]Superstep, error) {
	o, err := o.settle()
	if err != nil {
		return nil, err
	}
	return o.plan()
}

// plan is PlanSupersteps for settled options.
func (o SuperstepOptions) plan() ([]Superstep, error) {
	var plan []Superstep
	for _, p := range o.P {
		for _, suite := range o.Suites {
			exps, err := superstep.SuiteOf(suite, p, o.H, o.Seed)
			if err != nil {
				return nil, err
			}
			for _, e := range exps {
				for _, mode := range o.Modes {
					plan = append(plan, Superstep{Suite: suite, Mode: mode, Pattern: e.Pattern.String(), P: p, X: e.X, H: e.H,
						Reads: e.Superstep.Reads, Writes: e.Superstep.Writes})
				}
			}
		}
	}
	return plan, nil
}

// RunSupersteps measures the planned supersteps on this machine. It stops
// between supersteps with ctx's error when ctx is cancelled. A processor
// count above the CPUs is measured but time-shares them, and the result
// says how many CPUs there were.
func RunSupersteps(ctx context.Context, o SuperstepOptions) (*SuperstepRun, error) {
	o, err := o.settle()
	if err != nil {
		return nil, err
	}
	plan, err := o.plan()
	if err != nil {
		return nil, err
	}
	// t_max, the most reads or writes of one processor, is each
	// processor's region in good mode: the array holds every good-mode
	// index, (i−1)·t_max + k, and every bad-mode one, i + k·t_line.
	var tmax, words int64
	for _, st := range plan {
		tmax = max(tmax, slices.Max(st.Reads), slices.Max(st.Writes))
	}
	for _, st := range plan {
		if st.Mode == "good" {
			words = max(words, int64(st.P)*tmax)
		} else {
			words = max(words, int64(st.P)+tmax*o.LineWords)
		}
	}
	if need := 4*words + o.FlushBytes; need > o.MaxBytes {
		return nil, fmt.Errorf("memory: these supersteps need %d MiB (array and flush buffer), above the limit of %d MiB; use fewer processors or a smaller h",
			need>>20, o.MaxBytes>>20)
	}
	run := &SuperstepRun{LineWords: o.LineWords, CacheWords: o.CacheWords, FlushBytes: o.FlushBytes, CPUs: runtime.NumCPU()}
	arr := make([]int32, words)
	flush := make([]int64, o.FlushBytes/8)
	for i := range arr { // fault every page in before timing anything
		arr[i] = int32(i)
	}
	byP := map[int]*team{}
	defer func() {
		for _, t := range byP {
			t.close()
		}
	}()
	for i, st := range plan {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := byP[st.P]
		if t == nil {
			t = newTeam(st.P, arr, flush)
			byP[st.P] = t
		}
		job := job{good: st.Mode == "good", reads: st.Reads, writes: st.Writes, tmax: tmax, line: o.LineWords, prime: o.CacheWords}
		secs := make([]float64, 0, o.Reps)
		for r := 0; r <= o.Reps; r++ { // run 0 warms up
			if s := t.run(job); r > 0 {
				secs = append(secs, s)
			}
		}
		c, err := superstep.Superstep{Reads: st.Reads, Writes: st.Writes}.Counts()
		if err != nil {
			return nil, err
		}
		run.Steps = append(run.Steps, SuperstepTime{Superstep: st, Features: c.Features(float64(o.CacheWords)), Seconds: Summarize(secs)})
		if o.Progress != nil {
			o.Progress(i+1, len(plan))
		}
	}
	return run, nil
}

// job is one superstep for a team.
type job struct {
	good          bool
	reads, writes []int64
	tmax, line    int64
	prime         int64 // words to prime in good mode
}

// team is p goroutines, each locked to an OS thread, that run supersteps
// together: processor 0 is the caller of run, the others wait for jobs.
// Phases are separated by a spinning barrier, whose cost (well under a
// microsecond) is part of the superstep's constant L, as the paper's
// m_sync is.
type team struct {
	p     int
	arr   []int32
	flush []int64
	job   job
	bar   barrier
	quit  atomic.Bool
	wg    sync.WaitGroup
	sinks []paddedSink
	start time.Time
	end   time.Time
	// sense0 is processor 0's barrier sense, kept between runs.
	sense0 uint32
}

// paddedSink keeps each processor's checksum on its own cache line, so
// that writing it is not itself shared traffic.
type paddedSink struct {
	v int64
	_ [56]byte
}

// barrier is a sense-reversing spin barrier.
type barrier struct {
	n     int32
	count atomic.Int32
	sense atomic.Uint32
}

func (b *barrier) wait(local *uint32) {
	*local ^= 1
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.sense.Store(*local)
		return
	}
	for spins := 0; b.sense.Load() != *local; spins++ {
		if spins&1023 == 1023 {
			runtime.Gosched() // more processors than CPUs must still progress
		}
	}
}

func newTeam(p int, arr []int32, flush []int64) *team {
	t := &team{p: p, arr: arr, flush: flush, sinks: make([]paddedSink, p)}
	t.bar.n = int32(p)
	t.wg.Add(p - 1)
	for i := 1; i < p; i++ {
		go func() {
			defer t.wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var sense uint32
			for {
				t.bar.wait(&sense) // a job, or quit
				if t.quit.Load() {
					return
				}
				t.superstep(i, &sense)
			}
		}()
	}
	return t
}

// run times one superstep and returns its seconds.
func (t *team) run(j job) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t.job = j
	t.bar.wait(&t.sense0) // release the others with the job
	t.superstep(0, &t.sense0)
	return t.end.Sub(t.start).Seconds()
}

// superstep is processor i's part: prepare (prime or flush), then the
// timed copy-in and copy-out.
func (t *team) superstep(i int, sense *uint32) {
	j := &t.job
	a := t.arr
	var sum int64
	if j.good {
		// Prime: the first words of the region, backwards, so that the
		// earliest accesses of the superstep are the most recently used
		// (L1, then L2, then memory, as the superstep paper section 4 asks).
		base := int64(i) * j.tmax
		n := min(max(j.reads[i], j.writes[i]), j.prime)
		for k := n - 1; k >= 0; k-- {
			sum += int64(a[base+k])
		}
	} else if len(t.flush) > 0 {
		part := len(t.flush) / t.p
		for _, v := range t.flush[i*part : (i+1)*part] {
			sum += v
		}
	}
	t.bar.wait(sense)
	if i == 0 {
		t.start = time.Now()
	}
	t.bar.wait(sense)
	// Copy-in.
	if j.good {
		base := int64(i) * j.tmax
		for _, v := range a[base : base+j.reads[i]] {
			sum += int64(v)
		}
	} else {
		for k, idx := int64(0), int64(i); k < j.reads[i]; k, idx = k+1, idx+j.line {
			sum += int64(a[idx])
		}
	}
	t.bar.wait(sense)
	// Copy-out.
	v := int32(sum)
	if j.good {
		base := int64(i) * j.tmax
		w := a[base : base+j.writes[i]]
		for k := range w {
			w[k] = v + int32(k)
		}
	} else {
		for k, idx := int64(0), int64(i); k < j.writes[i]; k, idx = k+1, idx+j.line {
			a[idx] = v + int32(k)
		}
	}
	t.bar.wait(sense)
	if i == 0 {
		t.end = time.Now()
	}
	t.sinks[i].v = sum
}

func (t *team) close() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t.quit.Store(true)
	t.bar.wait(&t.sense0)
	t.wg.Wait()
}
