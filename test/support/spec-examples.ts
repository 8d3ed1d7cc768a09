// Extraction of the runnable examples from spec/*.md (see spec/README.md, "Runnable examples").
//
//   ```refsem-file NAME     a file written into the example's scratch directory
//   ```refsem-run           lines `$ refsem ARGS…` each followed by the expected output
//                           (stdout then stderr, trailing spaces ignored) and, when the exit
//                           code is not 0, a final line `[exit N]`
export interface SpecFile {
  name: string;
  text: string;
}
export interface SpecRun {
  argv: string[];
  expected: string;
  exit: number;
  line: number;
}
export interface SpecDoc {
  files: SpecFile[];
  runs: SpecRun[];
}

/** Splits a command line into words; single and double quotes group words. */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

export function extractExamples(md: string): SpecDoc {
  const files: SpecFile[] = [];
  const runs: SpecRun[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(refsem-file|refsem-run)\s*(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let j = start;
    while (j < lines.length && !/^```\s*$/.test(lines[j]!)) j++;
    const body = lines.slice(start, j);
    if (open[1] === 'refsem-file') files.push({ name: open[2]!, text: body.join('\n') + '\n' });
    else {
      let cur: SpecRun | undefined;
      body.forEach((l, k) => {
        if (l.startsWith('$ refsem ')) {
          cur = { argv: shellWords(l.slice('$ refsem '.length)), expected: '', exit: 0, line: start + k + 1 };
          runs.push(cur);
        } else if (cur) {
          const ex = /^\[exit (\d+)\]$/.exec(l);
          if (ex) cur.exit = Number(ex[1]);
          else cur.expected += l + '\n';
        }
      });
    }
    i = j;
  }
  return { files, runs };
}

export function normalizeOutput(s: string): string {
  return s
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .trim();
}
