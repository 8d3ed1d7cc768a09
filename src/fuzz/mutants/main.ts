// `npm run mutants [-- ID… --time=SECONDS --seed=S --jobs=J]`: plants each mutant of list.ts in a
// scratch copy of the build and runs the default campaign (60 s, two jobs, seed 1) against it;
// prints a line per mutant on stderr and the JSON summary on stdout.
import { runMutant, selectMutants } from './run.js';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ids = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const time = flag('time') ?? '60';
const campaign = ['--time', `${time}s`, '--seed', flag('seed') ?? '1', '--jobs', flag('jobs') ?? '2'];

let chosen: ReturnType<typeof selectMutants>;
try {
  chosen = selectMutants(ids);
} catch (e) {
  process.stderr.write(`mutants: error: ${(e as Error).message}\n`);
  process.exit(2);
}
const results = chosen.map((m) => {
  const r = runMutant(m, campaign);
  process.stderr.write(`mutants: ${r.id.padEnd(26)} ${r.outcome.padEnd(8)} ${String(r.seconds).padStart(5)} s  ${r.detail}\n`);
  return r;
});
const killed = results.filter((r) => r.outcome !== 'survived').length;
process.stdout.write(`${JSON.stringify({
  campaign: `refsem fuzz ${campaign.join(' ')}`,
  mutants: results.length,
  killed,
  broken: results.filter((r) => r.outcome === 'broken').map((r) => r.id),
  survived: results.filter((r) => r.outcome === 'survived').map((r) => r.id),
  score: Math.round((killed / Math.max(results.length, 1)) * 100) / 100,
  results,
}, null, 2)}\n`);
