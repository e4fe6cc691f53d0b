// Package mbram evaluates the closed-form running-time formulas of the MBRAM paper
// (the MBRAM model) for the permutation products, the row-major matrix
// product and seven sorts. Every evaluation returns a Breakdown: named terms
// with their seconds and the formula with the numbers substituted, the regime
// that was applied, and warnings where an assumption of the derivation fails.
//
// Every formula is a lower bound by construction: the model charges nothing
// for hits in the smaller caches, TLB misses or instructions.
package mbram
