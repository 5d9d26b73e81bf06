/**
 * A table of exchange rates: integer micro-USD per one major unit of each currency, with the
 * date the rates describe and where they came from.
 */
export interface FxTable {
  /** When the rates were observed or published (ms epoch). */
  asOf: number;
  source: string;
  /** Micro-USD per one major unit; USD is always 1_000_000. */
  usdMicroPerUnit: Readonly<Record<string, number>>;
}
