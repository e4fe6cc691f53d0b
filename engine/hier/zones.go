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

// node is a line on the list: its neighbours, its slot (an index into
// stack.slots) and its zone. Node 0 is the list's head, so that the list
// is circular and index 0 means "not on the list" in slot.pos.
type node struct {
	prev, next uint32
	slot       uint32
	zone       uint8
}

// zones is the list of one stack.
type zones struct {
	nodes []node // nodes[0] is the head; grows up to cap+1 nodes
	// cap is the lines the list holds once full, the last level's lines
	// but the recent set's (0 or less when the last level holds no more).
	cap int
	// z0 is the zone of the list's first line: the levels of at most
	// recentLen lines, which a line leaving the recent set lies outside of.
	z0 int
	// bnd[j], for z0 ≤ j < last level, is the last node inside level j,
	// 0 until the list reaches the level's place: the list's length then
	// is reach[j], the level's lines but the recent set's.
	bnd   [8]uint32
	reach [8]int
}

func newZones(lv []level) zones {
	var z zones
	last := len(lv) - 1
	z.cap = int(min(lv[last].lines-recentLen, 1<<31))
	for z.z0 < len(lv) && lv[z.z0].lines <= recentLen {
		z.z0++
	}
	for j := range lv {
		z.reach[j] = int(min(lv[j].lines-recentLen, 1<<31))
	}
	z.reset()
	return z
}

func (z *zones) reset() {
	if z.nodes == nil {
		z.nodes = make([]node, 1, 64)
	}
	z.nodes = z.nodes[:1]
	z.nodes[0] = node{}
	z.bnd = [8]uint32{}
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
	missed, si := k.zoneMove(line, k.rslot[recentLen-1])
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
// passed. It returns how many of the stack's levels the access misses and
// the line's slot's index; the recent set is the caller's to update.
func (k *stack) zoneMove(line uint64, out int) (int, int) {
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
	e := &k.slots[si]
	if !e.used {
		// A first access: the run's footprint grows (Sim.Footprint).
		e.used = true
		k.count++
	}
	nd := k.nodes
	missed := len(k.lv) // a line not on the list: beyond the last level
	free := e.pos
	moved := -1 // the boundary that was the line itself
	if free != 0 {
		// Off the list, to enter the recent set.
		x := &nd[free]
		missed = int(x.zone)
		if missed < len(k.lv)-1 && k.bnd[missed] == free {
			// The line was the last inside level `missed`: the line
			// before it takes its place (the line pushed to the front,
			// below, when there is none).
			moved = missed
			k.bnd[missed] = x.prev
		}
		nd[x.prev].next = x.next
		nd[x.next].prev = x.prev
		e.pos = 0
	}
	grew := false
	if free == 0 {
		switch n := len(nd) - 1; {
		case n < k.cap:
			// The list grows by one node.
			k.nodes = append(k.nodes, node{})
			nd = k.nodes
			free = uint32(n + 1)
			grew = true
		case k.cap > 0:
			// The list's last line leaves the last level.
			free = nd[0].prev
			t := &nd[free]
			nd[t.prev].next = 0
			nd[0].prev = t.prev
			k.slots[t.slot].pos = 0
		default:
			// The last level holds no line beyond the recent set.
			return missed, si
		}
	}
	// The line leaving the recent set goes to the front of the list.
	first := nd[0].next
	nd[free] = node{prev: 0, next: first, slot: uint32(out), zone: uint8(k.z0)}
	nd[first].prev = free
	nd[0].next = free
	k.slots[out].pos = free
	if moved >= 0 && k.bnd[moved] == 0 {
		k.bnd[moved] = free
	}
	// Every line before the one taken off (all of them for a new line)
	// moved one place down: the line at each boundary it passed leaves
	// that level.
	bnd := &k.bnd
	end := min(missed, len(k.lv)-1) // no boundary for the last level
	for j := k.z0; j < end; j++ {
		b := bnd[j&7]
		if b == 0 {
			break // the list does not reach level j yet, nor the next
		}
		x := &nd[b]
		x.zone = uint8(j + 1)
		bnd[j&7] = x.prev
	}
	if grew {
		// The list's new last line may be the last one inside a level.
		for j := k.z0; j < len(k.lv)-1; j++ {
			if k.reach[j] == len(nd)-1 {
				k.bnd[j] = nd[0].prev
			}
		}
	}
	return missed, si
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
