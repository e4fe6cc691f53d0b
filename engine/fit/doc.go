// Package fit fits linear models T = sum_k c_k·f_k(x) to measured data and
// says how well they predict data they did not see.
//
// A model is a list of terms over named numeric columns. Terms are written in
// a small language of products, quotients, powers and base-2 logarithms:
//
//	1
//	N/P*log2(P)^2
//	P*log2(P)
//	log2(P)*N/P*log2(N/P)^2
//
// which covers the functional forms of Chittor's thesis (eqs. 6, 9 and 11, where "all
// logarithms are to the base 2"), the first- and second-order features of
// the lines-touched paper (m, n, u, n^2, n*u) and the cost functions of the superstep paper (h_r, h_w,
// M). Extra-P's performance-model normal form, sums of products of powers and
// log2-powers of the parameters, is the same family.
//
// The least-squares problem is solved with column normalisation, Householder
// QR and a Jacobi SVD of the small triangular factor, never with the normal
// equations, whose condition number is the square of the problem's. The
// singular values detect rank deficiency (refused, naming the terms) and near
// collinearity (a warning naming the terms and the near-relation between
// them), as Chittor's thesis (section 5.2.4) warns that fitted coefficients of nearly
// collinear terms such as N and N·log N come out large and of opposite sign.
//
// Two weightings are offered: absolute least squares, which is what the papers
// memwall follows use (docs/readings.md), and relative least squares (each row weighted by 1/y²), which fits
// times that span several orders of magnitude evenly. By default the
// weighting that predicts better in cross-validation on the training rows is
// chosen, and the result says which and why.
//
// Statistics follow the lines-touched paper (section 4): s_e = sqrt(SSE/(n−p)),
// D = SSE/SST (0 is perfect; below 0.01 acceptable), R² = 1 − D, and the mean,
// median and maximum relative error, separately for the training and the
// test rows.
package fit
