// One long-lived Python process per job that runs bridged programs with Halide 14
// (spec/halide.md, [HALIDE-RUNNER]). It imports Halide and compiles its JIT runtime once, and
// forks a child for every program, so that a program whose JIT crashes, aborts or hangs kills only
// its child: the server reports a verdict and goes on with the next program. Requests and answers
// are JSON lines over the server's stdin and stdout; the programs' own output goes to files the
// child's descriptors 1 and 2 are pointed at, so nothing a program prints can desynchronise the
// protocol.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { JIT_TARGET_PY } from './jit-target.js';

/** How one program ended, as the server saw it. */
export interface ProgramExit {
  readonly status: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** set when the program printed more than the server reads ({@link OUTPUT_CAP_BYTES}) */
  readonly stdoutCut?: boolean;
  /** CPU time the program's process used (user and system), in ms; 0 when the server lost it */
  readonly cpuMs: number;
  /** set when the server itself died or hung while the program ran: why */
  readonly lost?: string;
}

// The server. A child runs the program with its output redirected, then leaves with os._exit so
// that no cleanup of the parent's state runs in it. The parent waits on a pidfd (Linux ≥ 5.3) with
// the program's time limit and kills the child's whole process group when it passes.
const SERVER = String.raw`
import json, os, select, signal, sys, tempfile, time, traceback
import halide  # loaded once; every child inherits it
hl = halide
${JIT_TARGET_PY}

OUTPUT_CAP = int(sys.argv[1])

# implements [HALIDE-WARM]: the first JIT compilation in a process also compiles Halide's runtime,
# which then serves every later one; done here once, every child inherits it instead of redoing it.
# The pipeline is serial, so Halide's thread pool is not started (a forked child would lack its
# threads). Should it fail, each child compiles the runtime itself, as it would without it.
try:
    _x = halide.Var('refsem_warm_x')
    _f = halide.Func('refsem_warm')
    _f[_x] = _x
    _f.realize([1])
except Exception:
    pass

def run(script, limit):
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdout = os.fdopen(1, 'w', closefd=False)
            sys.stderr = os.fdopen(2, 'w', closefd=False)
            exec(compile(script, '<bridged program>', 'exec'), {'__name__': '__main__'})
            sys.stdout.flush()
            os._exit(0)
        except SystemExit as e:
            sys.stdout.flush()
            os._exit(e.code if isinstance(e.code, int) else 1)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(1)
    timed_out = False
    deadline = time.monotonic() + limit
    try:
        fd = os.pidfd_open(pid)
        if not select.select([fd], [], [], limit)[0]:
            timed_out = True
        os.close(fd)
    except (AttributeError, OSError):
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.002)
    if timed_out:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    _, st, usage = os.wait4(pid, 0)
    # The values a program prints grow with its window (a 3000 x 3000 output is some 50 MB), so
    # its output is read up to a bound far above any window refsem realizes, and a longer one is
    # reported as cut rather than handed on as a broken answer; errors need only their last lines.
    def text(f, cap):
        f.seek(0)
        return f.read(cap).decode('utf-8', 'replace'), f.read(1) != b''
    stdout, cut = text(out, OUTPUT_CAP)
    stderr, _ = text(err, 1 << 20)
    answer = {'status': os.WEXITSTATUS(st) if os.WIFEXITED(st) else None,
              'signal': signal.Signals(os.WTERMSIG(st)).name if os.WIFSIGNALED(st) and not timed_out else None,
              'timedOut': timed_out, 'stdout': stdout, 'stdoutCut': cut, 'stderr': stderr,
              'cpuMs': (usage.ru_utime + usage.ru_stime) * 1000}
    out.close()
    err.close()
    return answer

for line in sys.stdin:
    req = json.loads(line)
    sys.stdout.write(json.dumps(dict(run(req['script'], req['limit']), id=req['id'])) + '\n')
    sys.stdout.flush()
`;

/** The most of a program's standard output the server hands on: above any window's values. */
export const OUTPUT_CAP_BYTES = 1 << 28;

/** Extra time the server may take beyond a program's own limit before it is deemed hung. */
const SERVER_GRACE_MS = 10_000;

interface Pending {
  readonly resolve: (e: ProgramExit) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * A Python server with Halide loaded. Programs run one at a time in request order; a server that
 * dies or stops answering is replaced on the next request, and the programs it held end as
 * crashes (never as a hang of refsem).
 */
export class HalideServer {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Servers started so far (a restart after a death or a hang counts). */
  started = 0;

  constructor(private readonly python: string) {}

  run(script: string, limitMs: number): Promise<ProgramExit> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fail(`the Halide server gave no answer within ${(limitMs + SERVER_GRACE_MS) / 1000} s; it was restarted`, true), limitMs + SERVER_GRACE_MS);
      this.pending.set(id, { resolve, timer });
      child.ref();
      child.stdin.write(`${JSON.stringify({ id, script, limit: limitMs / 1000 })}\n`);
    });
  }

  /** Ends the server (it also ends by itself when refsem exits: its stdin closes). */
  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.python, ['-u', '-c', SERVER, String(OUTPUT_CAP_BYTES)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.started++;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let a: ProgramExit & { id: number };
      try {
        a = JSON.parse(line) as ProgramExit & { id: number };
      } catch {
        return this.fail(`the Halide server wrote an unreadable line: ${line.slice(0, 200)}`, true);
      }
      const p = this.pending.get(a.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(a.id);
      p.resolve(a);
      if (this.pending.size === 0) child.unref();
    });
    child.on('error', (e) => this.fail(`the Halide server could not run: ${e.message}`, false));
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      this.fail(`the Halide server ended (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`, false);
    });
    // The server never keeps refsem alive by itself: only a request in flight does (its timer).
    for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
    child.unref();
    return child;
  }

  /** Ends every program in flight as a crash with this reason; `kill` also stops the server. */
  private fail(reason: string, kill: boolean): void {
    if (kill && this.child) {
      this.child.kill('SIGKILL');
      this.child = undefined;
    }
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.resolve({ status: null, signal: null, timedOut: false, stdout: '', stderr: '', cpuMs: 0, lost: reason });
    }
  }
}
