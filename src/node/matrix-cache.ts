// Reachability matrices of swizzle synthesis kept on disk between runs (spec/swizzle.md,
// [SWZ-MATRIX]): the seed keeps them across runs too (§3.3), since for the large benchmarks they
// cost more than the search. An entry is one file named by the SHA-256 of its key; the key itself
// is stored in the file and compared on reading, so a hash collision or a damaged file is a miss,
// never a wrong matrix. Writing goes through a temporary file and a rename, so a run ended half-way
// leaves no partial entry.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { MatrixStore, Reach } from '../swizzle/viability.js';

/** Entries larger than this are not written: a cache that fills the disk is worse than none. */
export const MAX_ENTRY_MB = 256;

const FORMAT = 'refsem-swizzle-matrices 1';

/** The default folder: $REFSEM_CACHE_DIR, else $XDG_CACHE_HOME/refsem, else ~/.cache/refsem; then swizzle-matrices. */
export function defaultMatrixDir(): string {
  const env = process.env;
  const base = env.REFSEM_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'refsem');
  return join(base, 'swizzle-matrices');
}

interface Header {
  readonly format: string;
  readonly key: string;
  readonly words: readonly number[];
  readonly bytes: number;
  /** per statement: the matrix's length in 32-bit words, or −1 where none was computed */
  readonly lengths: readonly number[];
}

/** A store in folder `dir`; `hits` and `writes` count what it did, for the command's report. */
export class DiskMatrixStore implements MatrixStore {
  hits = 0;
  writes = 0;

  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex')}.bin`);
  }

  get(key: string): Reach | undefined {
    let buf: Buffer;
    try {
      buf = readFileSync(this.fileOf(key));
    } catch {
      return undefined;
    }
    const reach = decode(buf, key);
    if (reach) this.hits++;
    return reach;
  }

  put(key: string, reach: Reach): void {
    if (reach.bytes > MAX_ENTRY_MB * 1048576) return;
    const file = this.fileOf(key);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(tmp, encode(reach, key));
      renameSync(tmp, file);
      this.writes++;
    } catch {
      // A cache that cannot be written (read-only folder, full disk) only costs time on the next run.
    }
  }
}

function encode(r: Reach, key: string): Buffer {
  const header: Header = { format: FORMAT, key, words: r.words, bytes: r.bytes, lengths: r.rows.map((m) => (m ? m.length : -1)) };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return Buffer.concat([size, head, ...r.rows.filter((m): m is Uint32Array => m !== undefined).map((m) => Buffer.from(m.buffer, m.byteOffset, m.byteLength))]);
}

function decode(buf: Buffer, key: string): Reach | undefined {
  try {
    const n = buf.readUInt32LE(0);
    const h = JSON.parse(buf.subarray(4, 4 + n).toString('utf8')) as Header;
    if (h.format !== FORMAT || h.key !== key) return undefined;
    let at = 4 + n;
    const rows: (Uint32Array | undefined)[] = [];
    for (const len of h.lengths) {
      if (len < 0) {
        rows.push(undefined);
        continue;
      }
      if (at + len * 4 > buf.length) return undefined;
      // copied out, since the buffer's offset need not be a multiple of four
      rows.push(new Uint32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + len * 4)));
      at += len * 4;
    }
    return at === buf.length ? { rows, words: [...h.words], bytes: h.bytes } : undefined;
  } catch {
    return undefined;
  }
}
