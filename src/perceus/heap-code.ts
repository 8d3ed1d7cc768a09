// A λ1 program compiled for the heap machine (heap-machine.ts): heap cells and their states, and
// the nodes of compiled code, whose slots index an activation's environment. Substitution
// e[x := z] of the heap semantics (fig. 4.7, as reconstructed in spec/perceus.md, "The heap machine") becomes
// writing a slot.
import type { Loc } from '../diag.js';
import type { Int } from '../expr/value.js';
import type { ConInfo, Expr } from './syntax.js';

/** A heap cell: a constructor `C y1 … yk` or a closure `λ^ys x. e` (its fields are ys). */
export class Cell {
  constructor(
    /** n ≥ 1 for a live entry; FREED, STATIC or RESERVED otherwise. */
    public rc: number,
    public con: ConInfo | null,
    public fields: RV[],
    public lam: LamCode | null,
    public id: number,
  ) {}
}
export type RV = Int | Cell;

export const FREED = 0;
export const STATIC = -1;
export const RESERVED = -2;

/** The null reuse token of §4.2.4: C@ru with it allocates fresh. */
export const NULL_TOKEN = new Cell(STATIC, null, [], null, 0);

/** The kinds of compiled node (a plain object, not an enum, so that every bundler inlines it alike). */
export const Op = { ATOM: 0, CON: 1, LAM: 2, APP: 3, CALL: 4, PRIM: 5, VAL: 6, MATCH: 7, IF: 8, DUP: 9, DROP: 10, DROPREUSE: 11, DROPSPEC: 12 } as const;
export type Op = (typeof Op)[keyof typeof Op];

/** A compiled expression node; slots index the activation's environment. */
export class Code {
  slot = -1;
  token = -1;
  /** Atom arguments: a slot, or -1 with the value in `consts`. */
  aslots: number[] = [];
  consts: RV[] = [];
  next: Code | null = null;
  bound: Code | null = null;
  kids: Code[] = [];
  binders: number[][] = [];
  con: ConInfo | null = null;
  type = '';
  lam: LamCode | null = null;
  fun: FunCode | null = null;
  prim: ((...a: Int[]) => Int) | null = null;
  /** DROPSPEC: slot·2 + (1 for drop, 0 for dup). */
  unique: number[] = [];
  shared: number[] = [];
  keep: boolean[] | null = null;
  formal = false;
  simple = false;
  /** DUP/DROP: the name, for traces (the node may stand for a run-time inserted instruction). */
  name = '';
  /** Static facts the checks need: consumed slots with multiplicity, fv, fv of the erasure. */
  own: Map<number, number> = new Map();
  fv: Set<number> = new Set();
  fvErased: Set<number> = new Set();
  constructor(
    readonly op: Op,
    readonly src: Expr,
  ) {}
}

export interface LamCode {
  readonly src: Extract<Expr, { k: 'lam' }>;
  nslots: number;
  body: Code;
  /** Creator-environment slots of the captured variables ys, in order. */
  capSlots: number[];
  paramSlot: number;
}

export interface FunCode {
  readonly name: string;
  nslots: number;
  body: Code | null;
  readonly nparams: number;
  readonly loc?: Loc;
}

export interface Compiled {
  readonly main: FunCode;
  readonly funs: ReadonlyMap<string, FunCode>;
  /** Static cells for the nullary constructors (unboxed, never counted). */
  readonly nullary: ReadonlyMap<string, Cell>;
}

/** Names a cell for messages: `#id` plus its shape. */
export function showCell(c: Cell): string {
  const shape = c.con ? c.con.name : 'closure';
  const state = c.rc === FREED ? 'freed' : c.rc === RESERVED ? 'reserved' : `rc=${c.rc}`;
  return `#${c.id} ${shape} (${state})`;
}
