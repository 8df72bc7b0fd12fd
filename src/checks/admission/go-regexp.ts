/*
 * Whether Go's `regexp.Compile` accepts a pattern (RE2 syntax, Go's regexp/syntax with the Perl
 * flags), for the operator's checks of patterns users write, such as
 * `spec.replicationSlots.synchronizeReplicas.excludePatterns` (cloudnative-pg v1.30.0
 * api/v1/cluster_funcs.go compileRegex). JavaScript's RegExp is not the judge: it accepts
 * backreferences and lookarounds that Go refuses, and refuses `(?i)`, `\Q...\E`, `\z` and
 * `[[:alpha:]]` that Go accepts. This follows the parser of Go's regexp/syntax (parse.go) as of
 * Go 1.26, which CloudNativePG v1.30.0 is built with: named groups as `(?P<name>` or `(?<name>`,
 * Unicode classes by category, alias or script name (Unicode 15.0), matched loosely (case,
 * spaces, `_` and `-` ignored). Not modelled: the size and nesting limits of huge expressions
 * (a pattern over about three million instructions, or nested more than 1000 deep).
 */

/** The reason Go refuses a pattern, as the regexp/syntax error code words it. */
type GoRegexpError =
  | 'invalid character class'
  | 'invalid character class range'
  | 'invalid escape sequence'
  | 'invalid named capture'
  | 'invalid or unsupported Perl syntax'
  | 'invalid nested repetition operator'
  | 'invalid repeat count'
  | 'missing closing ]'
  | 'missing closing )'
  | 'missing argument to repetition operator'
  | 'trailing backslash at end of expression'
  | 'unexpected )';

/** A parsed piece, as far as the repeat-count check needs it: nested repetitions and their bounds. */
interface Node {
  readonly repeat?: { readonly min: number; readonly max: number };
  readonly subs: readonly Node[];
}

const LEAF: Node = { subs: [] };

/** Unicode general categories, their aliases and the special names Go accepts after `\p`. */
const CATEGORY_NAMES = [
  'Any',
  'ASCII',
  'Assigned',
  ...'C Cc Cf Cn Co Cs L LC Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
  ...(
    'Cased_Letter Close_Punctuation Connector_Punctuation Control cntrl Currency_Symbol Dash_Punctuation Decimal_Number digit ' +
    'Enclosing_Mark Final_Punctuation Format Initial_Punctuation Letter Letter_Number Line_Separator Lowercase_Letter Mark ' +
    'Combining_Mark Math_Symbol Modifier_Letter Modifier_Symbol Nonspacing_Mark Number Open_Punctuation Other Other_Letter ' +
    'Other_Number Other_Punctuation Other_Symbol Paragraph_Separator Private_Use Punctuation punct Separator Space_Separator ' +
    'Spacing_Mark Surrogate Symbol Titlecase_Letter Unassigned Uppercase_Letter'
  ).split(' '),
];

/** The Unicode 15.0 scripts (Go's unicode.Scripts). */
const SCRIPT_NAMES = (
  'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki Bopomofo Brahmi ' +
  'Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform ' +
  'Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic ' +
  'Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew ' +
  'Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi ' +
  'Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian ' +
  'Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive ' +
  'Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu ' +
  'Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian ' +
  'Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician ' +
  'Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo ' +
  'Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai ' +
  'Tibetan Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square'
).split(' ');

/** Unicode's loose matching of property values: case, spaces, `_` and `-` do not count. */
const loose = (name: string) => name.replace(/[ _-]/g, '').toLowerCase();
const UNICODE_CLASSES = new Set([...CATEGORY_NAMES, ...SCRIPT_NAMES].map(loose));

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

const isAsciiAlnum = (c: string) => /^[0-9A-Za-z]$/.test(c);
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/** Thrown inside the parser, caught by {@link goRegexpError}. */
class Refused {
  constructor(readonly reason: GoRegexpError) {}
}

/** A cursor over the pattern's code points. */
class Scanner {
  private readonly chars: string[];
  pos = 0;
  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }
  get done(): boolean {
    return this.pos >= this.chars.length;
  }
  peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }
  next(): string | undefined {
    return this.chars[this.pos++];
  }
  startsWith(text: string): boolean {
    return Array.from(text).every((c, i) => this.chars[this.pos + i] === c);
  }
  /** The position of `c` at or after the cursor, or -1. */
  indexOf(c: string): number {
    return this.chars.indexOf(c, this.pos);
  }
  slice(from: number, to: number): string {
    return this.chars.slice(from, to).join('');
  }
}

/** One open group: its finished alternatives and the pieces of the current one. */
interface Frame {
  readonly branches: Node[][];
  current: Node[];
}

/**
 * Why Go's `regexp.Compile` refuses `pattern` (its error code's words, e.g. `missing closing )`),
 * or `undefined` when it compiles.
 * @internal
 */
export function goRegexpError(pattern: string): string | undefined {
  try {
    parse(new Scanner(pattern));
    return undefined;
  } catch (e) {
    if (e instanceof Refused) return e.reason;
    throw e;
  }
}

function parse(s: Scanner): void {
  const frames: Frame[] = [{ branches: [], current: [] }];
  const top = () => frames[frames.length - 1];
  let lastWasRepeat = false;
  while (!s.done) {
    let repeated = false;
    const c = s.peek()!;
    switch (c) {
      case '(':
        if (s.peek(1) === '?') {
          if (perlFlags(s)) frames.push({ branches: [], current: [] });
        } else {
          s.next();
          frames.push({ branches: [], current: [] });
        }
        break;
      case '|':
        s.next();
        top().branches.push(top().current);
        top().current = [];
        break;
      case ')': {
        s.next();
        if (frames.length === 1) throw new Refused('unexpected )');
        const frame = frames.pop()!;
        top().current.push({ subs: [...frame.branches, frame.current].flat() });
        break;
      }
      case '[':
        charClass(s);
        top().current.push(LEAF);
        break;
      case '*':
      case '+':
      case '?':
        s.next();
        repetition(s, top(), lastWasRepeat);
        repeated = true;
        break;
      case '{': {
        const bounds = repeatBounds(s);
        if (bounds === undefined) {
          s.next(); // not a repetition: a literal {
          top().current.push(LEAF);
          break;
        }
        const { min, max } = bounds;
        if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) throw new Refused('invalid repeat count');
        repetition(s, top(), lastWasRepeat, bounds);
        repeated = true;
        break;
      }
      case '\\':
        escapeAtom(s, top());
        break;
      default:
        s.next();
        top().current.push(LEAF);
    }
    lastWasRepeat = repeated;
  }
  if (frames.length !== 1) throw new Refused('missing closing )');
}

/** A repetition operator just read: it applies to the last piece, once, and within 1000 copies. */
function repetition(s: Scanner, frame: Frame, lastWasRepeat: boolean, bounds?: { min: number; max: number }): void {
  if (s.peek() === '?') s.next(); // non-greedy
  if (lastWasRepeat) throw new Refused('invalid nested repetition operator');
  const last = frame.current.pop();
  if (last === undefined) throw new Refused('missing argument to repetition operator');
  const node: Node = { repeat: bounds, subs: [last] };
  if (bounds !== undefined && (bounds.min >= 2 || bounds.max >= 2) && !repeatIsValid(node, 1000)) throw new Refused('invalid repeat count');
  frame.current.push(node);
}

/** Go's repeatIsValid: nested counted repetitions multiply to at most `n` copies. */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.repeat !== undefined) {
    let m = node.repeat.max;
    if (m === 0) return true;
    if (m < 0) m = node.repeat.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return node.subs.every((sub) => repeatIsValid(sub, n));
}

/**
 * `{min}`, `{min,}` (max -1) or `{min,max}` at the cursor (consumed when it is one), or
 * `undefined`: then the `{` is a literal. Numbers keep at most their size class: anything over
 * 1000 is refused by the caller, as Go refuses it.
 */
function repeatBounds(s: Scanner): { min: number; max: number } | undefined {
  let i = 1;
  const int = (): number | undefined => {
    const start = i;
    while (/^[0-9]$/.test(s.peek(i) ?? '')) i++;
    const digits = s.slice(s.pos + start, s.pos + i);
    if (digits === '' || (digits.length >= 2 && digits[0] === '0')) return undefined;
    return digits.length > 9 ? 1e9 : Number(digits);
  };
  const min = int();
  if (min === undefined) return undefined;
  let max = min;
  if (s.peek(i) === ',') {
    i++;
    if (s.peek(i) === '}') {
      max = -1;
    } else {
      const m = int();
      if (m === undefined) return undefined;
      max = m;
    }
  }
  if (s.peek(i) !== '}') return undefined;
  s.pos += i + 1;
  return { min, max };
}

/**
 * `(?` at the cursor: a named group, or flags with or without a group. True when a group opens.
 */
function perlFlags(s: Scanner): boolean {
  const named = s.startsWith('(?P<') ? 4 : s.startsWith('(?<') ? 3 : 0;
  if (named > 0) {
    const end = s.indexOf('>');
    if (end < 0) throw new Refused('invalid named capture');
    const name = s.slice(s.pos + named, end);
    if (!/^[0-9A-Za-z_]+$/.test(name)) throw new Refused('invalid named capture');
    s.pos = end + 1;
    return true;
  }
  s.pos += 2;
  let negated = false;
  let sawFlag = false;
  for (;;) {
    const c = s.next();
    if (c === undefined) break;
    if ('imsU'.includes(c)) {
      sawFlag = true;
    } else if (c === '-') {
      if (negated) break;
      negated = true;
      sawFlag = false;
    } else if (c === ':' || c === ')') {
      if (negated && !sawFlag) break;
      return c === ':';
    } else {
      break;
    }
  }
  throw new Refused('invalid or unsupported Perl syntax');
}

/** A `\` outside a class: an assertion, `\Q...\E`, a Unicode or Perl class, or one escaped character. */
function escapeAtom(s: Scanner, frame: Frame): void {
  const c = s.peek(1);
  if (c === 'A' || c === 'b' || c === 'B' || c === 'z') {
    s.pos += 2;
    frame.current.push(LEAF);
    return;
  }
  if (c === 'C') throw new Refused('invalid escape sequence');
  if (c === 'Q') {
    s.pos += 2;
    while (!s.done && !s.startsWith('\\E')) {
      s.next();
      frame.current.push(LEAF);
    }
    if (!s.done) s.pos += 2;
    return;
  }
  if (!unicodeClass(s) && !perlClass(s)) escapedChar(s);
  frame.current.push(LEAF);
}

/** `\d`, `\s`, `\w` and their negations at the cursor; consumed when present. */
function perlClass(s: Scanner): boolean {
  if (s.peek() !== '\\' || !'dDsSwW'.includes(s.peek(1) ?? '_')) return false;
  s.pos += 2;
  return true;
}

/** `\pX`, `\p{Name}`, `\PX`, `\P{^Name}` at the cursor; consumed when present, refused when the name is unknown. */
function unicodeClass(s: Scanner): boolean {
  if (s.peek() !== '\\' || (s.peek(1) !== 'p' && s.peek(1) !== 'P')) return false;
  s.pos += 2;
  let name: string;
  if (s.peek() === '{') {
    const end = s.indexOf('}');
    if (end < 0) throw new Refused('invalid character class range');
    name = s.slice(s.pos + 1, end);
    s.pos = end + 1;
  } else {
    name = s.next() ?? '';
  }
  if (name.startsWith('^')) name = name.slice(1);
  if (!UNICODE_CLASSES.has(loose(name))) throw new Refused('invalid character class range');
  return true;
}

/** One escaped character at the cursor (`\n`, `\x41`, `\x{263a}`, `\101`, `\.`); the code point, for ranges. */
function escapedChar(s: Scanner): number {
  s.next(); // the backslash
  const c = s.next();
  if (c === undefined) throw new Refused('trailing backslash at end of expression');
  const C_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  if (c in C_ESCAPES) return C_ESCAPES[c];
  if (c.codePointAt(0)! < 0x80 && !isAsciiAlnum(c)) return c.codePointAt(0)!;
  // a lone \1 to \7 would be a backreference, which RE2 does not have
  if (c === '0' || (c >= '1' && c <= '7' && isOctal(s.peek()))) {
    let value = Number(c);
    for (let i = 1; i < 3 && isOctal(s.peek()); i++) value = value * 8 + Number(s.next());
    return value;
  }
  if (c === 'x') {
    if (s.peek() === '{') {
      s.next();
      let digits = '';
      while (isHex(s.peek())) {
        digits += s.next();
        if (parseInt(digits, 16) > 0x10ffff) throw new Refused('invalid escape sequence');
      }
      if (digits === '' || s.next() !== '}') throw new Refused('invalid escape sequence');
      return parseInt(digits, 16);
    }
    const hex = `${s.next() ?? ''}${s.next() ?? ''}`;
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) return parseInt(hex, 16);
  }
  throw new Refused('invalid escape sequence');
}

/** One character of a class (escaped or not): its code point. */
function classChar(s: Scanner): number {
  if (s.done) throw new Refused('missing closing ]');
  if (s.peek() === '\\') return escapedChar(s);
  return s.next()!.codePointAt(0)!;
}

/** `[...]` at the cursor: POSIX, Unicode and Perl classes, characters and ranges; `]` and `-` are literal first. */
function charClass(s: Scanner): void {
  s.next(); // [
  if (s.peek() === '^') s.next();
  let first = true;
  while (s.done || s.peek() !== ']' || first) {
    first = false;
    if (s.startsWith('[:')) {
      const end = s.slice(s.pos + 2, Number.MAX_SAFE_INTEGER).indexOf(':]');
      if (end >= 0) {
        const name = s.slice(s.pos + 2, Number.MAX_SAFE_INTEGER).slice(0, end);
        if (!POSIX_CLASSES.has(name.replace(/^\^/, ''))) throw new Refused('invalid character class range');
        s.pos += Array.from(`[:${name}:]`).length;
        continue;
      }
    }
    if (unicodeClass(s) || perlClass(s)) continue;
    const lo = classChar(s);
    if (s.peek() === '-' && s.peek(1) !== undefined && s.peek(1) !== ']') {
      s.next();
      if (classChar(s) < lo) throw new Refused('invalid character class range');
    }
  }
  s.next(); // ]
}
