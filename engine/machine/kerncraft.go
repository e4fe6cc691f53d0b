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
// machine's MBRAM parameters. Those files describe the cache hierarchy
// and sequential bandwidths measured with likwid-bench, so they give B,
// C and β1; they have no random-access bandwidth and no branch
// misprediction penalty, so β2 and m must come from elsewhere (a data
// sheet, `memwall calibrate`, the user).
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
}

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
	return k, nil
}

// readHierarchy takes the last cache level before memory.
func (k *Kerncraft) readHierarchy(root *yaml.Node) error {
	levels := child(root, "memory hierarchy")
	if levels == nil || levels.Kind != yaml.SequenceNode || len(levels.Content) == 0 {
		return errors.New("kerncraft: memory hierarchy: missing, or not a list of levels")
	}
	last := -1
	for i, l := range levels.Content {
		if l.Kind != yaml.MappingNode {
			return fmt.Errorf("kerncraft: memory hierarchy[%d]: not a mapping", i)
		}
		if child(l, "cache per group") != nil || child(l, "size per group") != nil {
			if name, _ := scalar(l, "level"); name != "MEM" {
				last = i
			}
		}
	}
	if last < 0 {
		return errors.New("kerncraft: memory hierarchy: no cache level (a level with \"cache per group\" or \"size per group\")")
	}
	l := levels.Content[last]
	at := fmt.Sprintf("memory hierarchy[%d]", last)
	k.CacheLevel, _ = scalar(l, "level")
	if g := child(l, "cache per group"); g != nil && child(g, "sets") != nil {
		n := int64(1)
		for _, key := range []string{"sets", "ways", "cl_size"} {
			s, err := scalar(g, key)
			if err != nil {
				return fmt.Errorf("kerncraft: %s.cache per group.%s: missing", at, key)
			}
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || v < 1 || v > MaxCache {
				return fmt.Errorf("kerncraft: %s.cache per group.%s: must be a whole number from 1 to %d; got %q", at, key, int64(MaxCache), s)
			}
			if n > MaxCache/v {
				return fmt.Errorf("kerncraft: %s.cache per group: sets × ways × cl_size exceeds %s", at, units.FormatSize(MaxCache))
			}
			n *= v
		}
		k.Cache = n
		return nil
	}
	s, err := scalar(l, "size per group")
	if err != nil {
		return fmt.Errorf("kerncraft: %s: neither cache per group (sets, ways, cl_size) nor size per group", at)
	}
	if k.Cache, err = units.ParseSize(s); err != nil {
		return fmt.Errorf("kerncraft: %s.size per group: %v", at, err)
	}
	return nil
}

// readBandwidth takes the one-core copy (else load) bandwidth measured
// from memory: benchmarks.measurements.MEM.<threads per core>.results.
func (k *Kerncraft) readBandwidth(root *yaml.Node) error {
	mem := child(child(child(root, "benchmarks"), "measurements"), "MEM")
	if mem == nil {
		return nil // no measurements: β1 must be given
	}
	if mem.Kind != yaml.MappingNode || len(mem.Content) < 2 {
		return errors.New("kerncraft: benchmarks.measurements.MEM: must map threads per core to measurements")
	}
	// Keys are threads per core; one thread per core is the first.
	threads, run := mem.Content[0].Value, mem.Content[1]
	at := "benchmarks.measurements.MEM." + threads
	cores := child(run, "cores")
	if cores == nil || cores.Kind != yaml.SequenceNode {
		return fmt.Errorf("kerncraft: %s.cores: missing", at)
	}
	idx := -1
	for i, c := range cores.Content {
		if strings.TrimSpace(c.Value) == "1" {
			idx = i
			break
		}
	}
	if idx < 0 {
		return fmt.Errorf("kerncraft: %s.cores: no measurement with one core", at)
	}
	results := child(run, "results")
	for _, kernel := range []string{"copy", "load"} {
		r := child(results, kernel)
		if r == nil {
			continue
		}
		if r.Kind != yaml.SequenceNode || idx >= len(r.Content) {
			return fmt.Errorf("kerncraft: %s.results.%s: no value for one core", at, kernel)
		}
		bw, err := units.ParseBandwidth(r.Content[idx].Value)
		if err != nil {
			return fmt.Errorf("kerncraft: %s.results.%s[%d]: %v", at, kernel, idx, err)
		}
		k.Beta1, k.Beta1Kernel = bw, kernel
		return nil
	}
	return fmt.Errorf("kerncraft: %s.results: neither copy nor load", at)
}

// Machine is the MBRAM machine with the file's numbers and μ1 = 2 (the
// copy benchmark's two streams run at β1). A nonzero β1, β2, μ1 or m in
// given replaces the file's (or supplies what it lacks: β2 and m always,
// β1 when it has no measurement from memory). The source says where each
// number came from; the error names every field still missing or bad.
func (k Kerncraft) Machine(given Machine) (Machine, error) {
	m := Machine{Name: k.Name, Beta1: k.Beta1, Mu1: 2, C: k.Cache, B: k.Line,
		Notes: map[string]string{"clock": units.FormatFrequency(k.Clock)}}
	if m.Name == "" {
		m.Name = "Kerncraft machine"
	}
	from := []string{fmt.Sprintf("C = %s (%s), B = cacheline size", units.FormatSize(k.Cache), k.CacheLevel)}
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
