package hier

// LevelPart is one level's independent fills as the levels' overlap reads
// them (HideLevels): Seq the seconds of its sequential fills and
// write-backs, SeqLines how many lines those are, Rand the seconds of its
// independent random fills and RandLines how many. The first level's, on a
// machine that runs its fills beside the core's work, are what they add
// beside it, shared between the two kinds by their lines.
type LevelPart struct {
	Seq, SeqLines, Rand, RandLines float64
}

// HideLevels is what each level's independent fills hide on a machine
// whose levels' transfers overlap a share ω (Machine.LevelOverlap), in the
// order of parts, the first level first; nil when ω is 0 or there is one
// level.
//
// A line the core reads passes every level down to the one that holds it
// and costs a step at each: the steps calibration reads off its curves,
// each plateau the one below it plus a step. The execution-cache-memory
// model has a Zen core's transfers between the levels overlap, so a line's
// steps overlap: all but the largest hide ω of theirs. Lines that stop at
// different levels are different lines, and they add: a read that hits
// the last cache and one that goes to memory each hold one of the core's
// misses in flight for as long as it waits. So are the two kinds of fill:
// a sequential line and a random one are different lines.
//
// The lines that pass levels 0 to d are as many as the fewest fills of
// that kind among those levels (the levels are inclusive); those that pass
// level d and not d+1 end there. Each group hides, at every level it passes
// but the one of the largest step (the first of equals), ω of its lines'
// time there. With every line passing every level, a stream through the
// levels, this is the rule the ECM model states: the run takes the
// longest level's time and ω of the others' hides.
func HideLevels(parts []LevelPart, omega float64) []float64 {
	return hideLevels(nil, parts, omega)
}

// hideLevels is HideLevels appended to dst, which a caller can keep off
// the heap.
func hideLevels(dst []float64, parts []LevelPart, omega float64) []float64 {
	if !(omega > 0) || len(parts) < 2 {
		return nil
	}
	omega = min(omega, 1)
	for range parts {
		dst = append(dst, 0)
	}
	hideGroups(dst, parts, omega, func(p LevelPart) (float64, float64) { return p.Seq, p.SeqLines })
	hideGroups(dst, parts, omega, func(p LevelPart) (float64, float64) { return p.Rand, p.RandLines })
	return dst
}

// hideGroups adds to dst what the lines of one kind (kind gives a level's
// seconds and lines of it) hide, grouped by the last level they pass.
func hideGroups(dst []float64, parts []LevelPart, omega float64, kind func(LevelPart) (secs, lines float64)) {
	step := func(i int) float64 {
		secs, lines := kind(parts[i])
		if !(lines > 0) {
			return 0
		}
		return secs / lines
	}
	passing := 0.0 // lines that pass levels 0 to d
	for d := range parts {
		if _, lines := kind(parts[d]); d == 0 || lines < passing {
			passing = lines
		}
		deeper := 0.0
		if d+1 < len(parts) {
			_, lines := kind(parts[d+1])
			deeper = min(passing, lines)
		}
		ending := passing - deeper
		if !(ending > 0) {
			continue
		}
		top := 0
		for i := 1; i <= d; i++ {
			if step(i) > step(top) {
				top = i
			}
		}
		for i := 0; i <= d; i++ {
			if i != top {
				dst[i] += omega * ending * step(i)
			}
		}
	}
}
