/**
 * One AttributeBook per app: the key-gated attribute routes and the terminal's bucket panel read
 * the same derived buckets, so each book change is derived once, not once per reader. Closed
 * with the app.
 */
import { AttributeBook } from '../attributes/attribute-book.ts';
import type { App } from './app-type.ts';
import type { AppDeps } from './deps.ts';

const books = new WeakMap<App, AttributeBook>();

export function sharedAttributeBook(app: App, deps: AppDeps): AttributeBook {
  const held = books.get(app);
  if (held) return held;
  const book = new AttributeBook(deps.book, deps.catalogs.cs2);
  books.set(app, book);
  app.addHook('onClose', async () => book.close());
  return book;
}
