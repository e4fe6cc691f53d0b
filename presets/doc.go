// Package presets embeds the machine descriptions and example data sets that
// ship with memwall, each with its source. Adding a JSON file under
// machines/ adds a preset machine.
package presets
