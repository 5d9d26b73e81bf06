/** The `pricing` binary's entry: src/cli/main.ts on the process's arguments and streams. */
import { runPricing } from './cli/main.ts';

// A reader that goes away (`| head`) must not crash a command with EPIPE after its work is
// done; output that matters (a new key) is written with writeFully, which checks for itself.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const code = await runPricing(process.argv.slice(2));
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
