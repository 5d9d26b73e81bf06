/**
 * Display rules of the terminal: money arrives as integer USD cents and is shown as dollars with
 * two decimals (integer arithmetic, no float rounding), spreads in basis points, ages from the
 * served timestamps against the page's clock.
 */
const GROUPED = new Intl.NumberFormat('en-US');

export function dollars(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}$${GROUPED.format(whole)}.${rest < 10 ? '0' : ''}${rest}`;
}

export function bps(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `${GROUPED.format(value)} bps`;
}

/** A 0–1 share as a percentage with one decimal. */
export function percent(share: number | null | undefined): string {
  if (share === null || share === undefined) return '—';
  return `${(Math.round(share * 1000) / 10).toFixed(1)}%`;
}

/** Fee basis points as a percentage: 250 → "2.5%". */
export function feePercent(basisPoints: number): string {
  const tenths = Math.round(basisPoints / 10);
  return `${Math.floor(tenths / 10)}${tenths % 10 === 0 ? '' : `.${tenths % 10}`}%`;
}

export function ageSeconds(iso: string | null | undefined, nowMs: number): number | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  return Number.isFinite(at) ? Math.max(0, Math.floor((nowMs - at) / 1000)) : null;
}

export function age(iso: string | null | undefined, nowMs: number): string {
  const seconds = ageSeconds(iso, nowMs);
  if (seconds === null) return 'never';
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400)
    return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(seconds / 86_400)}d`;
}

export function milliseconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** Hours as hours up to two days, then days, one decimal. */
export function hours(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value < 48 ? `${value.toFixed(1)} h` : `${(value / 24).toFixed(1)} d`;
}
