// The examples the playground opens with, read from the repository's examples/ at build time.
import blur from '../examples/blur.alg?raw';
import blurSched from '../examples/blur.sched?raw';
import harris from '../examples/harris.alg?raw';
import harrisHalide from '../examples/harris.halide?raw';
import harrisSched from '../examples/harris.sched?raw';
import histogram from '../examples/histogram.alg?raw';
import map from '../examples/perceus/map.lam?raw';
import rbtree from '../examples/perceus/rbtree.lam?raw';
import prefixSum from '../examples/prefix_sum.alg?raw';
import sec22 from '../examples/sec22.alg?raw';
import swap from '../examples/swap.alg?raw';
import sec22Sched from '../examples/sec22.sched?raw';
import swapRace from '../examples/tour/swap.race.sched?raw';

export interface Example {
  readonly id: string;
  readonly title: string;
  readonly kind: 'algorithm' | 'lambda';
  readonly source: string;
  readonly schedule?: string;
  /** the schedule's syntax: refsem's `.sched` (default) or Halide-style `.halide` */
  readonly syntax?: 'sched' | 'halide';
  readonly window?: string;
  readonly params?: string;
}

export const EXAMPLES: readonly Example[] = [
  { id: 'sec22', title: '§2.2: f(x) = g(x) + g(x + 1), tiled', kind: 'algorithm', source: sec22, schedule: sec22Sched, window: '0+6' },
  { id: 'blur', title: 'Blur, tiled and vectorized', kind: 'algorithm', source: blur, schedule: blurSched, window: '0+64,0+64' },
  { id: 'histogram', title: 'Histogram', kind: 'algorithm', source: histogram, window: '0+8' },
  { id: 'prefix_sum', title: 'Prefix sum (a scan)', kind: 'algorithm', source: prefixSum, window: '0+8', params: 'n=8' },
  { id: 'harris', title: 'Harris-like corner detector', kind: 'algorithm', source: harris, schedule: harrisSched, window: '0+8,0+8' },
  { id: 'harris-halide', title: 'Harris, scheduled Halide-style (.halide)', kind: 'algorithm', source: harris, schedule: harrisHalide, syntax: 'halide', window: '0+16,0+8' },
  { id: 'refused', title: 'A refused schedule: acc computed in a parallel loop, stored outside it', kind: 'algorithm', source: swap, schedule: swapRace, window: '0+5' },
  { id: 'map', title: 'Perceus: map over a list', kind: 'lambda', source: map },
  { id: 'rbtree', title: 'Perceus: red-black tree insertion', kind: 'lambda', source: rbtree },
];
