package lang

// The dependence graph: which values a variable, a load or a condition is
// computed from. Nodes are scalar variables, array loads (one per read
// site), function results; an edge a → b says a's value is computed from
// b's. Control edges come from the condition of an if to the variables
// its branches assign (a compiler turns such an if into a conditional
// move, so the value depends on the condition's data); loop conditions
// add none (the processor predicts that a loop goes on and runs ahead).
type graph struct {
	edges  [][]int32
	ctrl   [][]int32
	isLoad []bool
}

func (g *graph) node(load bool) int {
	g.edges = append(g.edges, nil)
	g.ctrl = append(g.ctrl, nil)
	g.isLoad = append(g.isLoad, load)
	return len(g.edges) - 1
}

func (g *graph) link(from int, deps []int, control bool) {
	for _, d := range deps {
		if control {
			g.ctrl[from] = append(g.ctrl[from], int32(d))
		} else {
			g.edges[from] = append(g.edges[from], int32(d))
		}
	}
}

// reach marks every node reachable from the nodes of start, which are
// marked too.
func (g *graph) reach(start []int, control bool) []bool {
	seen := make([]bool, len(g.edges))
	stack := make([]int32, 0, len(start))
	for _, s := range start {
		stack = append(stack, int32(s))
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, g.edges[n]...)
		if control {
			stack = append(stack, g.ctrl[n]...)
		}
	}
	return seen
}

// classify settles which conditions are data branches and which accesses
// are dependent, once the whole program is compiled.
func (g *graph) classify(access []*accessSite, branch []*branchSite) {
	// A load is on a chain when its value reaches its own index.
	onChain := make([]bool, len(g.edges))
	for _, a := range access {
		if a.write {
			continue
		}
		from := append(append([]int(nil), toInts(g.edges[a.node])...), toInts(g.ctrl[a.node])...)
		if len(from) == 0 {
			continue
		}
		if g.reach(from, true)[a.node] {
			onChain[a.node] = true
		}
	}
	for _, a := range access {
		r := g.reach(a.deps, true)
		for n, ok := range r {
			if ok && onChain[n] {
				a.dependent = true
				break
			}
		}
	}
	for _, b := range branch {
		r := g.reach(b.deps, false)
		for n, ok := range r {
			if ok && g.isLoad[n] {
				b.data = true
				break
			}
		}
	}
}

func toInts(v []int32) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// union merges dependence lists.
func union(lists ...[]int) []int {
	var out []int
	for _, l := range lists {
		for _, x := range l {
			dup := false
			for _, y := range out {
				if x == y {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, x)
			}
		}
	}
	return out
}
