// Package ranking judges measured running times against a model's
// predictions the way a class of students or a reviewer reads a table of
// them: not only how far each prediction is off, but whether the model
// orders the kernels as the machine did.
//
// Within one size class (the same N for every sort) it ranks the sorts by
// both models and by the measurement (Spearman's ρ, ties averaged), lists
// the pairs each model orders against the measurement, and names the
// faster of the two permutation products each way. A pair whose measured
// times lie closer than the noise of their rounds orders nothing; nor does
// a pair the hierarchy model puts closer than the calibration's own
// spreads move the gap between its two predictions (hier.GapUncertainty).
// The three lists of misordered pairs are those three readings, from the
// strictest to the one that counts only what both the measurement and the
// model can tell apart.
//
// `memwall validate` and the Data page both summarise through Summarize.
package ranking
