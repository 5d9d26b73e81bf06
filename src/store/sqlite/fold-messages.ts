/** Messages between a SQLite store and its fold thread (fold-thread.ts). */
export interface FoldThreadConfig {
  /** The prices file; the thread attaches its history file itself. */
  path: string;
}

export type FoldHostMessage = { type: 'flush'; id: number } | { type: 'stop' };

export type FoldThreadMessage =
  | { type: 'ready' }
  | { type: 'flushed'; id: number; through: number; error: string | null }
  | { type: 'error'; message: string }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
