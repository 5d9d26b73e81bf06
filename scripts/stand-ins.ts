// Loopback stand-ins of every live market and of the ECB rate source, serving the connectors'
// fixture bodies at the real paths, and a markets file pointing at them: live mode without a
// network. Usage: node --import tsx scripts/stand-ins.ts [markets-file] [pollSeconds]
// then: npx pricing serve --source live --markets <markets-file> --data ./live-data
import { startStandInSet } from '../src/markets/testing/stand-in-set.ts';

const [path = 'markets.stand-ins.json', pollSeconds] = process.argv.slice(2);
const set = await startStandInSet();
set.writeMarketsFile(path, pollSeconds ? Number(pollSeconds) : undefined);
for (const [market, standIn] of set.markets) console.log(`${market.padEnd(15)} ${standIn.url}`);
console.log(`${'ecb'.padEnd(15)} ${set.ecbUrl}`);
console.log(`markets file written to ${path}; Ctrl-C to stop`);
process.once('SIGINT', () => void set.close().then(() => process.exit(0)));
