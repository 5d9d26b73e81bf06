/**
 * What an admin command reads and writes besides its arguments: the process's own streams and
 * environment in the `pricing` binary, captured ones when a test runs the command in-process.
 */
import type { Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

export function printLine(io: CliIo, text: string): void {
  io.stdout.write(`${text}\n`);
}

export function printError(io: CliIo, text: string): void {
  io.stderr.write(`${text}\n`);
}
