package mbram_test

import (
	"testing"

	"memwall/engine/mbram"
)

// TestFamilies checks that every kernel names its family, that the families
// hold the MBRAM paper's kernels (two permutation products, one matrix
// product, the seven sorts of Fig. 5), and that n is a matrix dimension
// exactly for the matrix product, as its parameter says and its limit is.
func TestFamilies(t *testing.T) {
	count := map[mbram.Family]int{}
	for _, k := range mbram.Kernels() {
		switch k.Family {
		case mbram.PermutationProduct, mbram.MatrixProduct, mbram.Sort:
		default:
			t.Errorf("%s: family %q", k.ID, k.Family)
		}
		count[k.Family]++
		n, _ := k.Param("n")
		if dim := n.Meaning == "matrix dimension"; k.NIsDimension() != dim {
			t.Errorf("%s: NIsDimension %v, but n means %q", k.ID, k.NIsDimension(), n.Meaning)
		}
		want := int64(mbram.MaxN)
		if k.NIsDimension() {
			want = mbram.MaxMatrix
		}
		if k.LimitN() != want {
			t.Errorf("%s: LimitN %d, want %d", k.ID, k.LimitN(), want)
		}
	}
	want := map[mbram.Family]int{mbram.PermutationProduct: 2, mbram.MatrixProduct: 1, mbram.Sort: 7}
	for f, n := range want {
		if count[f] != n {
			t.Errorf("family %q has %d kernels, want %d", f, count[f], n)
		}
	}
	if k, _ := mbram.Lookup("matmul"); k.Family != mbram.MatrixProduct {
		t.Errorf("matmul is in family %q", k.Family)
	}
}
