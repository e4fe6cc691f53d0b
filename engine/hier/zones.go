package hier

// The levels' misses without the stack distances: what a level's counts
// need of an access is only whether its distance reaches the level's
// lines, not the distance itself. The stack keeps, after the recent set,
// one LRU list of the other lines its last level holds, most recent first,
// with a boundary at each smaller level's capacity, and each line on the
// list carries its zone, the number of the stack's levels it lies outside
// of. An access to a line of zone z misses levels 0..z−1 of the stack;
// taking the line off the list shifts the lines before it by one place, so
// the line at each boundary j < z leaves level j (its zone becomes j+1) and
// the boundary moves to the line before it: O(levels) pointer moves, no
// logarithm, and memory for the last level's lines only.

// The list is threaded through the lines' slots (stack.slots): a slot's
// pos is the slot of the line before it on the list and next the one
// after, and its zone is 1 + the stack's levels it lies outside of, 0
// for a line off the list. Slot 0 is the list's head, so that the list
// is circular: in this mode the stack's first page of slots is the
// head's and holds no line (headPage).

// zones is the list of one stack.
type zones struct {
	// n is the lines on the list, and cap the lines it holds once full,
	// the last level's lines but the recent set's (0 or less when the
	// last level holds no more).
	n, cap int
	// z0 is the zone of the list's first line: the levels of at most
	// recentLen lines, which a line leaving the recent set lies outside of;
	// last is the last level's index, past the last boundary.
	z0, last int
	// bnd[j], for z0 ≤ j < last level, is the slot of the last line
	// inside level j, 0 until the list reaches the level's place: the
	// list's length then is reach[j], the level's lines but the recent
	// set's.
	bnd   [8]uint32
	reach [8]int
}

func newZones(lv []level) zones {
	var z zones
	last := len(lv) - 1
	z.last = last
	z.cap = int(min(lv[last].lines-recentLen, 1<<31))
	for z.z0 < len(lv) && lv[z.z0].lines <= recentLen {
		z.z0++
	}
	for j := range lv {
		z.reach[j] = int(min(lv[j].lines-recentLen, 1<<31))
	}
	return z
}

// headPage empties the list: its slots hold the head alone, on a page of
// its own that no line's page number reaches (stack.page numbers the
// lines' pages from 1 on).
func (k *stack) headPage() {
	k.slots = append(k.slots[:0], make([]slot, pageLen)...)
	for j := range k.lv {
		k.lv[j].addPage()
	}
	k.n = 0
	k.bnd = [8]uint32{}
}

// farZone records an access to line, which is not among the first three
// of the recent set, and returns how many of the stack's levels it misses
// and its slot's index. The slot's bits are the caller's to update.
func (k *stack) farZone(line uint64) (int, int) {
	if k.nr == recentLen && line == k.rline[recentLen-1] {
		// The last of the recent set.
		si := k.rslot[recentLen-1]
		k.enterRecent(recentLen-1, line, si)
		return k.missed(recentLen - 1), si
	}
	if k.nr < recentLen {
		// The first lines: the list is empty, nothing leaves the set.
		si := k.slotOf(line)
		k.nr++
		k.enterRecent(k.nr-1, line, si)
		return len(k.lv), si
	}
	missed, si, _ := k.zoneMove(line, k.rslot[recentLen-1])
	k.enterRecent(recentLen-1, line, si)
	return missed, si
}

// slotOf is the index of line's slot, made if new, counting a first
// access in the run's footprint (Sim.Footprint).
func (k *stack) slotOf(line uint64) int {
	si := k.page(line>>pageBits)<<pageBits | int(line&(pageLen-1))
	if e := &k.slots[si]; !e.used {
		e.used = true
		k.count++
	}
	return si
}

// zoneMove records an access to line, which is not in the full recent
// set, as the line in slot out leaves the set for the front of the list:
// it takes line off the list if it is there, and moves the boundaries it
// passed. It returns how many of the stack's levels the access misses,
// the line's slot's index and the slot; the recent set is the caller's
// to update.
func (k *stack) zoneMove(line uint64, out int) (int, int, *slot) {
	// The page's index: k.page(pn), its flat directory written out.
	pn := line >> pageBits
	pi := -1
	if pn < uint64(len(k.flat)) {
		pi = int(k.flat[pn]) - 1
	}
	if pi < 0 {
		pi = k.page(pn)
	}
	si := pi<<pageBits | int(line&(pageLen-1))
	sl := k.slots
	e := &sl[si]
	if !e.used {
		// A first access: the run's footprint grows (Sim.Footprint).
		e.used = true
		k.count++
	}
	missed := len(k.lv) // a line not on the list: beyond the last level
	moved := -1         // the boundary that was the line itself
	grew := false
	if z := e.zone; z != 0 {
		// Off the list, to enter the recent set; the line leaving the
		// set takes its place in the count.
		missed = int(z) - 1
		if missed < len(k.lv)-1 && k.bnd[missed&7] == uint32(si) {
			// The line was the last inside level `missed`: the line
			// before it takes its place (the line pushed to the front,
			// below, when there is none).
			moved = missed
			k.bnd[missed&7] = e.pos
		}
		sl[e.pos].next = e.next
		sl[e.next].pos = e.pos
		e.zone = 0
	} else {
		switch {
		case k.n < k.cap:
			// The list grows by one line.
			k.n++
			grew = true
		case k.cap > 0:
			// The list's last line leaves the last level.
			t := sl[0].pos
			x := &sl[t]
			sl[x.pos].next = 0
			sl[0].pos = x.pos
			x.zone = 0
		default:
			// The last level holds no line beyond the recent set.
			return missed, si, e
		}
	}
	// The line leaving the recent set goes to the front of the list.
	o := &sl[out]
	first := sl[0].next
	o.pos, o.next, o.zone = 0, first, uint8(k.z0+1)
	sl[first].pos = uint32(out)
	sl[0].next = uint32(out)
	if k.z0 >= k.last {
		// No boundary: one level, or none past the recent set's.
		return missed, si, e
	}
	if moved >= 0 && k.bnd[moved&7] == 0 {
		k.bnd[moved&7] = uint32(out)
	}
	// Every line before the one taken off (all of them for a new line)
	// moved one place down: the line at each boundary it passed leaves
	// that level.
	bnd := &k.bnd
	end := min(missed, k.last) // no boundary for the last level
	for j := k.z0; j < end; j++ {
		b := bnd[j&7]
		if b == 0 {
			break // the list does not reach level j yet, nor the next
		}
		x := &sl[b]
		x.zone = uint8(j + 2)
		bnd[j&7] = x.pos
	}
	if grew {
		// The list's new last line may be the last one inside a level.
		for j := k.z0; j < k.last; j++ {
			if k.reach[j] == k.n {
				k.bnd[j&7] = sl[0].pos
			}
		}
	}
	return missed, si, e
}

// enterRecent puts line, in slot si, at the front of the recent set,
// shifting entries 0..i−1 one place down over entry i.
func (k *stack) enterRecent(i int, line uint64, si int) {
	switch i {
	case 3:
		k.rline[3], k.rslot[3] = k.rline[2], k.rslot[2]
		fallthrough
	case 2:
		k.rline[2], k.rslot[2] = k.rline[1], k.rslot[1]
		fallthrough
	case 1:
		k.rline[1], k.rslot[1] = k.rline[0], k.rslot[0]
	}
	k.rline[0], k.rslot[0] = line, si
}
