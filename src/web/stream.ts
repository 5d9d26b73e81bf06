/**
 * Listening to the terminal's keyless stream (/terminal/api/stream): an EventSource, which
 * reconnects by itself and resumes with Last-Event-ID. stop() closes it.
 */
export interface Listener {
  stop(): void;
}

const EVENTS = ['snapshot', 'reset', 'quote', 'nbbo', 'stale', 'health'] as const;

export function listen(
  params: Record<string, string>,
  onEvent: (event: string, data: unknown) => void,
  onState: (open: boolean) => void,
): Listener {
  const source = new EventSource(`/terminal/api/stream?${new URLSearchParams(params)}`);
  for (const name of EVENTS) {
    source.addEventListener(name, (message) => {
      onEvent(name, JSON.parse((message as MessageEvent<string>).data) as unknown);
    });
  }
  source.addEventListener('open', () => onState(true));
  source.addEventListener('error', () => onState(false));
  return { stop: () => source.close() };
}
