// What a report shows: plain data, computed by the flow of a program (algorithm → T0 … Tn →
// bounds → outcome) and rendered by `html.ts`, in a file (`refsem html`) or in the playground.
// Everything is already printed text or numbers, so the renderer needs no part of the semantics.
import type { IterationSpace } from './iteration-space.js';
import type { HeapGraph } from './heap-graph.js';
import type { LoopTree } from './loop-tree.js';
import type { TreeChange } from './tree-diff.js';

/** A rule ID; the page shows the rule's own text from the spec beside it (html.ts). */
export interface RuleRef {
  readonly id: string;
}

/** One program of the schedule's sequence: T0 is the lowered program, Ti follows directive i. */
export interface ProgramStep {
  readonly label: string;
  /** the directive as written, for T1 … Tn */
  readonly directive?: string;
  readonly rule?: RuleRef;
  readonly text: string;
  /** the program's loop nest */
  readonly tree?: LoopTree;
  /** for T1 … Tn, what the directive changed in the loop nest of the program before it */
  readonly changes?: readonly TreeChange[];
}

/** One node of a big-step derivation (fig. 2.6). */
export interface DerivationNode {
  readonly rule: RuleRef;
  readonly text: string;
  readonly children: readonly DerivationNode[];
}

/** One step of a machine (fig. 2.8, or the heap machine of ch. 4). */
export interface MachineStep {
  readonly rule: RuleRef;
  readonly text: string;
  /** for the heap machine, the heap after the step: an index into the report's `perceus.graphs` */
  readonly heap?: number;
  /** for the Halide machine, the memory the step touched ([REPORT-MEMORY]) */
  readonly mem?: StepMem;
  /** for the Halide machine, the line (from 0) of the machine's `program` the step works in */
  readonly line?: number;
}

/**
 * A step's effect on the store: the cell read or written (its coordinates and value, printed), or
 * the buffer allocated (its [min, len] per dimension, printed).
 */
export interface StepMem {
  readonly kind: 'read' | 'write' | 'alloc';
  readonly func: string;
  readonly at: readonly string[];
  readonly value?: string;
}

export interface OutputTable {
  readonly func: string;
  /** [min, len] per dimension; one or two dimensions are drawn as a grid, more as a list */
  readonly window: readonly (readonly [number, number])[];
  /** printed values in window order, first dimension fastest */
  readonly values: readonly string[];
}

export interface ReportModel {
  readonly title: string;
  /** located messages when the program or schedule is wrong: the report shows them instead of a blank page */
  readonly errors: readonly string[];
  readonly notes: readonly string[];
  /** the target against the algorithm on the window (def. 2.2/2.3): `equal` is success, anything else is not */
  readonly verdict?: { readonly kind: 'equal' | 'differs' | 'vacuous'; readonly text: string };
  readonly source?: { readonly file: string; readonly text: string };
  /** the algorithm's funcs: their names in the source are linked to the views of them ([REPORT-LINKS]) */
  readonly funcs?: readonly string[];
  readonly programs: readonly ProgramStep[];
  /**
   * The stages after T0 … Tn — bounds, the run of Tn with its verdict and picture, the machine —
   * are left to a later build (a request with `bounds: 'kept'` whose cache did not hold them)
   */
  readonly later?: true;
  readonly bounds?: {
    readonly holes: readonly string[];
    readonly query: string;
    readonly engine: string;
    readonly completion: readonly string[];
    readonly failure?: string;
  };
  readonly output?: OutputTable;
  /** which loop iteration wrote each output point, and what each tile computed of each producer */
  readonly space?: IterationSpace;
  /** the picture of each of T0 … Tn when asked for ([REPORT-SPACE-EACH]); `error` says why one has none */
  readonly pictures?: readonly { readonly label: string; readonly space?: IterationSpace; readonly error?: string }[];
  readonly machine?: {
    readonly window: string;
    /** the completed program the machine runs, printed; steps name their line of it */
    readonly program: string;
    readonly steps: readonly MachineStep[];
    readonly outcome: string;
    readonly truncated: boolean;
  };
  readonly derivation?: {
    readonly point: string;
    readonly tree: DerivationNode;
    /** more than `nodes` nodes: the tree is cut */
    readonly truncated: boolean;
    readonly nodes: number;
    /** set when the whole derivation exceeded `budget` steps and this one was derived to this depth only */
    readonly depth?: number;
    readonly budget: number;
  };
  readonly perceus?: {
    readonly translated: string;
    readonly steps: readonly MachineStep[];
    readonly result: string;
    readonly truncated: boolean;
    /** the heap as a graph at one step: the one asked for, else the first at which the heap is largest */
    readonly heap?: HeapGraph;
    /** the distinct heaps of the run, each once; a step names its own by index */
    readonly graphs: readonly Omit<HeapGraph, 'step'>[];
  };
}

/** A rule's own text, shown beside its ID: its heading and its section of the spec, as written there. */
export interface RuleText {
  readonly id: string;
  readonly heading: string;
  /** `spec/<chapter>.md` */
  readonly chapter: string;
  readonly text: string;
}
