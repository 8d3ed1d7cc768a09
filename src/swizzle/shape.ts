// Shapes and indices of swizzle arrays (spec/swizzle.md, [SWZ-ARRAY]): row-major, the last
// dimension fastest, as the seed's nested literals are written.

// implements [SWZ-ARRAY]
export type Shape = readonly number[];

export function sizeOf(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** The flat index of a point, or -1 when the point lies outside the shape. */
export function flatIndex(idx: readonly number[], shape: Shape): number {
  let f = 0;
  for (let d = 0; d < shape.length; d++) {
    const v = idx[d]!;
    if (v < 0 || v >= shape[d]!) return -1;
    f = f * shape[d]! + v;
  }
  return f;
}

/** Calls f with every point of the shape in flat order; the array passed is reused. */
export function forEachIndex(shape: Shape, f: (idx: number[], flat: number) => void): void {
  const n = sizeOf(shape);
  const idx = shape.map(() => 0);
  for (let flat = 0; flat < n; flat++) {
    f(idx, flat);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
}

export function showShape(shape: Shape): string {
  return `[${shape.join(', ')}]`;
}

export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

export function floorMod(a: number, m: number): number {
  return ((a % m) + m) % m;
}

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
