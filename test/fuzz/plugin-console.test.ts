// Regression: what a plug-in printed with console.error in `apply` did not appear in `refsem exec`
// (the command runs in a worker thread whose own stderr is lost when the command ends). Plug-in
// output is now routed to the command's stderr, tagged with the plug-in.
import { expect, it } from 'vitest';
import { routePluginConsole, watched } from '../../src/node/watchdog.js';

it('console output during a plug-in call is tagged with the plug-in and sent to the sink', () => {
  const seen: string[] = [];
  routePluginConsole((t) => seen.push(t));
  watched(() => {
    console.error('applying to', 'f.s0.x');
    console.log('two\nlines');
  }, 'apply of directive d', 1000, 'directive d')();
  expect(seen).toEqual(['[directive d] applying to f.s0.x\n', '[directive d] two\n[directive d] lines\n']);
});
