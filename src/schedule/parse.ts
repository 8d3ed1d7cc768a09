// The concrete syntax of schedules (spec/schedule.md, "Syntax"): a .sched file lists one directive
// per line (or separated by ';'); `//` starts a comment. Each directive is its name followed by
// its arguments as its params declare them, e.g. `split f.x into xo, xi by 3 tail round`.
import { UserError } from '../diag.js';
import { Cursor, parseExpr } from '../expr/parse.js';
import { normBig } from '../expr/value.js';
import { builtinRegistry } from './builtins.js';
import type { ArgValue, Directive, DirectiveCall, DirectiveRegistry, ParamType, Schedule } from './plugin.js';
import { usage } from './print.js';

/** A directive name: words joined by '-' with no spaces (`compute-at` lexes as three tokens). */
function directiveName(c: Cursor): { text: string; loc: UserError['loc'] } {
  const first = c.ident('a directive name');
  let text = first.text;
  while (c.is('-') && c.peek(1).kind === 'ident' && c.peek().loc.line === first.loc.line
    && c.peek().loc.col === first.loc.col + text.length && c.peek(1).loc.col === c.peek().loc.col + 1) {
    c.next();
    text += '-' + c.next().text;
  }
  return { text, loc: first.loc };
}

/** Reads one argument of the given type. */
export function readArg(c: Cursor, type: ParamType): ArgValue {
  const list = <T>(one: () => T): T[] => {
    const out = [one()];
    while (c.accept(',')) out.push(one());
    return out;
  };
  const loop = (): string => {
    const t = c.ident('a loop name such as f.x or f.s0.x');
    const parts = t.text.split('.');
    if (parts.length < 2 || parts.length > 4) {
      throw new UserError(`'${t.text}' is not a loop name`, t.loc, 'loops are named func.var (final stage), func.s<i>.var or func.s<i>.k<j>.var');
    }
    return t.text;
  };
  const name = () => c.name('a new loop name').text;
  const expr = () => parseExpr(c, 'tgt');
  if (typeof type === 'object') {
    const t = c.ident(`one of ${type.choice.join(', ')}`);
    if (!type.choice.includes(t.text)) throw new UserError(`'${t.text}' is not one of ${type.choice.join(', ')}`, t.loc);
    return t.text;
  }
  switch (type) {
    case 'loop':
      return loop();
    case 'loops':
      return list(loop);
    case 'func':
      return c.name('a func name').text;
    case 'dim': {
      const t = c.ident('func.dimension, e.g. f.x');
      if (t.text.split('.').length !== 2) throw new UserError(`'${t.text}' is not of the form func.dimension`, t.loc, 'e.g. f.x');
      return t.text;
    }
    case 'name':
      return name();
    case 'names':
      return list(name);
    case 'expr':
      return expr();
    case 'exprs':
      return list(expr);
    case 'int':
      return normBig(c.integer());
  }
}

function parseCall(c: Cursor, registry: DirectiveRegistry): DirectiveCall {
  const { text, loc } = directiveName(c);
  const d: Directive | undefined = registry.get(text);
  if (!d) {
    throw new UserError(`unknown directive '${text}'`, loc, `the directives are: ${registry.names().join(', ')}`);
  }
  if (d.parse) return { directive: d, args: d.parse(c, (type) => readArg(c, type)), ...(loc ? { loc } : {}) };
  const args: Record<string, ArgValue> = {};
  for (const p of d.params ?? []) {
    if (p.key) {
      if (p.optional && !c.is(p.key)) continue;
      c.expect(p.key, `${d.name} is written: ${usage(d)}`);
    }
    args[p.name] = readArg(c, p.type);
  }
  return { directive: d, args, ...(loc ? { loc } : {}) };
}

export function parseSchedule(src: string, file: string, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  const c = Cursor.of(src, file);
  const calls: DirectiveCall[] = [];
  while (!c.atEnd()) {
    if (c.accept(';')) continue;
    const call = parseCall(c, registry);
    calls.push(call);
    const last = c.toks[c.pos - 1]!;
    if (!c.atEnd() && !c.is(';') && c.peek().loc.line === last.loc.line) {
      c.fail(`the end of the ${call.directive.name} directive`, `${call.directive.name} is written: ${usage(call.directive)}; put each directive on its own line or separate them with ';'`);
    }
  }
  return { file, calls, registry };
}
