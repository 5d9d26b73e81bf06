/** A one-line progress bar on stderr (plain periodic lines when stderr is not a terminal). */
export interface Progress {
  update(done: number, detail?: string): void;
  finish(detail?: string): void;
}

export function progressBar(label: string, total: number, stream = process.stderr): Progress {
  const width = 30;
  const started = performance.now();
  let lastPrinted = 0;
  const render = (done: number, detail = '') => {
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(fraction * width);
    const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return `${label} [${bar}] ${Math.round(fraction * 100)}% ${seconds}s ${detail}`;
  };
  return {
    update(done, detail) {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      if (stream.isTTY) {
        stream.write(`\r${render(done, detail)}`);
      } else if (percent >= lastPrinted + 10) {
        lastPrinted = percent - (percent % 10);
        stream.write(`${render(done, detail)}\n`);
      }
    },
    finish(detail) {
      stream.write(`${stream.isTTY ? '\r' : ''}${render(total, detail)}\n`);
    },
  };
}
