package link_test

import (
	"fmt"

	"memwall/engine/link"
)

// A model's inputs: its name in scenario files, its keys in link order and
// its defaults. The page's fields, the share link and the scenario file all
// hold the same text, key by key.
var boxForm = link.Form{
	Model:    "box",
	Keys:     []string{"n", "p", "note"},
	Defaults: func() link.Inputs { return link.Inputs{"n": "2^20", "p": "8", "note": ""} },
}

// Read lays a link's keys over the defaults; an unknown key is a problem,
// and the rest of the link is still used.
func ExampleForm_Read() {
	in, problems := boxForm.Read("https://example.org/box#n=8Mi&q=3")
	fmt.Println(in["n"], in["p"])
	fmt.Println(problems)
	// Output:
	// 8Mi 8
	// link: unknown key "q" was ignored (known: n, p, note)
}

// Fragment writes what goes after the "#": the keys in order, empty values
// left out, the text as typed ("8Mi" stays "8Mi").
func ExampleForm_Fragment() {
	in := boxForm.Defaults()
	in["n"], in["note"] = "8Mi", "two & three"
	frag, _ := boxForm.Fragment(in)
	fmt.Println(frag)
	// Output:
	// n=8Mi&p=8&note=two+%26+three
}

// JSON writes the same inputs as a scenario file; ParseJSON reads one back
// over the defaults and refuses a file of another model.
func ExampleForm_JSON() {
	in := boxForm.Defaults()
	in["p"] = "16"
	data := boxForm.JSON(in)
	fmt.Print(string(data))
	back, err := boxForm.ParseJSON(data)
	fmt.Println(back["p"], err)

	other := link.Form{Model: "other", Keys: boxForm.Keys, Defaults: boxForm.Defaults}
	_, err = other.ParseJSON(data)
	fmt.Println(err)
	// Output:
	// {
	//   "model": "box",
	//   "version": 1,
	//   "inputs": {
	//     "n": "2^20",
	//     "p": "16",
	//     "note": ""
	//   }
	// }
	// 16 <nil>
	// model: this file is a "box" scenario; a "other" scenario is needed here
}
