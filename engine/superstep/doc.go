// Package superstep bounds the communication time of a bulk-synchronous
// program on a shared-memory machine, following the superstep paper (the SGI Power
// Challenge study of Good and Bad access-pattern families).
//
// A superstep is described by the global reads h_r(i) and writes h_w(i) of
// each processor i (section 4). From them come the features h_r, h_w
// (maxima over processors), h = max(h_r, h_w) and M (total reads and
// writes), and, for the Good family, the split of h_r and h_w into the
// accesses within the first C words of the cache (h_rc, h_wc) and the rest
// (h_rm, h_wm) (section 4.2.1).
//
// Five linear cost functions of these features are defined (sections 4.2.1
// and 4.2.2): H, HM, HrHw, HrHwM and HrHwM-c, with coefficients in
// microseconds as the paper prints them. The paper's best function for the
// Good family (HrHwM-c, fitted separately for R0: h <= C and R1: h > C) and
// for the Bad family (HrHwM) give the prediction interval [t_g, t_b] of a
// superstep's communication time (section 5), and a measured time t_m gives
// the locality metrics Loc = 1 − (t_m − t_g)/(t_b − t_g) and M/G = t_m/t_g
// (section 5.2).
//
// The package embeds the paper's fitted coefficients (Tables 1–4) and its
// validation errors (Tables 5–8) as published data; the supersteps of the
// three sorting algorithms of section 5.1 (radix, sample and column sort,
// Tables 9–11) with the Loc and M/G values printed for them; the access
// patterns of the experiment suites of section 4.1 (like-gather,
// like-scatter, vary; Suites 1–3 over the sizes H0, H1, H2); and the
// fitting of the cost functions to measured supersteps through engine/fit,
// with the average and maximum relative error per function and processor
// count on held-out suites, as in Tables 5–8.
package superstep
