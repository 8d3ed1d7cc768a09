// `refsem effects PROG [--schedule S] [--at LABEL]`: the effect of a (scheduled) target program or of
// one labelled statement in it, and its derived sets (thesis §3.5.5; spec/effects.md).
import { UserError, argLoc } from '../../diag.js';
import { scopeAt, stmtEffect } from '../../effects/effect.js';
import { showEffectReport } from '../../effects/print.js';
import { readScheduled } from '../../node/program.js';
import { findStmt } from '../../target-semantics/walk.js';
import { scheduleOf, scheduleOptions } from '../common-options.js';
import type { Register } from './index.js';

export const register: Register = (program, io) => {
  scheduleOptions(program
    .command('effects')
    .description('the effect of a target program (or of one labelled statement) and its read, write and reduce sets (thesis §3.5)')
    .argument('<prog>', 'algorithm source file, or a Tgt? program (.tgt)'))
    .option('--at <label>', 'the statement `label LABEL: …` (a func such as f, or a stage such as f.s0) instead of the whole program')
    .action(async (prog: string, o: { schedule?: string; directive: string[]; at?: string }) => {
      const { t } = await readScheduled({ prog, ...scheduleOf(o) });
      const site = o.at === undefined ? { stmt: t.body, path: [] } : findStmt(t.body, (s) => s.k === 'label' && s.name === o.at);
      if (!site) {
        throw new UserError(`there is no statement 'label ${o.at}' in the program`, argLoc('--at', o.at), 'name a func (f) or a stage (f.s0); refsem schedule PROG prints the labels');
      }
      const { scope } = scopeAt(t, site.path);
      io.out(showEffectReport(stmtEffect(site.stmt, scope)));
    });
};
