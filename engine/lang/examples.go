package lang

import (
	"embed"
	"strings"
)

//go:embed examples/*.mw
var exampleFiles embed.FS

// Example is a program shipped with memwall.
type Example struct {
	ID    string
	Title string
	// Kernel is the built-in kernel (engine/kernels, engine/mbram) the
	// program writes out, whose closed form applies; "" for none.
	Kernel string
	// Size is the param that scales the problem.
	Size   string
	Source string
}

var exampleList = []Example{
	{ID: "perm", Title: "Permutation product (traditional)", Kernel: "perm", Size: "N"},
	{ID: "perm-twopass", Title: "Permutation product (two-pass)", Kernel: "perm-twopass", Size: "N"},
	{ID: "matmul", Title: "Matrix product (row-major)", Kernel: "matmul", Size: "N"},
	{ID: "quicksort", Title: "Quicksort", Kernel: "quicksort", Size: "N"},
	{ID: "mergesort", Title: "Mergesort", Kernel: "mergesort", Size: "N"},
	{ID: "heapsort", Title: "Heapsort", Kernel: "heapsort", Size: "N"},
	{ID: "bucket", Title: "Bucket sort (simple)", Kernel: "bucket", Size: "N"},
	{ID: "bucket-count", Title: "Bucket sort (distribution count)", Kernel: "bucket-count", Size: "N"},
	{ID: "radix", Title: "Radix sort (simple)", Kernel: "radix", Size: "N"},
	{ID: "radix-count", Title: "Radix sort (distribution count)", Kernel: "radix-count", Size: "N"},
	{ID: "binary-search", Title: "Binary search", Size: "N"},
	{ID: "list-vs-array", Title: "Linked-list walk against an array scan", Size: "N"},
	{ID: "transpose", Title: "Transpose: rows, columns and tiles", Size: "N"},
	{ID: "hash-probe", Title: "Hash table with linear probing", Size: "N"},
	{ID: "blocked-matmul", Title: "Blocked matrix product", Size: "N"},
}

func init() {
	for i := range exampleList {
		b, err := exampleFiles.ReadFile("examples/" + exampleList[i].ID + ".mw")
		if err != nil {
			panic("lang: example " + exampleList[i].ID + " is missing: " + err.Error())
		}
		exampleList[i].Source = string(b)
	}
}

// Examples lists the shipped programs: the built-in kernels first, then
// the programs a new user tries first.
func Examples() []Example { return append([]Example(nil), exampleList...) }

// LookupExample finds an example by id.
func LookupExample(id string) (Example, bool) {
	for _, e := range exampleList {
		if e.ID == id {
			return e, true
		}
	}
	return Example{}, false
}

// Title is the first line of an example's comment, for menus.
func (e Example) Summary() string {
	line, _, _ := strings.Cut(e.Source, "\n")
	return strings.TrimSpace(strings.TrimPrefix(line, "//"))
}
