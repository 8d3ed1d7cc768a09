// The text of every rule, from the spec chapters bundled at build time, exactly as `refsem html`
// reads them from disk: a rule ID in the page opens its own section in place.
import { ruleTextsOf } from '../src/rules/spec-rules.js';

const chapters = import.meta.glob('../spec/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const RULES = ruleTextsOf(Object.entries(chapters).map(([path, text]) => ({ name: path.slice(path.lastIndexOf('/') + 1), text })));
