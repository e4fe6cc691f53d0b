package app

import "memwall/engine/mbram"

// The kernel menu and what the pages ask of a kernel: its family, its
// parameters and what its n means.

func kernelOptions() []option {
	var opts []option
	for _, k := range mbram.Kernels() {
		opts = append(opts, option{Value: k.ID, Label: k.Name, Group: familyName(k.Family)})
	}
	return opts
}

// nIsDimension reports whether n is a matrix dimension for kernel id, not
// an element count.
func nIsDimension(id string) bool {
	k, _ := mbram.Lookup(id)
	return k.NIsDimension()
}

// sameAxis reports whether two kernels' n mean the same thing, so they can
// share a sweep axis: a matrix dimension, or an element count.
func sameAxis(a, b string) bool { return nIsDimension(a) == nIsDimension(b) }

// familyName is the kernel menus' group for a family.
func familyName(f mbram.Family) string {
	switch f {
	case mbram.PermutationProduct:
		return "Permutation product"
	case mbram.MatrixProduct:
		return "Matrix product"
	}
	return "Sorting"
}

func hasParam(k mbram.Kernel, name string) bool {
	_, ok := k.Param(name)
	return ok
}

func paramDefault(k mbram.Kernel, name string, fallback int64) int64 {
	if p, ok := k.Param(name); ok {
		return p.Default
	}
	return fallback
}

func paramMeaning(k mbram.Kernel, name string) string {
	if p, ok := k.Param(name); ok {
		return p.Meaning
	}
	return name
}

func paramLabel(k mbram.Kernel, name string) string {
	return name + ", " + paramMeaning(k, name)
}

func mustKernel(id string) mbram.Kernel {
	k, _ := mbram.Lookup(id)
	return k
}
