import { benchHistory } from './history.ts';
await benchHistory();
