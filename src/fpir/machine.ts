// Interpreting intrinsic calls from the table (spec/fpir.md, [FPIR-INTRINSIC]). A register is a
// bit string seen through a view (lanes of an element type); an intrinsic reinterprets each
// operand as its declared view, binds every result lane to operand lanes by its routing, and
// computes the lane with its scalar formula. The same routing, applied to tags instead of values
// (every byte knows which source lanes it came from), is the tag evaluation of [FPIR-TAGS].
import { UserError } from '../diag.js';
import type { FExpr } from './ast.js';
import { type LaneFn, compileLane } from './eval.js';
import { type Intrinsic, INTRINSICS, type RegType, regBits } from './intrinsics.js';
import { parseFpir } from './parse.js';
import { typeName, wrap } from './types.js';

const INTRINSIC = 'FPIR-INTRINSIC';
const TAGS = 'FPIR-TAGS';

export interface Reg {
  readonly type: RegType;
  readonly lanes: readonly bigint[];
}

export const showReg = (t: RegType): string => `${typeName(t.elem)}x${t.lanes}`;

/** The same bits seen as `to` (little-endian lanes, as on both x86 and Arm). */
export function reinterpret(r: Reg, to: RegType): Reg {
  if (r.type.elem.bits === to.elem.bits && r.type.lanes === to.lanes) return r.type.elem.signed === to.elem.signed ? r : { type: to, lanes: r.lanes.map((v) => wrap(v, to.elem)) };
  if (regBits(r.type) !== regBits(to)) throw new UserError(`[${INTRINSIC}] a ${regBits(r.type)}-bit ${showReg(r.type)} cannot be read as ${showReg(to)} (${regBits(to)} bits)`);
  let bits = 0n;
  r.lanes.forEach((v, i) => (bits |= BigInt.asUintN(r.type.elem.bits, v) << BigInt(i * r.type.elem.bits)));
  const w = BigInt(to.elem.bits);
  return { type: to, lanes: Array.from({ length: to.lanes }, (_, i) => wrap(bits >> (BigInt(i) * w), to.elem)) };
}

/**
 * Where result lane i of `e` reads: [operand, lane] pairs (every operand for lane-wise entries).
 * `index` gives the index operand's lanes of a `permutevar` entry; without it, such an entry reads
 * every lane it may (what tags need).
 */
export function sources(e: Intrinsic, i: number, imm: number | undefined, index?: (lane: number) => bigint): readonly (readonly [number, number])[] {
  const n = e.result.lanes;
  switch (e.routing.k) {
    case 'blend':
      return [[((imm ?? 0) >> i) & 1, i]];
    case 'align': {
      const j = i + (imm ?? 0);
      return [j < n ? [1, j] : [0, j - n]];
    }
    case 'permutevar': {
      const data = 1 - e.routing.index;
      if (index) return [[data, Number(BigInt.asUintN(32, index(i)) % BigInt(e.args[data]!.lanes))]];
      return [...Array.from({ length: e.args[data]!.lanes }, (_, l) => [data, l] as const), [e.routing.index, i]];
    }
    case 'lanewise':
      return e.args.map((_, k) => [k, i] as const);
    case 'pack': {
      const perBlock = 128 / e.result.elem.bits; // result lanes per 128-bit block
      const half = perBlock / 2;
      const block = Math.floor(i / perBlock);
      const j = i % perBlock;
      return [[j < half ? 0 : 1, block * half + (j % half)]];
    }
    case 'permute64': {
      const per = 64 / e.result.elem.bits;
      const qw = Math.floor(i / per);
      return [[0, (((imm ?? 0) >> (2 * qw)) & 3) * per + (i % per)]];
    }
    case 'half':
      return [[0, (e.routing.part ?? imm ?? 0) * n + i]];
    case 'concat':
      return [[Math.floor(i / e.args[0]!.lanes), i % e.args[0]!.lanes]];
    case 'pairs':
      return [[0, 2 * i], [1, 2 * i], [0, 2 * i + 1], [1, 2 * i + 1]];
    case 'quads':
      return [[0, i], ...[0, 1, 2, 3].flatMap((k) => [[1, 4 * i + k], [2, 4 * i + k]] as const)];
    case 'count':
      return [[0, i], [1, 0]];
    case 'hpairs': {
      const perBlock = 128 / e.result.elem.bits;
      const block = Math.floor(i / perBlock);
      const j = i % perBlock;
      const op = j < perBlock / 2 ? 0 : 1;
      const at = block * perBlock + 2 * (j % (perBlock / 2));
      return [[op, at], [op, at + 1]];
    }
    case 'unpack': {
      const perBlock = 128 / e.result.elem.bits;
      const block = Math.floor(i / perBlock);
      const j = i % perBlock;
      return [[j % 2, block * perBlock + (e.routing.high ? perBlock / 2 : 0) + Math.floor(j / 2)]];
    }
  }
}

const formulas = new Map<string, FExpr>();
/** An entry's lane formula, parsed once (its text is data of the table). */
export function laneFormula(e: Intrinsic): FExpr {
  let f = formulas.get(e.name);
  if (!f) formulas.set(e.name, (f = parseFpir(e.lane, `${e.name} (lane formula)`)));
  return f;
}

/** Operands a, b, c, d … i take slots 0–2 and 4–9 of a lane row, the immediate n slot 3. */
const SLOT: Readonly<Record<string, number>> = { a: 0, b: 1, c: 2, n: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9 };
/** The slot of a lane's k-th source. */
const SOURCE_SLOT = [0, 1, 2, 4, 5, 6, 7, 8, 9];
const compiled = new WeakMap<Intrinsic, LaneFn>();
const laneFn = (e: Intrinsic): LaneFn => {
  let f = compiled.get(e);
  if (!f) compiled.set(e, (f = compileLane(laneFormula(e), (name) => SLOT[name[0]!]!)));
  return f;
};

function checkImm(e: Intrinsic, imm: number | undefined): void {
  if (e.imm && (imm === undefined || imm < e.imm[0] || imm > e.imm[1])) throw new UserError(`[${INTRINSIC}] ${e.name} needs an immediate in [${e.imm[0]}, ${e.imm[1]}], got ${imm ?? 'none'}`);
  if (!e.imm && imm !== undefined) throw new UserError(`[${INTRINSIC}] ${e.name} takes no immediate`);
}

/** One call of an intrinsic on register values. */
export function applyIntrinsic(e: Intrinsic, args: readonly Reg[], imm?: number): Reg {
  if (args.length !== e.args.length) throw new UserError(`[${INTRINSIC}] ${e.name} takes ${e.args.length} operands, got ${args.length}`);
  checkImm(e, imm);
  const views = args.map((a, k) => reinterpret(a, e.args[k]!));
  const f = laneFn(e);
  const lanes: bigint[] = [];
  const row: bigint[] = [0n, 0n, 0n, BigInt(imm ?? 0), 0n, 0n, 0n, 0n, 0n, 0n];
  for (let i = 0; i < e.result.lanes; i++) {
    const r = e.routing;
    const src = sources(e, i, imm, r.k === 'permutevar' ? (l) => views[r.index]!.lanes[l]! : undefined);
    // Routed entries compute on the one source lane, called `a` in their formula.
    for (let k = 0; k < src.length; k++) row[SOURCE_SLOT[k]!] = views[src[k]![0]]!.lanes[src[k]![1]]!;
    lanes.push(f(row));
  }
  return { type: e.result, lanes };
}

/** A register of tags: each byte holds the source lanes (`var:lane`) its value depends on. */
export interface TagReg {
  readonly bits: number;
  readonly bytes: readonly ReadonlySet<string>[];
}

/** The routing of one call applied to tags: a result lane depends on its source lanes. */
export function routeTags(e: Intrinsic, args: readonly TagReg[], imm?: number): TagReg {
  checkImm(e, imm);
  args.forEach((a, k) => {
    if (a.bits !== regBits(e.args[k]!)) throw new UserError(`[${TAGS}] ${e.name} operand ${k + 1} has ${a.bits} bits, expected ${regBits(e.args[k]!)}`);
  });
  const laneTags = (k: number, lane: number): string[] => {
    const w = e.args[k]!.elem.bits / 8;
    return args[k]!.bytes.slice(lane * w, lane * w + w).flatMap((s) => [...s]);
  };
  const w = e.result.elem.bits / 8;
  const bytes: Set<string>[] = [];
  for (let i = 0; i < e.result.lanes; i++) {
    const s = new Set(sources(e, i, imm).flatMap(([k, lane]) => laneTags(k, lane)));
    for (let b = 0; b < w; b++) bytes.push(s);
  }
  return { bits: regBits(e.result), bytes };
}

/** The entry named `name`; unknown names are reported with the supported list. */
export function intrinsicNamed(name: string): Intrinsic {
  const e = INTRINSICS.find((x) => x.name === name);
  if (!e) throw new UserError(`[${INTRINSIC}] unknown intrinsic '${name}'`, undefined, `the table has: ${INTRINSICS.map((x) => x.name).join(', ')}`);
  return e;
}

