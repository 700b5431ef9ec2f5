export interface Interval {
  low: number;
  high: number;
}
