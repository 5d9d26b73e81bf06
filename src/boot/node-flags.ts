/**
 * The node flags a `pricing serve` process starts with: `npm start` and the `pricing` binary's
 * shebang pass them, and the benches spawn their servers with them.
 *
 * `--single-threaded-gc`: each isolate collects its own garbage on its own thread. By default
 * V8's four shared helper threads mark, sweep and scavenge for every isolate, the ingest
 * worker's included, at the process's priority: on a core shared with the HTTP thread they
 * escaped the ingest thread's nice 10 (thread-priority.ts) and, with the server pinned to one
 * core, four threads doing one core's collections only added switching. With the flag the
 * ingest isolate's collections run on the ingest thread, at its priority. Measured on the
 * default start pinned to one core without requests (BENCHMARKS.md, pinned): the helper
 * threads' CPU fell from 60 to 21 ms a second, the whole process's from 178 to 130.
 *
 * V8 reads these flags once, at start: set later through `v8.setFlagsFromString` the process
 * aborts at its next collection, so `serve` cannot apply them to itself.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--single-threaded-gc'];
