// The viability tests that prune the search (spec/swizzle.md; the seed's §3–4): reachability
// between pairs of locations (Algorithm 3, [SWZ-PAIRS]), computed backwards from the goal by
// statement matrices ([SWZ-MATRIX]), and lower bounds on copy counts (Algorithm 4, [SWZ-COPIES]).
import { type Loc, UserError } from '../diag.js';
import type { SwzProgram } from './ast.js';
import { printSwizzle } from './print.js';
import { sizeOf } from './shape.js';

/** Where each array lives at a program point: the arrays live after statement p, laid end to end. */
export interface Layout {
  readonly vars: readonly number[];
  readonly offset: ReadonlyMap<number, number>;
  readonly size: number;
  /** the row stride of a pair matrix: size rounded up to 32 bits, so each first location's row starts a word */
  readonly stride: number;
}

export function layouts(p: SwzProgram): Layout[] {
  const n = p.stmts.length;
  const lastUse = p.stmts.map(() => -1);
  p.stmts.forEach((s, i) => {
    if (s.rhs.k === 'gather') for (const a of s.rhs.args) lastUse[a] = i;
    if (s.rhs.k === 'fold') lastUse[s.rhs.arg] = i;
  });
  lastUse[n - 1] = n;
  const out: Layout[] = [];
  for (let q = 0; q < n; q++) {
    const vars: number[] = [];
    const offset = new Map<number, number>();
    let size = 0;
    for (let k = 0; k <= q; k++) {
      if (lastUse[k]! > q) {
        vars.push(k);
        offset.set(k, size);
        size += sizeOf(p.stmts[k]!.shape);
      }
    }
    out.push({ vars, offset, size, stride: Math.ceil(size / 32) * 32 });
  }
  return out;
}

/** Structure shared by every statement matrix of one hole: how its choices partition the sources of each cell. */
interface Partitions {
  /** per output cell: its partition's id */
  readonly partOf: Int32Array;
  /** per output cell: per class of its partition, the source cell (concatenated arguments), or −1 */
  readonly classSrc: readonly Int32Array[];
  /** per partition: the class of each choice */
  readonly classOf: readonly Int32Array[];
  /** per pair of partitions (a·P + b): the pairs of classes some one choice realizes, flattened */
  readonly pairs: Map<number, Int32Array>;
}

/** Partitions of a gather set, cached by the set's tables so that repeated holes (and runs) share them. */
const PARTITION_CACHE = new Map<string, Partitions>();

function partitionsOf(key: string, choices: readonly { src: Int32Array }[], cells: number): Partitions {
  const known = PARTITION_CACHE.get(key);
  if (known) return known;
  const partOf = new Int32Array(cells);
  const classSrc: Int32Array[] = [];
  const classOf: Int32Array[] = [];
  const ids = new Map<string, number>();
  const h = choices.length;
  const cls = new Int32Array(h);
  for (let c = 0; c < cells; c++) {
    const firstOf = new Map<number, number>();
    const srcs: number[] = [];
    for (let f = 0; f < h; f++) {
      const s = choices[f]!.src[c]!;
      const v = s >= 0 ? s : -1;
      let k = firstOf.get(v);
      if (k === undefined) {
        k = srcs.length;
        firstOf.set(v, k);
        srcs.push(v);
      }
      cls[f] = k;
    }
    const sig = String(cls);
    let id = ids.get(sig);
    if (id === undefined) {
      id = classOf.length;
      ids.set(sig, id);
      classOf.push(Int32Array.from(cls));
    }
    partOf[c] = id;
    classSrc.push(Int32Array.from(srcs));
  }
  const out = { partOf, classSrc, classOf, pairs: new Map<number, Int32Array>() };
  if (PARTITION_CACHE.size > 64) PARTITION_CACHE.clear();
  PARTITION_CACHE.set(key, out);
  return out;
}

function classPairs(P: Partitions, a: number, b: number): Int32Array {
  const key = a * P.classOf.length + b;
  const known = P.pairs.get(key);
  if (known) return known;
  const ca = P.classOf[a]!;
  const cb = P.classOf[b]!;
  const seen = new Set<number>();
  const out: number[] = [];
  for (let f = 0; f < ca.length; f++) {
    const k = ca[f]! * 65536 + cb[f]!;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(ca[f]!, cb[f]!);
    }
  }
  const arr = Int32Array.from(out);
  P.pairs.set(key, arr);
  return arr;
}

export interface Reach {
  /** per program point q: rows (goal pair i·G + j) of bitsets over pairs of live locations, or undefined when not needed */
  readonly rows: (Uint32Array | undefined)[];
  readonly words: number[];
  readonly bytes: number;
}

/**
 * Where matrices computed by an earlier run can be found and kept ([SWZ-MATRIX], Decision on the
 * cache): `key` is the whole program's text and the first hole, so a hit is a program with the
 * same statements, choices and goal. The store decides where (the command line keeps them on disk).
 */
export interface MatrixStore {
  get(key: string): Reach | undefined;
  put(key: string, reach: Reach): void;
}

/** A bound on the memory the matrices may take; beyond it synthesis stops with a message. */
export const DEFAULT_MEMORY_MB = 3072;

// implements [SWZ-MATRIX]
/**
 * [SWZ-MATRIX] The reachability matrices R(q): which pairs of live locations after statement q
 * can reach which pairs of goal cells, multiplied back from the goal (where R is the identity)
 * through each statement's matrix. A hole moves both locations of a pair with the same gather
 * (the precision of §3.2); a fold lets a cell come from any cell of its row (Figure 7); a literal
 * comes from nowhere; an array untouched by the statement keeps its locations.
 */
export function reachability(p: SwzProgram, lay: readonly Layout[], from: number, memoryMb: number, loc: Loc, store?: MatrixStore): Reach {
  const n = p.stmts.length;
  const G = sizeOf(p.stmts[n - 1]!.shape);
  const rowsN = G * G;
  const words = lay.map((l) => (l.size * l.stride) / 32);
  let bytes = 0;
  for (let q = from; q < n; q++) bytes += rowsN * words[q]! * 4;
  if (bytes > memoryMb * 1024 * 1024) {
    throw new UserError(`the reachability matrices need ${Math.ceil(bytes / 1048576)} MB, above the limit of ${memoryMb} MB`, loc, 'raise --memory, or make the arrays smaller (the seed hit the same wall at 32×11, §5.2)');
  }
  const key = store ? `${printSwizzle(p)}\n@${from}` : '';
  const known = store?.get(key);
  if (known && sameShape(known, words, from, rowsN)) return known;
  const rows: (Uint32Array | undefined)[] = lay.map(() => undefined);
  const last = lay[n - 1]!;
  const id = new Uint32Array(rowsN * words[n - 1]!);
  for (let i = 0; i < G; i++) {
    for (let j = 0; j < G; j++) {
      const bit = i * last.stride + j;
      id[(i * G + j) * words[n - 1]! + (bit >>> 5)]! |= 1 << (bit & 31);
    }
  }
  rows[n - 1] = id;
  for (let q = n - 1; q > from; q--) rows[q - 1] = stepBack(p, lay, q, rows[q]!, words[q]!, words[q - 1]!, rowsN);
  const reach = { rows, words, bytes };
  store?.put(key, reach);
  return reach;
}

/** A stored entry is used only if every matrix has the size this program needs (a damaged or foreign entry is a miss). */
function sameShape(r: Reach, words: readonly number[], from: number, rowsN: number): boolean {
  return r.words.length === words.length && words.every((w, q) => r.words[q] === w && (q < from || r.rows[q]?.length === rowsN * w));
}

/** R(q−1) from R(q) through statement q. */
function stepBack(p: SwzProgram, lay: readonly Layout[], q: number, R: Uint32Array, W: number, W0: number, rowsN: number): Uint32Array {
  const after = lay[q]!;
  const before = lay[q - 1]!;
  const s = p.stmts[q]!;
  const vOff = after.offset.get(q)!;
  const vCells = sizeOf(s.shape);
  // the location before q of each live location after q that q does not define
  const pass = new Int32Array(after.size).fill(-1);
  for (const k of after.vars) {
    if (k === q) continue;
    const o = after.offset.get(k)!;
    const o0 = before.offset.get(k)!;
    for (let c = 0; c < sizeOf(p.stmts[k]!.shape); c++) pass[o + c] = o0 + c;
  }
  // sources before q of each cell of q's array, as locations before q
  let concatLoc = new Int32Array(0);
  let P: Partitions | undefined;
  let foldK = 0;
  let foldBase = 0;
  const rhs = s.rhs;
  if (rhs.k === 'gather') {
    const total = rhs.args.reduce((m, a) => m + sizeOf(p.stmts[a]!.shape), 0);
    concatLoc = new Int32Array(total);
    let o = 0;
    for (const a of rhs.args) {
      const base = before.offset.get(a)!;
      for (let c = 0; c < sizeOf(p.stmts[a]!.shape); c++) concatLoc[o++] = base + c;
    }
    const key = `${rhs.fn}|${[...rhs.opts].join(';')}|${rhs.args.map((a) => p.stmts[a]!.shape.join('x')).join(',')}|${s.shape.join('x')}|${rhs.choices.length}|${rhs.choices[0]!.name}`;
    P = partitionsOf(key, rhs.choices, vCells);
  } else if (rhs.k === 'fold') {
    foldK = sizeOf(p.stmts[rhs.arg]!.shape) / vCells;
    foldBase = before.offset.get(rhs.arg)!;
  }
  /** the distinct sources of cell c of q's array, over every choice */
  const sourcesOf = (c: number): Int32Array => {
    if (rhs.k === 'fold') return Int32Array.from({ length: foldK }, (_, t) => foldBase + c * foldK + t);
    if (rhs.k === 'lit') return new Int32Array(0);
    return Int32Array.from([...P!.classSrc[c]!].filter((x) => x >= 0).map((x) => concatLoc[x]!));
  };
  const srcCache: (Int32Array | undefined)[] = [];
  const sources = (c: number): Int32Array => (srcCache[c] ??= sourcesOf(c));

  const out = new Uint32Array(rowsN * W0);
  const stride = after.stride;
  const stride0 = before.stride;
  // The matrix row of a pair (x, y) after q, as pairs before q: cached per pair, since many goal
  // pairs reach the same pair of locations; a dense row is kept as a bitset and OR-ed word by word
  // (the sparse/dense split that made the seed's products fast, §3.3).
  const lists: (Int32Array | undefined)[] = new Array(after.size * stride);
  const dense: (Uint32Array | undefined)[] = new Array(after.size * stride);
  const mrow = (x: number, y: number): Int32Array => {
    const xin = x >= vOff && x < vOff + vCells;
    const yin = y >= vOff && y < vOff + vCells;
    const res: number[] = [];
    if (!xin && !yin) res.push(pass[x]! * stride0 + pass[y]!);
    else if (xin && !yin) for (const a of sources(x - vOff)) res.push(a * stride0 + pass[y]!);
    else if (!xin && yin) for (const b of sources(y - vOff)) res.push(pass[x]! * stride0 + b);
    else if (rhs.k === 'fold') for (const a of sources(x - vOff)) for (const b of sources(y - vOff)) res.push(a * stride0 + b);
    else if (rhs.k === 'gather') {
      const cx = x - vOff;
      const cy = y - vOff;
      const cp = classPairs(P!, P!.partOf[cx]!, P!.partOf[cy]!);
      const sx = P!.classSrc[cx]!;
      const sy = P!.classSrc[cy]!;
      for (let t = 0; t < cp.length; t += 2) {
        const a = sx[cp[t]!]!;
        const b = sy[cp[t + 1]!]!;
        if (a >= 0 && b >= 0) res.push(concatLoc[a]! * stride0 + concatLoc[b]!);
      }
    }
    return Int32Array.from(res);
  };
  // Goal pairs often share a row (once swizzles mix every location, many reach alike): each
  // distinct row is multiplied once.
  const seen = new Map<string, number>();
  for (let r = 0; r < rowsN; r++) {
    const src = r * W;
    const dst = r * W0;
    const key = rowKey(R, src, W);
    const same = seen.get(key);
    if (same !== undefined && rowsEqual(R, same * W, src, W)) {
      out.copyWithin(dst, same * W0, same * W0 + W0);
      continue;
    }
    seen.set(key, r);
    for (let w = 0; w < W; w++) {
      let bits = R[src + w]!;
      while (bits) {
        const low = bits & -bits;
        const bit = (w << 5) + (31 - Math.clz32(low));
        bits ^= low;
        const d = dense[bit];
        if (d) {
          for (let k = 0; k < W0; k++) out[dst + k]! |= d[k]!;
          continue;
        }
        let m = lists[bit];
        if (!m) {
          const x = Math.floor(bit / stride);
          m = mrow(x, bit - x * stride);
          if (m.length * 4 > W0) {
            const b = new Uint32Array(W0);
            for (const e of m) b[e >>> 5]! |= 1 << (e & 31);
            dense[bit] = b;
            for (let k = 0; k < W0; k++) out[dst + k]! |= b[k]!;
            continue;
          }
          lists[bit] = m;
        }
        for (let t = 0; t < m.length; t++) {
          const b = m[t]!;
          out[dst + (b >>> 5)]! |= 1 << (b & 31);
        }
      }
    }
  }
  return out;
}

function rowKey(R: Uint32Array, at: number, W: number): string {
  let h1 = 0x811c9dc5;
  let h2 = 0;
  for (let w = 0; w < W; w++) {
    const v = R[at + w]!;
    h1 = Math.imul(h1 ^ v, 0x01000193);
    h2 = (h2 + Math.imul(v, w + 1)) | 0;
  }
  return `${h1}:${h2}`;
}

function rowsEqual(R: Uint32Array, a: number, b: number, W: number): boolean {
  for (let w = 0; w < W; w++) if (R[a + w] !== R[b + w]) return false;
  return true;
}
