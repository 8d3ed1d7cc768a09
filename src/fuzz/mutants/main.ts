// `npm run mutants [-- ID… --time=SECONDS --seed=S --jobs=J --no-tests --no-campaign]`: plants each
// mutant of list.ts in a scratch copy of the build and runs the default campaign (60 s, two jobs,
// seed 1) against it and the tests of the mutated module's folder; prints a line per mutant on
// stderr and the JSON summary on stdout, with the kill rate of each beside the other. The tests
// cost seconds per mutant against the campaign's minute, so both run unless one is turned off.
import { type MutantResult, runMutant, selectMutants } from './run.js';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ids = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const time = flag('time') ?? '60';
const campaign = ['--time', `${time}s`, '--seed', flag('seed') ?? '1', '--jobs', flag('jobs') ?? '2'];
const withCampaign = !process.argv.includes('--no-campaign');
const withTests = !process.argv.includes('--no-tests');

let chosen: ReturnType<typeof selectMutants>;
try {
  chosen = selectMutants(ids);
} catch (e) {
  process.stderr.write(`mutants: error: ${(e as Error).message}\n`);
  process.exit(2);
}

const column = (outcome: string | undefined, seconds: number | undefined, detail: string | undefined) =>
  outcome === undefined ? '' : `${outcome.padEnd(8)} ${String(seconds).padStart(5)} s  ${detail}`;

const results = chosen.map((m) => {
  const r = runMutant(m, { ...(withCampaign ? { campaign } : {}), tests: withTests });
  const parts = [column(r.outcome, r.seconds, r.detail), r.tests ? `tests: ${column(r.tests.outcome, r.tests.seconds, r.tests.detail)}` : ''].filter(Boolean);
  process.stderr.write(`mutants: ${r.id.padEnd(30)} ${parts.join('  |  ')}\n`);
  return r;
});

/** Killed, of the mutants a side judged; the campaign's "broken" counts as killed (a user sees it). */
function rate(judged: readonly MutantResult[], killed: (r: MutantResult) => boolean) {
  const n = judged.filter(killed).length;
  return { killed: n, of: judged.length, score: Math.round((n / Math.max(judged.length, 1)) * 100) / 100 };
}

const campaignSide = results.filter((r) => r.outcome !== undefined);
const testsSide = results.filter((r) => r.tests !== undefined);
const summary = {
  campaign: withCampaign ? `refsem fuzz ${campaign.join(' ')}` : null,
  mutants: results.length,
  ...(withCampaign ? {
    ...rate(campaignSide, (r) => r.outcome !== 'survived'),
    broken: campaignSide.filter((r) => r.outcome === 'broken').map((r) => r.id),
    // Kills by a check past its budget: on a loaded machine the load explains them as well as the mutant.
    killed_by_timeout: campaignSide.filter((r) => r.outcome === 'killed' && r.detail!.endsWith(': timeout')).map((r) => r.id),
    survived: campaignSide.filter((r) => r.outcome === 'survived').map((r) => r.id),
  } : {}),
  ...(withTests ? {
    tests: {
      ...rate(testsSide, (r) => r.tests!.outcome === 'killed'),
      judge: "the test files of each mutated module's folder (test/<folder>/), stopping at the first failure",
      survived: testsSide.filter((r) => r.tests!.outcome !== 'killed').map((r) => `${r.id} (${r.tests!.outcome})`),
    },
  } : {}),
  results,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
// The tests' figure is always named beside the campaign's: when not measured, the line says how to get it.
const line = [withCampaign ? `campaign killed ${summary.killed}/${summary.of} (${summary.killed_by_timeout!.length} by a timeout)` : '', withTests ? `tests killed ${summary.tests!.killed}/${summary.tests!.of}` : 'tests not run (--no-tests)'].filter(Boolean).join(', ');
process.stderr.write(`mutants: ${line}\n`);
