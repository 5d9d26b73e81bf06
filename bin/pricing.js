#!/usr/bin/env -S node --single-threaded-gc
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
