// The gathers of the swizzle language (spec/swizzle.md): functions between arrays that never look at
// the values they move (the seed's §2, "Gathers"). A gather is stored as a table: for each output
// cell, the cell of the concatenated arguments it reads, or 0, or ⊥ (out of range). Holes stand
// for sets of gathers (§3); each set is built by enumerating the seed's grammar and dropping
// gathers whose tables repeat an earlier one, so a set is a set of functions, not of spellings.
import { type Loc, UserError } from '../diag.js';
import { type Shape, flatIndex, floorMod, forEachIndex, gcd, sameShape, showShape, sizeOf } from './shape.js';

export const SRC_ZERO = -1;
export const SRC_BOTTOM = -2;

export interface Gather {
  /** the concrete spelling, which parses back to this gather alone */
  readonly name: string;
  /** per output cell (flat): a cell of the concatenated arguments, SRC_ZERO or SRC_BOTTOM */
  readonly src: Int32Array;
}

export type OptVal = number | readonly number[];
export type Opts = ReadonlyMap<string, OptVal>;

export interface GatherCtx {
  readonly args: readonly Shape[];
  readonly out: Shape;
  readonly opts: Opts;
  readonly loc: Loc;
}

/** What a gather reads for one output point: [argument, point] or 'zero'. */
type Read = readonly [number, readonly number[]] | 'zero';

function offsets(args: readonly Shape[]): number[] {
  const off: number[] = [];
  let o = 0;
  for (const a of args) {
    off.push(o);
    o += sizeOf(a);
  }
  return off;
}

function tableOf(c: GatherCtx, read: (idx: readonly number[]) => Read): Int32Array {
  const off = offsets(c.args);
  const src = new Int32Array(sizeOf(c.out));
  forEachIndex(c.out, (idx, k) => {
    const r = read(idx);
    if (r === 'zero') src[k] = SRC_ZERO;
    else {
      const f = flatIndex(r[1], c.args[r[0]]!);
      src[k] = f < 0 ? SRC_BOTTOM : off[r[0]]! + f;
    }
  });
  return src;
}

function spell(base: string, params: readonly (readonly [string, OptVal])[]): string {
  if (params.length === 0) return base;
  return `${base}{${params.map(([k, v]) => `${k}=${typeof v === 'number' ? v : `[${v.join(', ')}]`}`).join(', ')}}`;
}

function fail(c: GatherCtx, msg: string, hint?: string): never {
  throw new UserError(msg, c.loc, hint);
}

function intOpt(c: GatherCtx, key: string, dflt?: number): number {
  const v = c.opts.get(key);
  if (v === undefined) {
    if (dflt === undefined) fail(c, `missing option '${key}'`, `write it as {${key}=…}`);
    return dflt;
  }
  if (typeof v !== 'number') fail(c, `option '${key}' takes a number, not a list`);
  return v;
}

function listOpt(c: GatherCtx, key: string, dflt: readonly number[]): readonly number[] {
  const v = c.opts.get(key);
  if (v === undefined) return dflt;
  return typeof v === 'number' ? [v] : v;
}

function arity(c: GatherCtx, n: number, what: string): void {
  if (c.args.length !== n) fail(c, `${what} takes ${n} argument${n === 1 ? '' : 's'}, got ${c.args.length}`);
}

function axisOpt(c: GatherCtx, key: string, dflt?: number): number {
  const a = intOpt(c, key, dflt);
  if (a < 0 || a >= c.out.length) fail(c, `option ${key}=${a} is not a dimension of ${showShape(c.out)}`);
  return a;
}

/** Keeps the first gather of every distinct table (the grammar's order decides which spelling stays). */
/**
 * The most work a hole's grammar may take to enumerate — gathers (before duplicates are dropped)
 * times the cells of each — a bound that turns a huge set into a message, not a hang.
 */
export const MAX_ENUMERATED_CELLS = 1 << 27;

function budget(c: GatherCtx, count: number, what: string): void {
  const work = count * sizeOf(c.out);
  if (work > MAX_ENUMERATED_CELLS || !Number.isFinite(work)) fail(c, `${what} would enumerate about ${count > 1e12 ? count.toExponential(1) : Math.round(count)} gathers of ${sizeOf(c.out)} cells, more than ${MAX_ENUMERATED_CELLS} cells in all`, 'narrow it with options (level, consts, dims) or make the array smaller');
}

function distinct(gs: readonly Gather[]): Gather[] {
  const seen = new Map<string, Gather>();
  for (const g of gs) {
    const key = String(g.src);
    if (!seen.has(key)) seen.set(key, g);
  }
  return [...seen.values()];
}

// ---- structural gathers --------------------------------------------------------------------------

/**
 * reshape / id: the cells of the argument in flat order (the seed's `identity`, `reshape`);
 * reshape{from=k} starts at flat cell k (a slice, e.g. the last registers of a register file).
 */
function reshape(c: GatherCtx, name: string): Gather[] {
  arity(c, 1, name);
  const n = sizeOf(c.args[0]!);
  const from = name === 'reshape' ? intOpt(c, 'from', 0) : 0;
  if (from < 0 || from >= n) fail(c, `reshape{from=${from}}: the argument has cells 0…${n - 1}`);
  const src = new Int32Array(sizeOf(c.out));
  for (let k = 0; k < src.length; k++) src[k] = k + from < n ? k + from : SRC_BOTTOM;
  return [{ name: from ? spell(name, [['from', from]]) : name, src }];
}

function transpose(c: GatherCtx): Gather[] {
  arity(c, 1, 'transpose');
  const a = c.args[0]!;
  if (a.length !== 2 || !sameShape(c.out, [a[1]!, a[0]!])) fail(c, `transpose of ${showShape(a)} gives [${a[1]}, ${a[0]}], not ${showShape(c.out)}`);
  return [{ name: 'transpose', src: tableOf(c, (i) => [0, [i[1]!, i[0]!]]) }];
}

/** stack(a, b, …): a new last dimension choosing the argument. */
function stack(c: GatherCtx): Gather[] {
  const k = c.out[c.out.length - 1];
  if (k !== c.args.length) fail(c, `stack of ${c.args.length} arrays needs a last dimension of ${c.args.length}, not ${k}`);
  const inner = c.out.slice(0, -1);
  c.args.forEach((a) => sameShape(a, inner) || fail(c, `stack: argument ${showShape(a)} is not ${showShape(inner)}`));
  return [{ name: 'stack', src: tableOf(c, (i) => [i[i.length - 1]!, i.slice(0, -1)]) }];
}

/** broadcast{group=g}: new leading dimensions inserted after the argument's first g. */
function broadcast(c: GatherCtx): Gather[] {
  arity(c, 1, 'broadcast');
  const a = c.args[0]!;
  const g = intOpt(c, 'group', 0);
  const split = c.out.length - a.length + g;
  if (g < 0 || g > a.length || split < g || !sameShape(a.slice(g), c.out.slice(split)) || !sameShape(a.slice(0, g), c.out.slice(0, g))) {
    fail(c, `broadcast{group=${g}} cannot make ${showShape(c.out)} from ${showShape(a)}`);
  }
  return [{ name: spell('broadcast', g ? [['group', g]] : []), src: tableOf(c, (i) => [0, [...i.slice(0, g), ...i.slice(split)]]) }];
}

// implements [SWZ-LOAD]
/**
 * load_rep / load_trunc: a coalesced load onto threads (the seed's Listing 4): the leading output
 * dimensions, read column-major (the first fastest), index the argument's first dimension;
 * load_rep wraps around, load_trunc reads ⊥ past the end.
 */
function load(c: GatherCtx, rep: boolean): Gather[] {
  const name = rep ? 'load_rep' : 'load_trunc';
  arity(c, 1, name);
  const a = c.args[0]!;
  const split = c.out.length - (a.length - 1);
  if (split < 1 || !sameShape(a.slice(1), c.out.slice(split))) fail(c, `${name} cannot make ${showShape(c.out)} from ${showShape(a)}`);
  return [{
    name,
    src: tableOf(c, (i) => {
      let lin = 0;
      for (let d = split - 1; d >= 0; d--) lin = lin * c.out[d]! + i[d]!;
      return [0, [rep ? lin % a[0]! : lin, ...i.slice(split)]];
    }),
  }];
}

/** load_grid_2d: an [H, W] input onto [h, w, H/h, W/w] threads and registers, column-major. */
function loadGrid2d(c: GatherCtx): Gather[] {
  arity(c, 1, 'load_grid_2d');
  if (c.args[0]!.length !== 2 || c.out.length !== 4) fail(c, 'load_grid_2d reads a 2-D array into a 4-D one');
  const [ni, nj] = c.out;
  return [{ name: 'load_grid_2d', src: tableOf(c, (i) => [0, [i[0]! + ni! * i[2]!, i[1]! + nj! * i[3]!]]) }];
}

/** rot_idx{r=k}: the dimensions rotated right by k (the seed's `rot_idx`). */
function rotIdx(c: GatherCtx): Gather[] {
  arity(c, 1, 'rot_idx');
  const a = c.args[0]!;
  const r = intOpt(c, 'r');
  const n = a.length;
  const want = a.map((_, d) => a[floorMod(d - r, n)]!);
  if (!sameShape(want, c.out)) fail(c, `rot_idx{r=${r}} of ${showShape(a)} is ${showShape(want)}, not ${showShape(c.out)}`);
  return [{ name: spell('rot_idx', [['r', r]]), src: tableOf(c, (i) => [0, a.map((_, d) => i[floorMod(d + r, n)]!)]) }];
}

// ---- the GPU swizzle grammar (Swizzle Inventor's, as the seed uses it, §5.1) ---------------------

interface Axes {
  readonly main: number;
  readonly second: number;
  readonly out: number;
}

function axes(c: GatherCtx, dflt?: Axes): Axes {
  return { main: axisOpt(c, 'main', dflt?.main), second: axisOpt(c, 'second', dflt?.second), out: axisOpt(c, 'out', dflt?.out) };
}

// implements [SWZ-XFORM]
/**
 * [SWZ-XFORM] A fan composed with a rotation inside groups of the main dimension: the cell at main
 * index i and second index k reads, along the out dimension, (cf·i' + ⌊i'/df⌋ + cr·k + ⌊k/dr⌋)
 * mod group within i's group, where i' = i mod group and df = group / gcd(group, cf); with wrap,
 * the rotation part is first taken mod gcd(group, cf).
 */
function xform(c: GatherCtx, ax: Axes, group: number, cf: number, cr: number, dr: number, wrap: number): Gather {
  const g = gcd(group, cf) || group;
  const df = group / g;
  return {
    name: spell('xform', [['main', ax.main], ['second', ax.second], ['out', ax.out], ['group', group], ['cf', cf], ['cr', cr], ['dr', dr], ['wrap', wrap]]),
    src: tableOf(c, (idx) => {
      const i = idx[ax.main]!;
      const ig = i % group;
      const k = idx[ax.second]!;
      const fan = cf * ig + Math.floor(ig / df);
      const raw = cr * k + Math.floor(k / dr);
      const rot = wrap ? floorMod(raw, g) : raw;
      const p = idx.slice();
      p[ax.out] = floorMod(fan + rot, group) + i - ig;
      return [0, p];
    }),
  };
}

// implements [SWZ-ROT]
/** [SWZ-ROT] A rotation by shift inside groups of the main dimension, along the out dimension. */
function rot(c: GatherCtx, ax: Axes, group: number, shift: number): Gather {
  return {
    name: spell('rot', [['main', ax.main], ['second', ax.second], ['out', ax.out], ['group', group], ['shift', shift]]),
    src: tableOf(c, (idx) => {
      const i = idx[ax.main]!;
      const p = idx.slice();
      p[ax.out] = floorMod(shift + i, group) + i - (i % group);
      return [0, p];
    }),
  };
}

function identity(c: GatherCtx): Gather {
  return { name: 'id', src: tableOf(c, (i) => [0, i]) };
}

function divisorsDown(n: number, from: number): number[] {
  const out: number[] = [];
  for (let d = n; d >= from; d--) if (n % d === 0) out.push(d);
  return out;
}

/** −1, then 0 … n−1: the constants the grammar tries for a coefficient. */
function coeffs(n: number): number[] {
  return [...Array.from({ length: n }, (_, i) => i), -1];
}

// implements [SWZ-LEVEL]
/**
 * [SWZ-LEVEL] The grammar's levels: level 1 and 2 use whole-dimension fans and rotations only;
 * level 3 adds every grouping (divisors of the main dimension) and the wrapping rotation. Levels
 * 1 and 2 differ in the conditionals' constants (see selects).
 */
function levelOf(c: GatherCtx): number {
  const l = intOpt(c, 'level', 3);
  if (l < 1 || l > 3) fail(c, `level=${l}: the grammar has levels 1, 2 and 3`);
  return l;
}

function sameExceptOut(c: GatherCtx, ax: Axes, what: string): void {
  arity(c, 1, what);
  const a = c.args[0]!;
  const ok = a.length === c.out.length && a.every((d, i) => i === ax.out || d === c.out[i]);
  if (!ok) fail(c, `${what}: ${showShape(c.out)} must equal ${showShape(a)} except in dimension ${ax.out}`);
  if (a[ax.out] !== c.out[ax.main] && ax.out !== ax.main) fail(c, `${what}: the out dimension must be as long as the main one`);
}

function xforms(c: GatherCtx, dflt?: Axes): Gather[] {
  const ax = axes(c, dflt);
  sameExceptOut(c, ax, 'xforms');
  const len = c.out[ax.main]!;
  const groups = levelOf(c) === 3 ? divisorsDown(len, 2) : [len];
  const wraps = levelOf(c) === 3 ? [0, 1] : [0];
  budget(c, groups.reduce((m, g) => m + wraps.length * divisorsDown(c.out[ax.second]!, 2).length * (g + 1) ** 2, 0), 'xforms');
  const out: Gather[] = [];
  if (sameShape(c.args[0]!, c.out)) out.push(identity(c));
  for (const g of groups) {
    for (const wrap of wraps) {
      for (const dr of divisorsDown(c.out[ax.second]!, 2)) {
        for (const cr of coeffs(g)) for (const cf of coeffs(g)) out.push(xform(c, ax, g, cf, cr, dr, wrap));
      }
    }
  }
  return distinct(out);
}

function rots(c: GatherCtx, dflt?: Axes): Gather[] {
  const ax = axes(c, dflt);
  sameExceptOut(c, ax, 'rots');
  const len = c.out[ax.main]!;
  const groups = levelOf(c) === 3 ? divisorsDown(len, 2) : [len];
  const out: Gather[] = [];
  if (sameShape(c.args[0]!, c.out)) out.push(identity(c));
  for (const g of groups) for (let s = -g + 1; s < g; s++) out.push(rot(c, ax, g, s));
  return distinct(out);
}

// ---- conditionals --------------------------------------------------------------------------------

const OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;

function holds(op: number, x: number, y: number): boolean {
  switch (op) {
    case 0: return x === y;
    case 1: return x !== y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
  }
}

/** A condition d_a OP c ± d_b, stored as five numbers: a, b, c, sign (1 or −1), op (index in OPS). */
type Cond = readonly [number, number, number, number, number];

function condHolds(k: Cond, idx: readonly number[]): boolean {
  return holds(k[4], idx[k[0]]!, k[2] + k[3] * idx[k[1]]!);
}

function condsOf(c: GatherCtx): Cond[] {
  const flat = listOpt(c, 'cond', []);
  if (flat.length % 5 !== 0) fail(c, 'option cond lists conditions as five numbers each: a, b, c, sign, op');
  const out: Cond[] = [];
  for (let i = 0; i < flat.length; i += 5) {
    const k = flat.slice(i, i + 5) as unknown as Cond;
    if (k[0] < 0 || k[0] >= c.out.length || k[1] < 0 || k[1] >= c.out.length || Math.abs(k[3]) !== 1 || k[4] < 0 || k[4] >= OPS.length) {
      fail(c, `condition ${k.join(', ')} is not d_a OP c ± d_b over ${showShape(c.out)}`, `ops are numbered ${OPS.map((o, j) => `${j}=${o}`).join(' ')}`);
    }
    out.push(k);
  }
  return out;
}

/** The conditions over the dimensions dims with the constants of the level (Swizzle Inventor's 0, ±1, ±n). */
function allConds(c: GatherCtx, dims: readonly number[], n: number): Cond[] {
  const consts = levelOf(c) === 1 ? [0] : listOpt(c, 'consts', [0, 1, -1, n, -n]);
  const out: Cond[] = [];
  for (const k of consts) for (const s of [1, -1]) for (const a of dims) for (const b of dims) for (let op = 0; op < OPS.length; op++) out.push([a, b, k, s, op]);
  return out;
}

// implements [SWZ-SELECT]
/** first_if{cond}: the last dimension reads register 0 of the argument where the condition holds, else 1. */
function firstIf(c: GatherCtx, k: Cond): Gather {
  return { name: spell('first_if', [['cond', k]]), src: tableOf(c, (i) => [0, [...i.slice(0, -1), condHolds(k, i) ? 0 : 1]]) };
}

function regSelectShape(c: GatherCtx): void {
  arity(c, 1, 'reg_select');
  const a = c.args[0]!;
  if (!sameShape(a.slice(0, -1), c.out.slice(0, -1)) || a[a.length - 1] !== 2) fail(c, `reg_select reads a last dimension of 2 into ${showShape(c.out)}, not from ${showShape(a)}`);
}

/** keep_if{cond, restrict}: the cell where the condition holds (or a restricted index differs), else 0. */
function keepIf(c: GatherCtx, k: Cond | 'all' | 'none', restrict: readonly number[]): Gather {
  const name = k === 'all' || k === 'none' ? spell(`keep_${k}`, restrict.length ? [['restrict', restrict]] : []) : spell('keep_if', [['cond', k], ...(restrict.length ? [['restrict', restrict] as const] : [])]);
  return {
    name,
    src: tableOf(c, (i) => {
      for (let r = 0; r + 1 < restrict.length; r += 2) if (i[restrict[r]!] !== restrict[r + 1]) return [0, i];
      const keep = k === 'all' ? true : k === 'none' ? false : condHolds(k, i);
      return keep ? [0, i] : 'zero';
    }),
  };
}

/** select{axis, cond}: along axis, the index of the first condition that holds, else their count. */
function select(c: GatherCtx, axis: number, ks: readonly Cond[]): Gather {
  return {
    name: spell('select', [['axis', axis], ['cond', ks.flat()]]),
    src: tableOf(c, (i) => {
      const p = i.slice();
      let j = 0;
      while (j < ks.length && !condHolds(ks[j]!, i)) j++;
      p[axis] = j;
      return [0, p];
    }),
  };
}

function selectShape(c: GatherCtx, axis: number): void {
  arity(c, 1, 'select');
  const a = c.args[0]!;
  const ok = a.length === c.out.length && a.every((d, i) => i === axis || d === c.out[i]);
  if (!ok || a[axis]! < 1) fail(c, `select along ${axis}: ${showShape(c.out)} must equal ${showShape(a)} except in dimension ${axis}`);
}

function generalSelect(c: GatherCtx): Gather[] {
  const axis = axisOpt(c, 'axis');
  selectShape(c, axis);
  const n = c.args[0]![axis]! - 1;
  const dims = listOpt(c, 'dims', c.out.map((_, i) => i));
  dims.forEach((d) => (d >= 0 && d < c.out.length) || fail(c, `dims: ${d} is not a dimension of ${showShape(c.out)}`));
  const ops = allConds(c, dims, c.out[axis]!);
  budget(c, ops.length ** n, 'general_select');
  const out: Gather[] = [];
  const pick = (chosen: Cond[]): void => {
    if (chosen.length === n) {
      out.push(select(c, axis, chosen));
      return;
    }
    for (const k of ops) if (!chosen.includes(k)) pick([...chosen, k]);
  };
  pick([]);
  return distinct(out);
}

// ---- HVX register operations (§5.1), on registers of n lanes, the rows of a [regs, n] array ------

// implements [SWZ-HVX]
/**
 * [SWZ-HVX] One new register appended to a register file: out = regs ++ [op(ra, rb)], where op is
 * valign (lanes s… of the pair rb:ra), vshuffe / vshuffo (the even / odd lanes of rb and ra
 * interleaved) or a move of ra.
 */
function hvxOp(c: GatherCtx, op: string, a: number, b: number, s: number): Gather {
  const [regs, n] = c.args[0]! as [number, number];
  const lane = (r: number, l: number): Read => [0, [r, l]];
  const read = (l: number): Read => {
    switch (op) {
      case 'valign': {
        const j = l + s;
        return j < n ? lane(b, j) : lane(a, j - n);
      }
      case 'vshuffe': return l % 2 === 0 ? lane(b, l) : lane(a, l - 1);
      case 'vshuffo': return l % 2 === 0 ? lane(b, l + 1) : lane(a, l);
      default: return lane(a, l);
    }
  };
  const params: [string, OptVal][] = op === 'vmov' ? [['a', a]] : op === 'valign' ? [['a', a], ['b', b], ['s', s]] : [['a', a], ['b', b]];
  return { name: spell(op, params), src: tableOf(c, (i) => (i[0]! < regs ? [0, i] : read(i[1]!))) };
}

function hvxShape(c: GatherCtx, what: string): void {
  arity(c, 1, what);
  const a = c.args[0]!;
  if (a.length !== 2 || c.out.length !== 2 || c.out[0] !== a[0]! + 1 || c.out[1] !== a[1]) fail(c, `${what} appends one register: [${a[0]} + 1, ${a[1]}] from ${showShape(a)}`);
}

function hvxRegs(c: GatherCtx): number[] {
  const regs = c.args[0]![0]!;
  const lim = Math.min(intOpt(c, 'in_lim', regs), regs);
  return Array.from({ length: lim }, (_, i) => i);
}

function hvxConcrete(op: string): (c: GatherCtx) => Gather[] {
  return (c) => {
    hvxShape(c, op);
    const regs = c.args[0]![0]!;
    const reg = (k: string): number => {
      const r = intOpt(c, k, 0);
      if (r < 0 || r >= regs) fail(c, `${op}: register ${k}=${r} is not one of 0…${regs - 1}`);
      return r;
    };
    const s = op === 'valign' ? intOpt(c, 's') : 0;
    if (s < 0 || s >= c.out[1]!) fail(c, `valign: shift s=${s} is not in 0…${c.out[1]! - 1}`);
    return [hvxOp(c, op, reg('a'), op === 'vmov' ? 0 : reg('b'), s)];
  };
}

function hvxAll(c: GatherCtx): Gather[] {
  hvxShape(c, 'hvx');
  const rs = hvxRegs(c);
  const n = c.out[1]!;
  const out: Gather[] = [];
  for (const a of rs) out.push(hvxOp(c, 'vmov', a, 0, 0));
  for (const a of rs) {
    for (const b of rs) {
      if (a === b) continue;
      for (let s = 1; s < n; s++) out.push(hvxOp(c, 'valign', a, b, s));
      out.push(hvxOp(c, 'vshuffe', a, b, 0));
      out.push(hvxOp(c, 'vshuffo', a, b, 0));
    }
  }
  return distinct(out);
}

// ---- the table of names ------------------------------------------------------------------------

const ROW: Axes = { main: 1, second: 0, out: 1 };
const COL: Axes = { main: 0, second: 1, out: 0 };

/** Gathers written without `?`: each names exactly one function. */
const CONCRETE: Readonly<Record<string, (c: GatherCtx) => Gather[]>> = {
  id: (c) => reshape(c, 'id'),
  reshape: (c) => reshape(c, 'reshape'),
  transpose,
  stack,
  broadcast,
  load_rep: (c) => load(c, true),
  load_trunc: (c) => load(c, false),
  load_grid_2d: loadGrid2d,
  rot_idx: rotIdx,
  xform: (c) => {
    const ax = axes(c);
    sameExceptOut(c, ax, 'xform');
    const g = intOpt(c, 'group', c.out[ax.main]);
    if (g < 1 || c.out[ax.main]! % g !== 0) fail(c, `group=${g} does not divide the main dimension (${c.out[ax.main]})`);
    const dr = intOpt(c, 'dr', 1);
    if (dr < 1) fail(c, 'dr must be at least 1');
    return [xform(c, ax, g, intOpt(c, 'cf', 0), intOpt(c, 'cr', 0), dr, intOpt(c, 'wrap', 0) ? 1 : 0)];
  },
  rot: (c) => {
    const ax = axes(c);
    sameExceptOut(c, ax, 'rot');
    const g = intOpt(c, 'group', c.out[ax.main]);
    if (g < 1 || c.out[ax.main]! % g !== 0) fail(c, `group=${g} does not divide the main dimension (${c.out[ax.main]})`);
    return [rot(c, ax, g, intOpt(c, 'shift', 0))];
  },
  first_if: (c) => {
    regSelectShape(c);
    const ks = condsOf(c);
    if (ks.length !== 1) fail(c, 'first_if takes one condition');
    return [firstIf(c, ks[0]!)];
  },
  keep_if: (c) => {
    arity(c, 1, 'keep_if');
    const ks = condsOf(c);
    if (ks.length !== 1) fail(c, 'keep_if takes one condition');
    return [keepIf(c, ks[0]!, listOpt(c, 'restrict', []))];
  },
  keep_all: (c) => [keepIf(c, 'all', listOpt(c, 'restrict', []))],
  keep_none: (c) => [keepIf(c, 'none', listOpt(c, 'restrict', []))],
  select: (c) => {
    const axis = axisOpt(c, 'axis');
    selectShape(c, axis);
    const ks = condsOf(c);
    if (ks.length !== c.args[0]![axis]! - 1) fail(c, `select along ${axis} needs ${c.args[0]![axis]! - 1} conditions, got ${ks.length}`);
    return [select(c, axis, ks)];
  },
  vmov: hvxConcrete('vmov'),
  valign: hvxConcrete('valign'),
  vshuffe: hvxConcrete('vshuffe'),
  vshuffo: hvxConcrete('vshuffo'),
};

/** Sets of gathers a hole `?name` may stand for. */
const SETS: Readonly<Record<string, (c: GatherCtx) => Gather[]>> = {
  xforms: (c) => xforms(c),
  rots: (c) => rots(c),
  row_xforms: (c) => xforms(c, ROW),
  col_xforms: (c) => xforms(c, COL),
  row_rots: (c) => rots(c, ROW),
  col_rots: (c) => rots(c, COL),
  reg_select: (c) => {
    regSelectShape(c);
    return distinct(allConds(c, c.out.map((_, i) => i), c.out[0]!).map((k) => firstIf(c, k)));
  },
  cond_keep: (c) => {
    arity(c, 1, 'cond_keep');
    if (!sameShape(c.args[0]!, c.out)) fail(c, `cond_keep keeps the shape: ${showShape(c.args[0]!)} is not ${showShape(c.out)}`);
    const restrict = listOpt(c, 'restrict', []);
    const free = c.out.map((_, i) => i).filter((d) => !restrict.some((r, j) => j % 2 === 0 && r === d));
    return distinct([keepIf(c, 'all', restrict), keepIf(c, 'none', restrict), ...allConds(c, free, c.out[0]!).map((k) => keepIf(c, k, restrict))]);
  },
  general_select: generalSelect,
  hvx: hvxAll,
  // A hole may also be a set written out: ?{g1, g2, …} is handled by the parser.
};

export function isGatherName(name: string): boolean {
  return Object.hasOwn(CONCRETE, name);
}

export function isSetName(name: string): boolean {
  return Object.hasOwn(SETS, name);
}

export const GATHER_NAMES = Object.keys(CONCRETE);
export const SET_NAMES = Object.keys(SETS);

export function buildGather(name: string, c: GatherCtx): Gather {
  const g = CONCRETE[name];
  if (!g) throw new UserError(`unknown gather '${name}'`, c.loc, `the gathers are: ${GATHER_NAMES.join(', ')}; holes (?name) are: ${SET_NAMES.join(', ')}`);
  return g(c)[0]!;
}

export function buildSet(name: string, c: GatherCtx): Gather[] {
  const s = SETS[name];
  if (!s) throw new UserError(`unknown set of gathers '?${name}'`, c.loc, `the sets are: ${SET_NAMES.join(', ')}`);
  return s(c);
}
