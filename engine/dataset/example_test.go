package dataset_test

import (
	"fmt"
	"strconv"
	"strings"

	"memwall/engine/dataset"
)

// Units may stand in the header or in the cells; times are stored in
// seconds and sizes in bytes, and every column records which.
func ExampleReadCSV() {
	const csv = `# two runs
N,P,time_ms,buffer
8Mi,4,12.5,256KiB
2^24,8,1.2s,1MiB
`
	t, bad, err := dataset.ReadCSV(strings.NewReader(csv), dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range t.Columns {
		fmt.Printf("%s (%s):", c.Name, c.Kind)
		for _, v := range c.Values {
			fmt.Print(" ", strconv.FormatFloat(v, 'f', -1, 64))
		}
		fmt.Println()
	}
	fmt.Println("bad cells:", len(bad))
	// Output:
	// N (number): 8388608 16777216
	// P (number): 4 8
	// time (time): 0.0125 1.2
	// buffer (size): 262144 1048576
	// bad cells: 0
}

// A bad cell is named by its line and column, and the file is refused
// unless the caller agreed to keep the good rows.
func ExampleReadCSV_badRow() {
	const csv = "N,T\n1024,0.5\n2048,fast\n4096,2.1\n"
	_, _, err := dataset.ReadCSV(strings.NewReader(csv), dataset.Options{})
	fmt.Println(err)
	t, bad, _ := dataset.ReadCSV(strings.NewReader(csv), dataset.Options{KeepGoodRows: true})
	fmt.Println(t.Len(), "rows kept;", bad[0])
	// Output:
	// 1 bad row(s), 2 good:
	//   line 3, column 2 (T): "fast" is not a number or a quantity with a unit (e.g. 8Mi, 2^23, 1.5ms, 256KiB, 2GB/s)
	// import only the 2 good rows if that is acceptable
	// 2 rows kept; line 3, column 2 (T): "fast" is not a number or a quantity with a unit (e.g. 8Mi, 2^23, 1.5ms, 256KiB, 2GB/s)
}
