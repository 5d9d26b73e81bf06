// Worker entry: registers the TypeScript loader inside the worker, then runs the ingest worker.
import { register } from 'tsx/esm/api';

register();
await import('./ingest-worker.ts');
