/**
 * Error logs rate-limited per cause: a failure that repeats (a poll against a database that is
 * down, every 250 ms) is logged the first time at once, then at most once per interval with the
 * number of repeats left out meanwhile (`suppressed`). The cause is the message. Time comes from
 * the injected clock.
 */
import { MINUTE, type Clock } from './clock.ts';

export type LogLine = (fields: object, message: string) => void;

export interface LogLimiterOptions {
  clock: Clock;
  /** Default one minute. */
  intervalMs?: number;
  /** Causes remembered at most; the oldest is forgotten beyond (default 256). */
  maxCauses?: number;
}

interface CauseState {
  loggedAt: number;
  suppressed: number;
}

/** `log`, passing each cause's first line and then one line per interval. */
export function limitPerCause(log: LogLine, options: LogLimiterOptions): LogLine {
  const intervalMs = options.intervalMs ?? MINUTE;
  const maxCauses = options.maxCauses ?? 256;
  const causes = new Map<string, CauseState>();
  return (fields, message) => {
    const now = options.clock.now();
    const state = causes.get(message);
    if (state && now - state.loggedAt < intervalMs) {
      state.suppressed += 1;
      return;
    }
    const suppressed = state?.suppressed ?? 0;
    causes.delete(message);
    causes.set(message, { loggedAt: now, suppressed: 0 });
    if (causes.size > maxCauses) causes.delete(causes.keys().next().value!);
    log(suppressed > 0 ? { ...fields, suppressed } : fields, message);
  };
}
