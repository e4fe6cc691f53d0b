// Package estimate is the one place that decides which of memwall's two
// models predicts a kernel's time on a machine, and says what kind of
// number the prediction is. The CLI (memwall predict) and the Kernels page
// both call Predict, so they choose alike and describe alike.
//
// The two models:
//
//   - MBRAM, the closed forms of the MBRAM paper (G. Cooperman, X. Ma and
//     V. H. Nguyen, Static Performance Evaluation for Memory-Bound
//     Computing: the MBRAM Model, PDPTA 2004; engine/mbram): one cache
//     filled from memory at two bandwidths. On the
//     paper's machines, inside a formula's regime, the time is a lower bound:
//     the model charges nothing for hits in the smaller caches, TLB misses
//     or instructions. On a machine with several cache levels it is neither
//     a bound nor a close estimate, because the bound rests on the paper's
//     machines (one cache, no prefetching of independent misses).
//   - Hier, the hierarchy model (engine/hier): the same derivations level by
//     level, with the core's compute rate and the branch mispredictions. An
//     estimate, never a bound.
//
// Auto takes the hierarchy model for a machine that gives its cache levels
// and the paper's for a machine of six numbers, and Predict also returns
// the other model's prediction when it can be computed, to show beside the
// chosen one.
package estimate
