/** Poll accounting shared by the failover test and bench: polls per market per window. */

export interface Poll {
  market: string;
  pid: number;
  /** performance.now() when the market server received the request. */
  at: number;
}

/**
 * Polls that came less than `windowMs` after the previous poll of the same market, whoever made
 * them: one holder never polls a market twice within its cadence, so each is a duplicate.
 * (Timers may fire up to a millisecond early, hence the 2 ms of slack.)
 */
export function countDuplicatePolls(polls: readonly Poll[], windowMs: number): number {
  const last = new Map<string, number>();
  let duplicates = 0;
  for (const poll of [...polls].sort((x, y) => x.at - y.at)) {
    const previous = last.get(poll.market);
    if (previous !== undefined && poll.at - previous < windowMs - 2) duplicates += 1;
    last.set(poll.market, poll.at);
  }
  return duplicates;
}
