// Fold thread entry: registers the TypeScript loader inside the thread, then runs the folder.
import { register } from 'tsx/esm/api';

register();
await import('./fold-thread.ts');
