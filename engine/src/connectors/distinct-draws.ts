// Distinct values of uniform random draws, both ways: how many of d possible values n draws are
// expected to hit, d (1 - (1 - 1/d)^n); and the d that makes the values seen in a sample of n
// rows expected (for a table's distinct count from its parts', when they hold values at random).

/** Expected distinct values among `draws` uniform draws from `values` possible ones. */
export function expectedDistinct(draws: number, values: number): number {
  if (values <= 1 || draws <= 0) return Math.min(values, draws);
  return Math.round(-values * Math.expm1(draws * Math.log1p(-1 / values)));
}

/**
 * The number of possible values whose `draws` uniform draws are expected to show `seen` distinct
 * ones, at most `limit` (when nearly every draw was distinct, the values could be any number beyond).
 */
export function distinctFromDraws(seen: number, draws: number, limit: number): number {
  if (seen <= 1 || draws <= seen) return seen >= draws && draws > 0 ? limit : Math.max(0, seen);
  const expected = (values: number) => -values * Math.expm1(draws * Math.log1p(-1 / values));
  if (expected(limit) <= seen) return limit;
  let [low, high] = [seen, limit];
  while (high - low > Math.max(1, low * 1e-6)) {
    const middle = (low + high) / 2;
    if (expected(middle) < seen) low = middle;
    else high = middle;
  }
  return Math.round(low);
}
