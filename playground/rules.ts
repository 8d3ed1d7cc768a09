// Links from rule IDs to their sections in the spec chapters, computed from the chapters
// themselves (bundled at build time) exactly as `refsem html` computes them from disk.
import { ruleLinksOf } from '../src/rules/spec-rules.js';

const chapters = import.meta.glob('../spec/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const links = ruleLinksOf(Object.entries(chapters).map(([path, text]) => ({ name: path.slice(path.lastIndexOf('/') + 1), text })));

export const ruleHref = (id: string): string | undefined => links.get(id);
