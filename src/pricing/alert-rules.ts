/**
 * Price-alert conditions (issue 29 point 2): whether an alert fires on a new top of book, and
 * what it remembers for next time. Pure: prices are integer cents, thresholds cents or basis
 * points, time is the caller's clock in milliseconds.
 *
 * Threshold conditions fire once when they become true and re-arm when they turn false again, so
 * a price resting below a threshold does not fire on every tick; `move_bps` fires when the best
 * ask has moved at least `value` bps (either way) from the ask it last fired at (or the first ask
 * seen). No condition fires again within `cooldownSeconds` of its last firing.
 */
import { SECOND } from '../domain/clock.ts';
import { BPS_DENOMINATOR, type Bps, type Cents } from '../domain/money.ts';

export const CONDITION_TYPES = [
  'ask_below',
  'ask_above',
  'bid_above',
  'bid_below',
  'spread_below_bps',
  'move_bps',
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];

export interface AlertCondition {
  type: ConditionType;
  /** Cents for the ask/bid conditions, basis points for spread_below_bps and move_bps. */
  value: number;
}

export interface TopOfBook {
  bestAsk: Cents | null;
  bestBid: Cents | null;
  spreadBps: Bps | null;
}

export interface AlertMemory {
  /** When the alert last fired (ms), or null. */
  lastFiredAt: number | null;
  /** The best ask when it last fired (move_bps's reference), or the first one seen. */
  referenceAsk: Cents | null;
  /** False after a threshold condition fired, until the condition is false again. */
  armed: boolean;
}

export const FRESH_MEMORY: AlertMemory = { lastFiredAt: null, referenceAsk: null, armed: true };

export const DEFAULT_COOLDOWN_SECONDS = 60;
export const MAX_COOLDOWN_SECONDS = 86_400;

export interface Evaluation {
  fired: boolean;
  memory: AlertMemory;
}

export function isConditionType(value: unknown): value is ConditionType {
  return typeof value === 'string' && (CONDITION_TYPES as readonly string[]).includes(value);
}

/** Whether `|ask - reference|` is at least `bps` of the reference, in integers. */
export function movedAtLeast(ask: Cents, reference: Cents, bps: Bps): boolean {
  if (reference <= 0) return false;
  return Math.abs(ask - reference) * BPS_DENOMINATOR >= bps * reference;
}

/** Whether a threshold condition holds on `top` (move_bps is never a threshold). */
export function thresholdHolds(condition: AlertCondition, top: TopOfBook): boolean {
  const { value } = condition;
  switch (condition.type) {
    case 'ask_below':
      return top.bestAsk !== null && top.bestAsk < value;
    case 'ask_above':
      return top.bestAsk !== null && top.bestAsk > value;
    case 'bid_above':
      return top.bestBid !== null && top.bestBid > value;
    case 'bid_below':
      return top.bestBid !== null && top.bestBid < value;
    case 'spread_below_bps':
      return top.spreadBps !== null && top.spreadBps < value;
    case 'move_bps':
      return false;
  }
}

function coolingDown(memory: AlertMemory, cooldownSeconds: number, now: number): boolean {
  return memory.lastFiredAt !== null && now - memory.lastFiredAt < cooldownSeconds * SECOND;
}

function evaluateMove(
  condition: AlertCondition,
  cooldownSeconds: number,
  memory: AlertMemory,
  top: TopOfBook,
  now: number,
): Evaluation {
  if (top.bestAsk === null) return { fired: false, memory };
  if (memory.referenceAsk === null) {
    return { fired: false, memory: { ...memory, referenceAsk: top.bestAsk } };
  }
  const moved = movedAtLeast(top.bestAsk, memory.referenceAsk, condition.value);
  if (!moved || coolingDown(memory, cooldownSeconds, now)) return { fired: false, memory };
  return { fired: true, memory: { ...memory, lastFiredAt: now, referenceAsk: top.bestAsk } };
}

/** Evaluates one alert on a new top of book at `now`. */
export function evaluateAlert(
  condition: AlertCondition,
  cooldownSeconds: number,
  memory: AlertMemory,
  top: TopOfBook,
  now: number,
): Evaluation {
  if (condition.type === 'move_bps') {
    return evaluateMove(condition, cooldownSeconds, memory, top, now);
  }
  const holds = thresholdHolds(condition, top);
  if (!holds) return { fired: false, memory: memory.armed ? memory : { ...memory, armed: true } };
  if (!memory.armed || coolingDown(memory, cooldownSeconds, now)) return { fired: false, memory };
  return {
    fired: true,
    memory: { lastFiredAt: now, referenceAsk: top.bestAsk, armed: false },
  };
}

/** Why a condition value is unacceptable, or null: positive integer cents, bps 1..10,000. */
export function conditionValueProblem(condition: AlertCondition): string | null {
  const { type, value } = condition;
  if (!Number.isSafeInteger(value) || value <= 0) {
    return `condition.value must be a positive integer (${unitOf(type)})`;
  }
  if (unitOf(type) === 'bps' && value > BPS_DENOMINATOR) {
    return 'condition.value in basis points must be at most 10000';
  }
  return null;
}

export function unitOf(type: ConditionType): 'cents' | 'bps' {
  return type === 'spread_below_bps' || type === 'move_bps' ? 'bps' : 'cents';
}
