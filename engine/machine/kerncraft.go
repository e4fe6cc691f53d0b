package machine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"memwall/engine/units"
)

// Kerncraft is what a Kerncraft machine description (the YAML machine
// files of the Kerncraft performance-modelling tool) tells about a
// machine's MBRAM parameters and its cache hierarchy. Those files describe
// the cache levels and the sequential bandwidths measured with
// likwid-bench, so they give B, C, β1 and each level's size, line and
// sequential fill bandwidth; they have no random-access bandwidth, no
// load-to-use latency and no branch misprediction penalty, so β2 and m
// must come from elsewhere (a data sheet, `memwall calibrate`, the user).
type Kerncraft struct {
	Name  string  // "model name"
	Clock float64 // Hz, "clock"
	Line  int64   // "cacheline size"
	// Cache is the size of the last cache level before memory: sets ×
	// ways × line of its "cache per group" when the file gives them (the
	// geometry Kerncraft's cache simulator uses), else its "size per
	// group" read as Kerncraft reads it (decimal prefixes).
	Cache      int64
	CacheLevel string // that level's name, e.g. "L3"
	// Beta1 is the bandwidth from memory of one core running the copy
	// benchmark (or load, when the file has no copy): two sequential
	// streams, as memwall calibrate measures β1. 0 when the file has no
	// measurements from memory (older files have "measurements: {}").
	Beta1       float64
	Beta1Kernel string

	// Levels is every cache level of the memory hierarchy, L1 first: its
	// name ("level"), its size (as Cache above) and its line ("cl_size"
	// of its "cache per group", else "cacheline size"). Beta1 and Beta2
	// are the fill bandwidths derived from Streams (see KerncraftStream)
	// when the file measures every level and memory, else 0, and Gap says
	// why. Latency is always 0: the format has no load-to-use latencies.
	Levels []Level
	// Streams is the one-core streaming bandwidth measured at each level
	// and at memory (the last), when the file measures them all.
	Streams []KerncraftStream
	// Gap says why the levels have no bandwidths ("" when they have).
	Gap string
	// Fallbacks says which levels' fill bandwidths could not be taken as
	// the step between two measurements (see KerncraftStream).
	Fallbacks []string
	// Overlaps are the "transfers overlap" of the hierarchy's entries
	// after the first, memory's included: each says whether the ECM
	// model's transfer into the level above from this one overlaps the
	// others (Kerncraft's models/ecm.py). Empty when the file does not
	// say (files before version 0.8.6).
	Overlaps []bool
}

// KerncraftStream is the bandwidth one core reaches streaming data from one
// level of the hierarchy (working set in that level, one thread per core),
// from the file's "benchmarks: measurements:". It is the "load" kernel's
// (one read stream) when the file has it, which is Kerncraft's own default
// and counts exactly the bytes brought from that level: likwid-bench's
// copy counts the bytes read and written but not the write-allocate
// transfer of each written line, which Kerncraft itself corrects by a
// factor (read + 2·write − read+write bytes) / (read + write bytes) = 1.5
// for copy beyond L1 (machinemodel.py, get_bandwidth). So copy is taken
// only when a level has no load measurement, times that factor beyond L1.
//
// A line streamed from level j costs Line/bw(j); a level's fill from the
// level below is what that costs beyond a line streamed from the level
// itself, so level i's sequential fill bandwidth is given by
//
//	Line/β1,i = Line/bw(i+1) − Line/bw(i)
//
// with bw after the last cache level the memory's. When a level streams
// no faster than the level below (or the step is too small to give a
// bandwidth up to MaxBandwidth), β1,i is bw(i+1) and Fallbacks says so.
type KerncraftStream struct {
	Level     string  // "L1", "L2", …, "MEM"
	Bandwidth float64 // bytes per second, as Kerncraft corrects it
	Kernel    string  // "load", or "copy" (corrected) when there is no load
}

// kerncraftCopyFactor is Kerncraft's write-allocate correction of the copy
// benchmark beyond L1: 8 B read and 8 B written per iteration are counted,
// 8 + 2·8 move.
const kerncraftCopyFactor = 1.5

// MaxKerncraftFile bounds a Kerncraft file read, in bytes: real machine
// files are 10–200 KB.
const MaxKerncraftFile = 4 << 20

// ParseKerncraft reads a Kerncraft machine file. Errors name the key that
// is missing or wrong, as a path such as "memory hierarchy[2].cache per
// group.sets".
func ParseKerncraft(data []byte) (Kerncraft, error) {
	var k Kerncraft
	if len(data) > MaxKerncraftFile {
		return k, fmt.Errorf("kerncraft: the file is %d bytes; machine files up to %d bytes are accepted", len(data), MaxKerncraftFile)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return k, fmt.Errorf("kerncraft: not YAML: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return k, errors.New("kerncraft: the file must be a YAML mapping with the keys of a Kerncraft machine file (model name, clock, cacheline size, memory hierarchy, benchmarks)")
	}
	root := doc.Content[0]
	if err := yamlDuplicates(root, ""); err != nil {
		return k, err
	}

	name, err := scalar(root, "model name")
	if err != nil {
		return k, err
	}
	k.Name = strings.TrimSpace(name)

	if s, err := scalar(root, "clock"); err != nil {
		return k, err
	} else if k.Clock, err = units.ParseFrequency(s); err != nil {
		return k, fmt.Errorf("kerncraft: clock: %v", err)
	}

	if s, err := scalar(root, "cacheline size"); err != nil {
		return k, err
	} else if k.Line, err = units.ParseSize(s); err != nil {
		return k, fmt.Errorf("kerncraft: cacheline size: %v", err)
	}

	if err := k.readHierarchy(root); err != nil {
		return k, err
	}
	if err := k.readBandwidth(root); err != nil {
		return k, err
	}
	if err := k.readStreams(root); err != nil {
		return k, err
	}
	return k, nil
}

// readHierarchy takes every cache level before memory: a level with a
// "cache per group" or a "size per group" that is not null, other than
// MEM.
func (k *Kerncraft) readHierarchy(root *yaml.Node) error {
	levels := child(root, "memory hierarchy")
	if levels == nil || levels.Kind != yaml.SequenceNode || len(levels.Content) == 0 {
		return errors.New("kerncraft: memory hierarchy: missing, or not a list of levels")
	}
	for i, l := range levels.Content {
		at := fmt.Sprintf("memory hierarchy[%d]", i)
		if l.Kind != yaml.MappingNode {
			return fmt.Errorf("kerncraft: %s: not a mapping", at)
		}
		name := ""
		if n := child(l, "level"); n != nil {
			if n.Kind != yaml.ScalarNode {
				return fmt.Errorf("kerncraft: %s.level: not a single value", at)
			}
			name = strings.TrimSpace(n.Value)
		}
		if o := child(l, "transfers overlap"); o != nil && i > 0 {
			if o.Kind != yaml.ScalarNode || o.Value != "true" && o.Value != "false" {
				return fmt.Errorf("kerncraft: %s.transfers overlap: true or false; got %q", at, o.Value)
			}
			k.Overlaps = append(k.Overlaps, o.Value == "true")
		}
		if name == "MEM" || child(l, "cache per group") == nil && isNull(child(l, "size per group")) {
			continue
		}
		size, line, err := k.levelGeometry(l, at)
		if err != nil {
			return err
		}
		if name == "" {
			name = fmt.Sprintf("L%d", len(k.Levels)+1)
		}
		k.Levels = append(k.Levels, Level{Name: name, Size: size, Line: line})
	}
	if len(k.Levels) == 0 {
		return errors.New("kerncraft: memory hierarchy: no cache level (a level with \"cache per group\" or \"size per group\")")
	}
	last := k.Levels[len(k.Levels)-1]
	k.Cache, k.CacheLevel = last.Size, last.Name
	return nil
}

// levelGeometry is the size and line of the cache level l at path at:
// sets × ways × cl_size and cl_size of its "cache per group" when it has
// sets, else its "size per group" and the file's "cacheline size".
func (k *Kerncraft) levelGeometry(l *yaml.Node, at string) (size, line int64, err error) {
	if g := child(l, "cache per group"); g != nil && child(g, "sets") != nil {
		n := int64(1)
		for _, key := range []string{"sets", "ways", "cl_size"} {
			s, err := scalar(g, key)
			if err != nil {
				return 0, 0, fmt.Errorf("kerncraft: %s.cache per group.%s: missing", at, key)
			}
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if key == "cl_size" && err != nil {
				// Kerncraft reads "64 B" as well as 64.
				v, err = units.ParseSize(s)
			}
			if err != nil || v < 1 || v > MaxCache {
				return 0, 0, fmt.Errorf("kerncraft: %s.cache per group.%s: must be a whole number from 1 to %d; got %q", at, key, int64(MaxCache), s)
			}
			if n > MaxCache/v {
				return 0, 0, fmt.Errorf("kerncraft: %s.cache per group: sets × ways × cl_size exceeds %s", at, units.FormatSize(MaxCache))
			}
			n *= v
			line = v // cl_size comes last
		}
		return n, line, nil
	}
	s, err := scalar(l, "size per group")
	if err != nil {
		return 0, 0, fmt.Errorf("kerncraft: %s: neither cache per group (sets, ways, cl_size) nor size per group", at)
	}
	if size, err = units.ParseSize(s); err != nil {
		return 0, 0, fmt.Errorf("kerncraft: %s.size per group: %v", at, err)
	}
	return size, k.Line, nil
}

// isNull is a missing value, an empty one or YAML's null.
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || strings.TrimSpace(n.Value) == "")
}

// oneCore finds the measurements of one level with one thread per core
// (benchmarks.measurements.<level>.1, else the first thread count the
// file gives) and the index of the run with one core. run is nil when the
// file has no measurement at that level.
func oneCore(root *yaml.Node, level string) (run *yaml.Node, idx int, at string, err error) {
	ms := child(child(child(root, "benchmarks"), "measurements"), level)
	at = "benchmarks.measurements." + level
	if ms == nil {
		return nil, 0, at, nil
	}
	if ms.Kind != yaml.MappingNode || len(ms.Content) < 2 {
		return nil, 0, at, fmt.Errorf("kerncraft: %s: must map threads per core to measurements", at)
	}
	// Keys are threads per core; one thread per core is usually the first.
	threads, run := ms.Content[0].Value, ms.Content[1]
	if r := child(ms, "1"); r != nil {
		threads, run = "1", r
	}
	at += "." + threads
	cores := child(run, "cores")
	if cores == nil || cores.Kind != yaml.SequenceNode {
		return nil, 0, at, fmt.Errorf("kerncraft: %s.cores: missing", at)
	}
	for i, c := range cores.Content {
		if strings.TrimSpace(c.Value) == "1" {
			return run, i, at, nil
		}
	}
	return nil, 0, at, fmt.Errorf("kerncraft: %s.cores: no measurement with one core", at)
}

// result is the bandwidth of one kernel in a run, at index idx; ok is
// false when the run has no such kernel.
func result(run *yaml.Node, idx int, at, kernel string) (bw float64, ok bool, err error) {
	r := child(child(run, "results"), kernel)
	if r == nil {
		return 0, false, nil
	}
	if r.Kind != yaml.SequenceNode || idx >= len(r.Content) {
		return 0, false, fmt.Errorf("kerncraft: %s.results.%s: no value for one core", at, kernel)
	}
	bw, err = units.ParseBandwidth(r.Content[idx].Value)
	if err != nil {
		return 0, false, fmt.Errorf("kerncraft: %s.results.%s[%d]: %v", at, kernel, idx, err)
	}
	return bw, true, nil
}

// readBandwidth takes the one-core copy (else load) bandwidth measured
// from memory: benchmarks.measurements.MEM.<threads per core>.results.
func (k *Kerncraft) readBandwidth(root *yaml.Node) error {
	run, idx, at, err := oneCore(root, "MEM")
	if err != nil || run == nil {
		return err // no measurements: β1 must be given
	}
	for _, kernel := range []string{"copy", "load"} {
		bw, ok, err := result(run, idx, at, kernel)
		if err != nil {
			return err
		}
		if ok {
			k.Beta1, k.Beta1Kernel = bw, kernel
			return nil
		}
	}
	return fmt.Errorf("kerncraft: %s.results: neither copy nor load", at)
}

// readStreams takes the one-core load (else corrected copy) bandwidth of
// every cache level and of memory, and from them the levels' sequential
// fill bandwidths (see KerncraftStream). A level or memory without
// measurements leaves every level without bandwidths, and Gap says which.
func (k *Kerncraft) readStreams(root *yaml.Node) error {
	names := make([]string, 0, len(k.Levels)+1)
	for _, l := range k.Levels {
		names = append(names, l.Name)
	}
	names = append(names, "MEM")
	streams := make([]KerncraftStream, 0, len(names))
	var gaps []string
	for i, name := range names {
		run, idx, at, err := oneCore(root, name)
		if err != nil {
			return err
		}
		if run == nil {
			gaps = append(gaps, name)
			continue
		}
		st := KerncraftStream{Level: name, Kernel: "load"}
		bw, ok, err := result(run, idx, at, "load")
		if err == nil && !ok {
			st.Kernel = "copy"
			bw, ok, err = result(run, idx, at, "copy")
			if i > 0 {
				bw *= kerncraftCopyFactor
			}
		}
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("kerncraft: %s.results: neither load nor copy", at)
		}
		if !bandwidthOK(bw) {
			return fmt.Errorf("kerncraft: %s.results.%s[%d]: a bandwidth must be from 1 KB/s to 1 PB/s; got %s", at, st.Kernel, idx, fmtBW(bw))
		}
		st.Bandwidth = bw
		streams = append(streams, st)
	}
	if len(gaps) > 0 {
		k.Gap = "the file has no one-core load or copy measurement (benchmarks.measurements) for " + strings.Join(gaps, ", ") +
			", so the levels' bandwidths are not known"
		return nil
	}
	k.Streams = streams
	for i := range k.Levels {
		here, below := streams[i], streams[i+1]
		// Line/β = Line/bw(below) − Line/bw(here), per byte.
		step := 1/below.Bandwidth - 1/here.Bandwidth
		b := 1 / step
		if step <= 0 || b > MaxBandwidth {
			b = below.Bandwidth
			how := "no faster than"
			if step > 0 {
				how = "too little faster than"
			}
			k.Fallbacks = append(k.Fallbacks, fmt.Sprintf("%s streams %s %s (%s against %s), so its fill bandwidth is %s's streaming bandwidth",
				here.Level, how, below.Level, units.FormatBandwidth(here.Bandwidth), units.FormatBandwidth(below.Bandwidth), below.Level))
		}
		k.Levels[i].Beta1, k.Levels[i].Beta2 = b, b
	}
	return nil
}

// Machine is the MBRAM machine with the file's numbers and μ1 = 2 (the
// copy benchmark's two streams run at β1). A nonzero β1, β2, μ1 or m in
// given replaces the file's (or supplies what it lacks: β2 and m always,
// β1 when it has no measurement from memory). The source says where each
// number came from; the error names every field still missing or bad.
//
// When the file measures every level, the machine carries the levels too
// (see KerncraftStream for their β1). A Kerncraft file has no random
// bandwidth: each level's β2 is its β1 times the machine's β2/β1, the
// ratio of a random line to a sequential one from memory, when β2 is
// given and at most β1, else equal to its β1; the notes say which. Levels
// that do not validate as a hierarchy are left out, and the notes say why.
func (k Kerncraft) Machine(given Machine) (Machine, error) {
	line := k.Line
	if n := len(k.Levels); n > 0 {
		line = k.Levels[n-1].Line
	}
	m := Machine{Name: k.Name, Beta1: k.Beta1, Mu1: 2, C: k.Cache, B: line,
		Notes: map[string]string{"clock": units.FormatFrequency(k.Clock)}}
	if m.Name == "" {
		m.Name = "Kerncraft machine"
	}
	from := []string{fmt.Sprintf("C = %s (%s), B = its line", units.FormatSize(k.Cache), k.CacheLevel)}
	if given.Beta1 > 0 || k.Beta1 == 0 {
		m.Beta1 = given.Beta1
		from = append(from, "β1 given")
	} else {
		from = append(from, fmt.Sprintf("β1 = %s benchmark from memory with one core", k.Beta1Kernel))
	}
	if given.Mu1 > 0 {
		m.Mu1 = given.Mu1
	}
	m.Beta2, m.M = given.Beta2, given.M
	if kept := k.levels(&m); kept {
		from = append(from, "levels' β1 from the one-core streaming benchmarks")
	}
	m.Source = "Kerncraft machine file: " + strings.Join(from, ", ") + "; β2 and m given"
	var missing Errors
	if m.Beta1 == 0 {
		missing = append(missing, FieldError{Field: "beta1", Msg: "the Kerncraft file has no bandwidth measured from memory (benchmarks.measurements.MEM); give β1"})
	}
	if m.Beta2 == 0 {
		missing = append(missing, FieldError{Field: "beta2", Msg: "a Kerncraft file has no random-access bandwidth; give β2"})
	}
	if m.M == 0 {
		missing = append(missing, FieldError{Field: "mispredict", Msg: "a Kerncraft file has no branch misprediction penalty; give m"})
	}
	if len(missing) > 0 {
		return m, missing
	}
	return m, m.Validate()
}

// levels gives m the file's levels when it measures them all and they
// validate, with notes on where their numbers came from or why they were
// left out.
func (k Kerncraft) levels(m *Machine) bool {
	if len(k.Levels) == 0 {
		return false
	}
	if k.Gap != "" {
		m.Notes["levels"] = "not filled: " + k.Gap
		return false
	}
	ratio, why := 1.0, "equal to its β1, as no β2 was given"
	if m.Beta1 > 0 && m.Beta2 > 0 && m.Beta2 <= m.Beta1 {
		ratio = m.Beta2 / m.Beta1
		why = fmt.Sprintf("its β1 × %.3g, the machine's β2/β1 (a random line against a sequential one from memory)", ratio)
	}
	levels := append([]Level(nil), k.Levels...)
	for i := range levels {
		levels[i].Beta2 = levels[i].Beta1 * ratio
	}
	if es := ValidateLevels(levels); len(es) > 0 {
		m.Notes["levels"] = "left out: " + es.Error()
		return false
	}
	parts := make([]string, len(k.Streams))
	for i, s := range k.Streams {
		parts[i] = fmt.Sprintf("%s %s (%s)", s.Level, units.FormatBandwidth(s.Bandwidth), s.Kernel)
	}
	m.Notes["levels"] = "sizes and lines from memory hierarchy; each level's β1 from the one-core streaming bandwidths " +
		strings.Join(parts, ", ") + ": line/β1 = line/bw(next level) − line/bw(level)"
	m.Notes["levels_beta2"] = "β2 is not in a Kerncraft file: each level's β2 is " + why
	m.Notes["levels_latency"] = "a Kerncraft file has no load-to-use latencies: the levels' latency and mem_latency are not given"
	if len(k.Fallbacks) > 0 {
		m.Notes["levels_fallback"] = strings.Join(k.Fallbacks, "; ")
	}
	*m = m.WithLevels(levels)
	if w, why := k.levelOverlap(); len(levels) >= 2 && why != "" {
		m.LevelOverlap = w
		m.Notes["level_overlap"] = why
	}
	return true
}

// levelOverlap is the machine's LevelOverlap from the file's "transfers
// overlap": the ECM model charges the transfers that overlap and the sum
// of those that do not side by side, the longest of them, so with at
// most one that does not (memory's, in the Zen files) every transfer
// hides behind the longest, ω = 1; with two or more their sum is charged
// (the Intel files say false at every level), ω = 0. why is "" when the
// file does not say.
func (k Kerncraft) levelOverlap() (float64, string) {
	if len(k.Overlaps) == 0 {
		return 0, ""
	}
	apart := 0
	for _, o := range k.Overlaps {
		if !o {
			apart++
		}
	}
	if apart <= 1 {
		return 1, fmt.Sprintf("1 from memory hierarchy's transfers overlap (%d of %d transfers overlap): the levels' fills hide behind the longest", len(k.Overlaps)-apart, len(k.Overlaps))
	}
	return 0, fmt.Sprintf("0 from memory hierarchy's transfers overlap (%d of %d transfers do not overlap): the levels' fills add up", apart, len(k.Overlaps))
}

// child is the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalar is the text of key in mapping n.
func scalar(n *yaml.Node, key string) (string, error) {
	c := child(n, key)
	if c == nil || c.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("kerncraft: %s: missing, or not a single value", key)
	}
	return c.Value, nil
}

// yamlDuplicates refuses a key given twice in one mapping, naming it by
// its path and line: the YAML decoder would keep one of them without a
// word. Aliases are not followed, so the walk is as long as the file.
func yamlDuplicates(n *yaml.Node, path string) error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			p := key
			if path != "" {
				p = path + "." + key
			}
			if line, dup := seen[key]; dup {
				return fmt.Errorf("kerncraft: %q: the key appears twice (lines %d and %d); give it once", p, line, n.Content[i].Line)
			}
			seen[key] = n.Content[i].Line
			if err := yamlDuplicates(n.Content[i+1], p); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := yamlDuplicates(c, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
