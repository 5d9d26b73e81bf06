/** The text form of a markets check report: one line per (market, game), then the failures. */
import type { CheckReport, GameCheck, SamplePrice } from './run-check.ts';

function dollars(sample: SamplePrice): string {
  const cents = sample.priceCents;
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function sampleText(sample: SamplePrice | null): string {
  if (!sample) return '-';
  return `${sample.item} ${sample.side} ${dollars(sample)} (from ${sample.originalCurrency})`;
}

function cells(market: string, check: GameCheck): string[] {
  return [
    market,
    check.game,
    check.passed ? 'pass' : 'FAIL',
    check.failure?.kind ?? '-',
    check.reachable ? 'yes' : 'no',
    check.status === null ? '-' : String(check.status),
    check.latencyMs === null ? '-' : `${check.latencyMs} ms`,
    String(check.parsed),
    String(check.unmapped),
    String(check.rejected),
    sampleText(check.sample),
  ];
}

const HEADER = [
  'market',
  'game',
  'result',
  'kind',
  'reached',
  'status',
  'latency',
  'parsed',
  'unmapped',
  'rejected',
  'sample',
];

export function formatCheckReport(report: CheckReport, fxProblem: string | null): string {
  const rows = [
    HEADER,
    ...report.markets.flatMap((market) => market.games.map((game) => cells(market.market, game))),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const table = rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  '),
  );
  const problems = report.markets.flatMap((market) =>
    market.games
      .filter((game) => game.failure)
      .map(
        (game) =>
          `  ${market.market} ${game.game} ${game.failure!.kind}: ${game.failure!.detail ?? ''}`,
      ),
  );
  const passed = report.markets.filter((market) => market.passed).length;
  return [
    `markets check at ${report.checkedAt}; exchange rates: ${report.fx.source}`,
    ...(fxProblem ? [`  ${fxProblem}`] : []),
    ...table,
    ...(problems.length > 0 ? ['', 'failures:', ...problems] : []),
    '',
    `${passed} of ${report.markets.length} markets passed`,
    '',
  ].join('\n');
}
