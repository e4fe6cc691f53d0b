//go:build linux

package measure

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ReadOSInfo reads /proc/cpuinfo, /proc/meminfo and the cache description in
// /sys/devices/system/cpu/cpu0/cache/index*/ (level, size, coherency line
// size). Missing files leave fields zero; where no cache is listed (a
// guest whose kernel exposes none) the processor's own statement of its
// first two levels fills CPUCaches (processorInfo).
func ReadOSInfo() OSInfo {
	var o OSInfo
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch k {
			case "model name":
				if o.CPU == "" {
					o.CPU = v
				}
			case "vendor_id":
				if o.Vendor == "" {
					o.Vendor = v
				}
			case "cpu family":
				if o.Family == 0 {
					o.Family, _ = strconv.Atoi(v)
				}
			case "flags":
				o.Virtual = o.Virtual || strings.Contains(" "+v+" ", " hypervisor ")
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					o.Memory = kb * 1024
				}
			}
		}
	}
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	sizes := map[int]int64{} // data or unified cache size by level
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if t := read("type"); t == "Instruction" {
			continue
		}
		level, err := strconv.Atoi(read("level"))
		if err != nil {
			continue
		}
		size := parseSysfsSize(read("size"))
		if size <= 0 {
			continue
		}
		sizes[level] = size
		if level < o.LastLevel {
			continue
		}
		o.LastLevel, o.LastCache = level, size
		if l, err := strconv.ParseInt(read("coherency_line_size"), 10, 64); err == nil {
			o.Line = l
		}
	}
	for l := 1; l <= o.LastLevel; l++ {
		o.Caches = append(o.Caches, sizes[l])
	}
	for l := o.LastLevel - 1; l > 0; l-- {
		if sizes[l] > 0 {
			o.LowerCache = sizes[l]
			break
		}
	}
	if len(o.Caches) == 0 {
		o.CPUCaches = processorInfo().CPUCaches
	}
	return o
}

// parseSysfsSize reads "48K", "2048K", "105M" (binary multiples).
func parseSysfsSize(s string) int64 {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0
	}
	return v * mul
}
