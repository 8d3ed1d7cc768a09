// The simplifier's own rules, grouped by the operator at the root of the left-hand side as the
// TRS paper groups Halide's (its §2.2); within a group the first rule that applies wins. Every rule here is
// proved in its domain by `npm run verify-rules` (a test keeps it so) and decreases the reduction
// order (test/simplify/order.test.ts). Rules that drop a wildcard are `integers` rules: an error
// value in the dropped part would have absorbed the whole term (def. 2.6).
import { parseRules } from './parse-rules.js';
import { type Rule, type RuleSet, ruleSet } from './rule.js';

export const BUILTIN_RULES_FILE = '<builtin rules>';

const TEXT = `
// SR-ADD
values   add-zero:          x + 0 -> x;
values   zero-add:          0 + x -> x;
values   add-const-const:   (x + c0) + c1 -> x + (c0 + c1);
values   add-sub-const:     (c0 - x) + c1 -> (c0 + c1) - x;
values   add-sub-const-const: (x - c0) + c1 -> x + (c1 - c0);
values   add-mul-same:      x * c0 + x * c1 -> x * (c0 + c1);
values   add-mul-one:       x * c0 + x -> x * (c0 + 1);
values   add-min-max:       min(x, y) + max(x, y) -> x + y;
values   add-div-mod:       (x / c0) * c0 + x % c0 -> x if c0 != 0;
integers add-sub-cancel:    (x - y) + y -> x;
integers add-sub-cancel-r:  x + (y - x) -> y;

// SR-SUB
values   sub-zero:          x - 0 -> x;
values   sub-add-const-const: (x + c0) - c1 -> x + (c0 - c1);
values   sub-sub-const:     (x - c0) - c1 -> x - (c0 + c1);
values   sub-mul-same:      x * c0 - x * c1 -> x * (c0 - c1);
integers sub-self:          x - x -> 0;
integers sub-add-cancel:    (x + y) - y -> x;
integers sub-add-cancel-l:  (x + y) - x -> y;
integers sub-add-add:       (x + y) - (x + z) -> y - z;
integers sub-add-const:     (x + c0) - x -> c0;
integers sub-const-add:     x - (x + c0) -> 0 - c0;
integers sub-sub-cancel:    x - (x - y) -> y;
integers sub-add-swapped:   (x + y) - (y + x) -> 0;

// SR-MUL
values   mul-one:           x * 1 -> x;
values   one-mul:           1 * x -> x;
values   mul-const-const:   (x * c0) * c1 -> x * (c0 * c1);
integers mul-zero:          x * 0 -> 0;

// SR-DIV
values   div-one:           x / 1 -> x;
values   div-mul-cancel:    (x * c0) / c0 -> x if c0 != 0;
values   div-mul-exact:     (x * c0) / c1 -> x * (c0 / c1) if c1 != 0 && c0 % c1 == 0;
values   div-div:           (x / c0) / c1 -> x / (c0 * c1) if c0 > 0 && c1 > 0;
integers div-zero:          x / 0 -> 0;
integers div-mod-self:      (x % c0) / c0 -> 0;

// SR-MOD
values   mod-mod-self:      (x % c0) % c0 -> x % c0;
integers mod-one:           x % c0 -> 0 if c0 == 1 || c0 == -1;
integers mod-zero:          x % 0 -> 0;
integers mod-mul-self:      (x * c0) % c0 -> 0;

// SR-MINMAX
values   min-self:          min(x, x) -> x;
values   max-self:          max(x, x) -> x;
values   min-min-const:     min(min(x, c0), c1) -> min(x, min(c0, c1));
values   max-max-const:     max(max(x, c0), c1) -> max(x, max(c0, c1));
values   min-add-const:     min(x + c0, x + c1) -> x + min(c0, c1);
values   max-add-const:     max(x + c0, x + c1) -> x + max(c0, c1);
values   min-shift-left:    min(x, x + c0) -> x if c0 >= 0;
values   min-shift-right:   min(x + c0, x) -> x if c0 >= 0;
values   max-shift-left:    max(x, x + c0) -> x + c0 if c0 >= 0;
values   max-shift-right:   max(x + c0, x) -> x + c0 if c0 >= 0;
values   min-add-common:    min(x + y, x + z) -> x + min(y, z);
values   max-add-common:    max(x + y, x + z) -> x + max(y, z);
integers min-max-absorb:    min(x, max(x, y)) -> x;
integers max-min-absorb:    max(x, min(x, y)) -> x;
integers min-max-absorb-r:  min(max(x, y), x) -> x;
integers max-min-absorb-r:  max(min(x, y), x) -> x;
integers min-max-absorb-rr: min(max(x, y), y) -> y;
integers max-min-absorb-rr: max(min(x, y), y) -> y;
integers min-max-absorb-rl: min(y, max(x, y)) -> y;
integers max-min-absorb-rl: max(y, min(x, y)) -> y;

// SR-SELECT
values   select-lt-min:     select(x < y, x, y) -> min(x, y);
values   select-lt-max:     select(x < y, y, x) -> max(x, y);
values   select-gt-max:     select(x > y, x, y) -> max(x, y);
values   select-gt-min:     select(x > y, y, x) -> min(x, y);
values   select-not:        select(!x, y, z) -> select(x, z, y);
integers select-true:       select(c0, x, y) -> x if c0 != 0;
integers select-false:      select(c0, x, y) -> y if c0 == 0;
integers select-same:       select(x, y, y) -> y;

// SR-CMP
values   lt-add-const:      x + c0 < c1 -> x < c1 - c0;
values   gt-add-const:      x + c0 > c1 -> x > c1 - c0;
values   eq-add-const:      x + c0 == c1 -> x == c1 - c0;
values   lt-const-add:      c0 < x + c1 -> c0 - c1 < x;
values   gt-const-add:      c0 > x + c1 -> c0 - c1 > x;
values   lt-add-add:        x + c0 < y + c1 -> x < y + (c1 - c0);
integers lt-self:           x < x -> 0;
integers gt-self:           x > x -> 0;
integers eq-self:           x == x -> 1;

// SR-LOGIC
values   not-not-lt:        !!(x < y) -> x < y;
values   not-not-gt:        !!(x > y) -> x > y;
values   not-not-eq:        !!(x == y) -> x == y;
integers and-false:         x && c0 -> 0 if c0 == 0;
integers false-and:         c0 && x -> 0 if c0 == 0;
integers or-true:           x || c0 -> 1 if c0 != 0;
integers true-or:           c0 || x -> 1 if c0 != 0;
`;

/** The built-in rules, parsed once. */
export const BUILTIN_RULES: readonly Rule[] = parseRules(TEXT, BUILTIN_RULES_FILE);

export const BUILTIN_RULE_SET: RuleSet = ruleSet(BUILTIN_RULES);
