// The batch header (feature macros, system headers and the runtime) compiled once per thread and
// flag set into a GCC precompiled header: this module implements [C-PCH] (spec/codegen.md). Most of a small vectorized
// program's compile time is immintrin.h, so this is what makes campaigns with `--backend simd`
// fast (§5.2 on build integration). GCC picks up `h.h.gch` next to an included `h.h` when the
// flags match and reads the header's text otherwise; a compiler without precompiled headers (or
// a failed precompile) therefore only loses time, never correctness.
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

let dir: string | undefined;
const built = new Map<string, Promise<string>>();
const seen = new Map<string, number>();

/**
 * Compiles with the header written inline before it is precompiled: building the precompiled
 * form costs about three ordinary compiles, which pays off in campaigns (one compile per check)
 * but not for a single batch (one compile per core).
 */
const INLINE_COMPILES = 2;

/** Directories of processes that are gone (a killed run cannot remove its own). */
function sweepStale(): void {
  for (const name of readdirSync(tmpdir())) {
    const m = /^refsem-pch-(\d+)-\d+-/.exec(name);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

function cacheDir(): string {
  if (dir) return dir;
  sweepStale();
  const d = mkdtempSync(join(tmpdir(), `refsem-pch-${process.pid}-${threadId}-`));
  process.on('exit', () => rmSync(d, { recursive: true, force: true }));
  return (dir = d);
}

/**
 * The path of `text` as a header, precompiled with `compileHeader(src, out)` (which runs the
 * compiler with the batch's flags) when that works; undefined for the first compiles of a
 * (flags, text) pair, which write the header inline. One build per pair and thread.
 */
export async function precompiledHeader(flagsKey: string, text: string, compileHeader: (src: string, out: string) => Promise<boolean>): Promise<string | undefined> {
  const key = createHash('sha256').update(flagsKey).update('\0').update(text).digest('hex').slice(0, 16);
  const n = seen.get(key) ?? 0;
  if (n < INLINE_COMPILES) {
    seen.set(key, n + 1);
    return undefined;
  }
  let p = built.get(key);
  if (!p) {
    p = (async () => {
      const h = join(cacheDir(), `refsem-${key}.h`);
      writeFileSync(h, text);
      // Written under another name and renamed, so a compile never sees half a precompiled header.
      if (await compileHeader(h, `${h}.gch.tmp`)) renameSync(`${h}.gch.tmp`, `${h}.gch`);
      else rmSync(`${h}.gch.tmp`, { force: true });
      return h;
    })();
    built.set(key, p);
  }
  return p;
}
