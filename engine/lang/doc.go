// Package lang is memwall's small pseudo-code language: a C-like language
// close to the pseudo-code of Cooperman, Ma and Nguyen's MBRAM paper
// ("directly from pseudo-code"), in which a user writes an algorithm whose
// running time memwall then predicts.
//
// A program is compiled (Compile) into a tree of Go closures and run
// (Program.Run) on generated data. Every array element it reads or writes
// is a memory access at the element's address, every condition of an if
// or a loop is a conditional branch at a site named by its source
// position, and both go to the trace simulator of engine/sim, which
// charges them by the model rules. A run reports the simulator's
// breakdown and counts, and a per-line profile: accesses, misses,
// write-backs, branches, mispredictions and seconds for each source line.
//
// # The language
//
//	param N = 2^20                 // a size the user sets (a field, --set N=...)
//	int X[N] = perm(), Y[N] = perm(), Z[N];
//	for (i = 0; i < N; i++) Z[i] = Y[X[i]];
//
// Declarations: param NAME = value (the value in memwall's field syntax:
// 2^20, 8Mi, 1000000); const NAME = expression; arrays of any number of
// dimensions with an element type (char/int8, short/int16, int/int32,
// long/int64, uint8, uint16, uint32, float/float32, double/float64) and an
// initialiser (perm(), uniform(max), uniform(lo, hi), seq(), zeros());
// scalars (int kinds hold 64-bit integers, float kinds 64-bit floats; a
// name first assigned without a declaration becomes an int or float
// variable, as in the paper's pseudo-code); functions with parameters,
// arrays passed by reference, and recursion. Statements: for, while,
// do-while, if/else, break, continue, return, assignments (= += -= *= /=
// %= &= |= ^= <<= >>=, ++, --), swap(a, b), phase("name"). Operators are
// C's with C's precedence; ^ is exclusive or (write powers in params as
// 2^20, or with <<). Built-ins: rand(n), min, max, abs, log2, sqrt,
// sizeof(type), len(A), int(x), float(x), and the machine's CACHE_SIZE
// and LINE_SIZE in bytes.
//
// Arrays are laid out in declaration order from 1 MiB, each aligned to
// 4 KiB or to a cache line when that is longer (the layout of the built-in
// kernels of engine/kernels), plus an offset when declared with
// "offset K". An array declared "register" (a handful of counters a real
// program keeps in registers or the first-level cache) takes no address
// and its accesses are not charged.
//
// # Branches and dependent accesses
//
// Every if, while, do-while and for condition is a branch site at the
// condition's line and column. A condition whose value depends on data
// loaded from an array is a data branch; the others (loop counters, index
// tests) are control branches. The built-in kernels report data branches
// only (key comparisons), and Options.Branches selects which are charged.
//
// An access is dependent when its address is computed from a value that a
// chain of earlier loads produced: its index depends on a load that, through
// variables and the conditions of ifs that assign them, feeds its own
// index again (pointer chasing, a walk down a heap, a merge, a binary
// search). The permutation product's Y[X[i]] is not: X[i] is loaded by a
// scan that depends on nothing loaded, so many loads of Y can be in flight
// at once. The analysis is static (per access site) and costs nothing at
// run time; a run counts the dependent accesses for the hierarchy model.
//
// The analysis follows variables, not single assignments: a variable that
// holds loaded data anywhere in its scope makes every condition on it a
// data branch. A loop counter that elsewhere holds a key is best given a
// name of its own (the shipped examples do).
package lang
