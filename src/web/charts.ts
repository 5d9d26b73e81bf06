/**
 * The item page's two charts, drawn with TradingView's lightweight-charts (Apache-2.0, canvas):
 * the merged depth ladder (cumulative units against price, on the library's price-axis
 * "options" chart) and the price history (best ask, best bid, sales volume, optional one line per
 * market). Cents become dollars here only, for drawing. Each container records how many points
 * it holds in `data-points`.
 */
import {
  AreaSeries,
  ColorType,
  createChart,
  createOptionsChart,
  HistogramSeries,
  LineSeries,
  LineType,
  type ChartOptions,
  type DeepPartial,
  type IChartApiBase,
  type ISeriesApi,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { HistoryByMarketData, HistoryData, ItemData } from './api.ts';

const THEME: DeepPartial<ChartOptions> = {
  autoSize: true,
  layout: {
    background: { type: ColorType.Solid, color: '#10161d' },
    textColor: '#aab4bf',
    attributionLogo: true,
  },
  grid: { vertLines: { color: '#1c252f' }, horzLines: { color: '#1c252f' } },
  rightPriceScale: { borderColor: '#2a3643' },
};
const ASK = '#f0616d';
const BID = '#3fcf8e';
const PALETTE = ['#5aa9ff', '#ffb454', '#c792ea', '#7fdbca', '#f78c6c', '#ffd866', '#82aaff'];
const DOLLARS = { type: 'price' as const, precision: 2, minMove: 0.01 };

type Level = ItemData['depth']['asks'][number];

function depthPoints(levels: readonly Level[]) {
  return [...levels]
    .sort((a, b) => a.price - b.price)
    .map((level) => ({ time: level.price / 100, value: level.cumulativeQuantity }));
}

export class DepthChart {
  private readonly chart: IChartApiBase<number>;
  private readonly asks: ISeriesApi<SeriesType, number>;
  private readonly bids: ISeriesApi<SeriesType, number>;

  constructor(private readonly container: HTMLElement) {
    this.chart = createOptionsChart(container, {
      ...THEME,
      localization: { precision: 2 },
      timeScale: { borderColor: '#2a3643' },
    });
    const area = (color: string) => ({
      lineColor: color,
      topColor: `${color}66`,
      bottomColor: `${color}08`,
      lineType: LineType.WithSteps,
      lineWidth: 2 as const,
      priceFormat: { type: 'volume' as const },
    });
    this.bids = this.chart.addSeries(AreaSeries, area(BID));
    this.asks = this.chart.addSeries(AreaSeries, area(ASK));
  }

  update(depth: ItemData['depth']): void {
    const asks = depthPoints(depth.asks);
    const bids = depthPoints(depth.bids);
    this.asks.setData(asks);
    this.bids.setData(bids);
    this.container.dataset.points = String(asks.length + bids.length);
    this.chart.timeScale().fitContent();
  }

  destroy(): void {
    this.chart.remove();
  }
}

function timeOf(iso: string): UTCTimestamp {
  return Math.floor(Date.parse(iso) / 1000) as UTCTimestamp;
}

type Point = HistoryData['history'][number];

function line(points: readonly Point[], pick: (point: Point) => number | null) {
  const out: { time: UTCTimestamp; value: number }[] = [];
  for (const point of points) {
    const cents = pick(point);
    if (cents !== null) out.push({ time: timeOf(point.timestamp), value: cents / 100 });
  }
  return out;
}

export interface HistorySets {
  asks: HistoryData | null;
  bids: HistoryData | null;
  sales: HistoryData | null;
  byMarket: HistoryByMarketData | null;
}

export class HistoryChart {
  private readonly chart;
  private readonly ask;
  private readonly bid;
  private readonly volume;
  private overlays = new Map<string, ISeriesApi<'Line'>>();

  constructor(private readonly container: HTMLElement) {
    this.chart = createChart(container, {
      ...THEME,
      timeScale: { timeVisible: true, borderColor: '#2a3643' },
    });
    this.volume = this.chart.addSeries(HistogramSeries, {
      color: '#5aa9ff55',
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      title: 'sales',
    });
    this.chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.ask = this.chart.addSeries(LineSeries, {
      color: ASK,
      lineWidth: 2,
      priceFormat: DOLLARS,
      title: 'ask',
    });
    this.bid = this.chart.addSeries(LineSeries, {
      color: BID,
      lineWidth: 2,
      priceFormat: DOLLARS,
      title: 'bid',
    });
  }

  update(sets: HistorySets): void {
    const asks = line(sets.asks?.history ?? [], (point) => point.bestAskCents ?? point.minPrice);
    const bids = line(sets.bids?.history ?? [], (point) => point.bestBidCents);
    const volume = (sets.sales?.history ?? [])
      .filter((point) => point.volume !== null)
      .map((point) => ({ time: timeOf(point.timestamp), value: point.volume ?? 0 }));
    this.ask.setData(asks);
    this.bid.setData(bids);
    this.volume.setData(volume);
    const overlaid = this.overlay(sets.byMarket);
    this.container.dataset.points = String(asks.length + bids.length + volume.length + overlaid);
    this.chart.timeScale().fitContent();
  }

  /** One thin line per market (its own best ask), or none when `byMarket` is null. */
  private overlay(byMarket: HistoryByMarketData | null): number {
    for (const series of this.overlays.values()) this.chart.removeSeries(series);
    this.overlays = new Map();
    let points = 0;
    byMarket?.series.forEach((series, index) => {
      const data = line(series.history, (point) => point.bestAskCents ?? point.minPrice);
      if (data.length === 0) return;
      const color = PALETTE[index % PALETTE.length]!;
      const added = this.chart.addSeries(LineSeries, {
        color,
        lineWidth: 1,
        priceFormat: DOLLARS,
        title: series.market,
        lastValueVisible: false,
      });
      added.setData(data);
      this.overlays.set(series.market, added);
      points += data.length;
    });
    return points;
  }

  destroy(): void {
    this.chart.remove();
  }
}
