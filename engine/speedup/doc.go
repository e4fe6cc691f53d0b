// Package speedup predicts parallel running time and speedup from fitted
// functional forms, following Chittor's thesis (Chittor 1994): the running time is
// T(N, P) = Seq(N, P) + Par(N, P)/P written as a linear combination of terms
// (eq. 1, chapter 4), its coefficients are fitted on a characterisation
// region and validated on a prediction region, the speedup is
// S(N, P) = T(N, 1)/T(N, P) (eq. 3), the efficiency S/P, and the roll-off
// point is the processor count beyond which S decreases (section 5.3).
//
// For comparison on the same chart it computes, from the same data, the
// simple theoretic model of section 5.2.1 (Seq(P) measured with N = 0 plus
// Par(N) measured with P = 1, divided by P), Amdahl's fixed-size law,
// Gustafson's scaled speedup and Sun and Ni's memory-bounded speedup, whose
// workload grows by G(P) when the memory grows P-fold (G = 1 is Amdahl,
// G = P is Gustafson).
package speedup
