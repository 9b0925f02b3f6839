// Installs the pinned agent CLIs (or finds them in the cache) before the contract suite runs;
// a registry that cannot be reached fails the suite here, in one line.
import { installedCli, PINNED, type CliName } from './agent-clis.js'

const started = Date.now()
try {
  await Promise.all((Object.keys(PINNED) as CliName[]).map((cli) => installedCli(cli)))
} catch (e) {
  console.error(`contract suite: ${(e as Error).message}`)
  process.exit(1)
}
console.log(`contract suite: agent CLIs ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
