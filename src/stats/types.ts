/** A two-sided confidence interval. */
export interface Interval {
  low: number;
  high: number;
}
