// A small subset of Go's text/template, enough for crictl-style
// `--output go-template --template '...'` over a JSON document:
// field paths ({{.a.b}}, {{$.a}}, {{$v.a}}), range/if/with/else/end,
// variables ({{range $i, $e := .items}}), pipes, parentheses, literals,
// trim markers ({{- and -}}), comments, and the functions crictl offers
// (json, title, lower, upper) plus Go's printf/print/println/len/index/
// eq/ne/lt/le/gt/ge/and/or/not. Field names match exactly first, then
// case-insensitively, so Go-style {{.Status.Id}} works on lowerCamelCase JSON.
// As in crictl (missingkey=error), a missing key is an error.

export class TemplateError extends Error {}

type Arg =
  | { k: 'field'; base: 'dot' | 'var'; name?: string; path: string[] }
  | { k: 'lit'; v: unknown }
  | { k: 'ident'; name: string }
  | { k: 'pipe'; pipe: Pipe; path: string[] };

interface Pipe {
  decl: string[];
  cmds: Arg[][];
}

type Node =
  | { k: 'text'; s: string }
  | { k: 'out'; pipe: Pipe }
  | { k: 'if' | 'with'; pipe: Pipe; body: Node[]; alt?: Node[] }
  | { k: 'range'; pipe: Pipe; body: Node[]; alt?: Node[] };

/** Renders `template` over `data` (a plain JSON-like value). Throws TemplateError on bad syntax or data. */
export function renderGoTemplate(template: string, data: unknown): string {
  const nodes = parseTemplate(template);
  const out: string[] = [];
  execNodes(nodes, data, [{ $: data }], out);
  return out.join('');
}

/** Parses only (for validating a template before a stream starts). */
export function parseTemplate(template: string): Node[] {
  const actions = splitActions(template);
  const parser = new TreeParser(actions);
  return parser.parseAll();
}

// ---- splitting text and actions ----

type Piece = { k: 'text'; s: string } | { k: 'action'; s: string; line: number };

function splitActions(src: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      if (text) pieces.push({ k: 'text', s: text });
      break;
    }
    let start = open + 2;
    if (/^-[ \t\r\n]/.test(src.slice(start, start + 2))) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    if (text) pieces.push({ k: 'text', s: text });
    const close = findClose(src, start);
    if (close < 0) throw new TemplateError(`template: unclosed action at line ${lineOf(src, open)}`);
    let end = close;
    if (/[ \t\r\n]-$/.test(src.slice(close - 2, close))) {
      end = close - 1;
      trimNext = true;
    }
    pieces.push({ k: 'action', s: src.slice(start, end).trim(), line: lineOf(src, open) });
    i = close + 2;
  }
  return pieces;
}

/** Finds the closing `}}`, skipping over quoted strings inside the action. */
function findClose(src: string, from: number): number {
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '`') {
      const e = src.indexOf('`', i + 1);
      if (e < 0) return -1;
      i = e + 1;
      continue;
    }
    if (c === '}' && src[i + 1] === '}') return i;
    i++;
  }
  return -1;
}

function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos; i++) if (src[i] === '\n') n++;
  return n;
}

// ---- tokens inside an action ----

type Tok =
  | { t: 'field'; path: string[]; chained?: boolean }
  | { t: 'var'; name: string; path: string[] }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ident'; v: string }
  | { t: 'punct'; v: '(' | ')' | '|' | ':=' | '=' | ',' };

function lexAction(s: string, line: number): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new TemplateError(`template: line ${line}: ${msg} in "{{${s}}}"`);
  };
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      if (j >= s.length) fail('unterminated quoted string');
      try {
        toks.push({ t: 'str', v: JSON.parse(s.slice(i, j + 1)) });
      } catch {
        fail(`bad string literal ${s.slice(i, j + 1)}`);
      }
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = s.indexOf('`', i + 1);
      if (j < 0) fail('unterminated raw string');
      toks.push({ t: 'str', v: s.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === ',') {
      toks.push({ t: 'punct', v: c });
      i++;
      continue;
    }
    if (c === ':' && s[i + 1] === '=') {
      toks.push({ t: 'punct', v: ':=' });
      i += 2;
      continue;
    }
    if (c === '=') {
      toks.push({ t: 'punct', v: '=' });
      i++;
      continue;
    }
    if (c === '.' && !/[0-9]/.test(s[i + 1] ?? '')) {
      const m = /^(\.[A-Za-z0-9_]*)+/.exec(s.slice(i))!;
      const path = m[0] === '.' ? [] : m[0].slice(1).split('.');
      if (path.some((p) => p === '')) fail(`bad field path ${m[0]}`);
      toks.push({ t: 'field', path, chained: i > 0 && s[i - 1] === ')' });
      i += m[0].length;
      continue;
    }
    if (c === '$') {
      const m = /^\$[A-Za-z0-9_]*((\.[A-Za-z0-9_]+)*)/.exec(s.slice(i))!;
      const name = m[0].slice(0, m[0].length - m[1].length);
      toks.push({ t: 'var', name, path: m[1] ? m[1].slice(1).split('.') : [] });
      i += m[0].length;
      continue;
    }
    const num = /^[-+]?(0x[0-9a-fA-F]+|\d+(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)/.exec(s.slice(i));
    if (num && (c !== '-' && c !== '+' ? true : /[0-9.]/.test(s[i + 1] ?? ''))) {
      toks.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
    if (id) {
      toks.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    fail(`unexpected "${c}"`);
  }
  return toks;
}

// ---- parsing ----

const FUNCS = new Set(['json', 'title', 'lower', 'upper', 'printf', 'print', 'println', 'len', 'index', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not']);

class TreeParser {
  private pos = 0;
  constructor(private readonly pieces: Piece[]) {}

  parseAll(): Node[] {
    const { nodes, stop } = this.parseList();
    if (stop) throw new TemplateError(`template: line ${stop.line}: unexpected {{${stop.s}}}`);
    return nodes;
  }

  /** Parses nodes until `end`/`else` (returned as stop) or the end of input. */
  private parseList(): { nodes: Node[]; stop?: { s: string; line: number } } {
    const nodes: Node[] = [];
    while (this.pos < this.pieces.length) {
      const p = this.pieces[this.pos++];
      if (p.k === 'text') {
        nodes.push({ k: 'text', s: p.s });
        continue;
      }
      const s = p.s;
      if (s.startsWith('/*')) {
        if (!s.endsWith('*/')) throw new TemplateError(`template: line ${p.line}: unclosed comment`);
        continue;
      }
      const word = /^[a-z]+/.exec(s)?.[0];
      if (word === 'end' && s === 'end') return { nodes, stop: p };
      if (word === 'else' && (s === 'else' || /^else\s/.test(s))) return { nodes, stop: p };
      if ((word === 'if' || word === 'range' || word === 'with') && (s.length === word.length || /\s/.test(s[word.length]))) {
        nodes.push(this.parseBlock(word, s.slice(word.length), p.line));
        continue;
      }
      if (word && ['define', 'template', 'block', 'break', 'continue'].includes(word) && !FUNCS.has(word)) {
        throw new TemplateError(`template: line ${p.line}: "{{${word}}}" is not supported`);
      }
      nodes.push({ k: 'out', pipe: parsePipe(lexAction(s, p.line), p.line, s) });
    }
    return { nodes };
  }

  private parseBlock(kind: 'if' | 'range' | 'with', rest: string, line: number): Node {
    const pipe = parsePipe(lexAction(rest, line), line, rest);
    if (pipe.cmds.length === 0) throw new TemplateError(`template: line ${line}: missing value for ${kind}`);
    const body = this.parseList();
    if (!body.stop) throw new TemplateError(`template: line ${line}: unexpected EOF (missing {{end}} for ${kind})`);
    if (body.stop.s === 'end') return { k: kind, pipe, body: body.nodes } as Node;
    // else or "else if ..."
    const elseRest = body.stop.s.slice(4).trim();
    if (elseRest) {
      const m = /^(if|with)\s/.exec(elseRest);
      if (!m) throw new TemplateError(`template: line ${body.stop.line}: unexpected {{${body.stop.s}}}`);
      // `else if X` is `else` followed by a nested if that shares this block's {{end}}.
      const nested = this.parseBlock(m[1] as 'if' | 'with', elseRest.slice(m[1].length), body.stop.line);
      return { k: kind, pipe, body: body.nodes, alt: [nested] } as Node;
    }
    const alt = this.parseList();
    if (!alt.stop || alt.stop.s !== 'end') throw new TemplateError(`template: line ${line}: expected {{end}} after {{else}} in ${kind}`);
    return { k: kind, pipe, body: body.nodes, alt: alt.nodes } as Node;
  }
}

function parsePipe(toks: Tok[], line: number, src: string): Pipe {
  let i = 0;
  const fail = (msg: string): never => {
    throw new TemplateError(`template: line ${line}: ${msg} in "{{${src}}}"`);
  };
  const decl: string[] = [];
  // Variable declarations: `$x :=`, `$i, $e :=` (range).
  {
    let j = 0;
    const names: string[] = [];
    while (toks[j]?.t === 'var' && (toks[j] as any).path.length === 0) {
      names.push((toks[j] as any).name);
      j++;
      if (toks[j]?.t === 'punct' && (toks[j] as any).v === ',') j++;
      else break;
    }
    if (names.length && toks[j]?.t === 'punct' && ((toks[j] as any).v === ':=' || (toks[j] as any).v === '=')) {
      decl.push(...names);
      i = j + 1;
    }
  }
  const parseOperand = (): Arg => {
    const t = toks[i++];
    if (!t) return fail('missing operand');
    switch (t.t) {
      case 'field':
        return { k: 'field', base: 'dot', path: t.path };
      case 'var':
        return { k: 'field', base: 'var', name: t.name, path: t.path };
      case 'str':
        return { k: 'lit', v: t.v };
      case 'num':
        return { k: 'lit', v: t.v };
      case 'ident':
        if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' };
        if (t.v === 'nil') return { k: 'lit', v: null };
        if (!FUNCS.has(t.v)) return fail(`function "${t.v}" not defined`);
        return { k: 'ident', name: t.v };
      case 'punct': {
        if (t.v !== '(') return fail(`unexpected "${t.v}"`);
        const inner = parseCmds(')');
        if (toks[i]?.t !== 'punct' || (toks[i] as any).v !== ')') return fail('unclosed left paren');
        i++;
        // `(expr).field`: a field token right after `)` continues the path.
        let path: string[] = [];
        const next = toks[i];
        if (next?.t === 'field' && next.chained && next.path.length > 0) {
          path = next.path;
          i++;
        }
        return { k: 'pipe', pipe: { decl: [], cmds: inner }, path };
      }
    }
  };
  const parseCmds = (until?: string): Arg[][] => {
    const cmds: Arg[][] = [];
    let cur: Arg[] = [];
    while (i < toks.length) {
      const t = toks[i];
      if (t.t === 'punct' && t.v === until) break;
      if (t.t === 'punct' && t.v === '|') {
        if (cur.length === 0) fail('missing command before "|"');
        cmds.push(cur);
        cur = [];
        i++;
        continue;
      }
      cur.push(parseOperand());
    }
    if (cur.length) cmds.push(cur);
    else if (cmds.length) fail('missing command after "|"');
    return cmds;
  };
  const cmds = parseCmds();
  if (i < toks.length) fail(`unexpected "${(toks[i] as any).v}"`);
  for (const c of cmds) if (c.length > 1 && c[0].k !== 'ident') fail(`can't give argument to non-function`);
  return { decl, cmds };
}

// ---- execution ----

type Scope = Record<string, unknown>;

function execNodes(nodes: Node[], dot: unknown, scopes: Scope[], out: string[]): void {
  for (const n of nodes) {
    switch (n.k) {
      case 'text':
        out.push(n.s);
        break;
      case 'out': {
        const v = evalPipe(n.pipe, dot, scopes);
        if (n.pipe.decl.length === 0) out.push(formatValue(v));
        break;
      }
      case 'if': {
        const v = evalPipe(n.pipe, dot, scopes);
        if (truthy(v)) execNodes(n.body, dot, scopes, out);
        else if (n.alt) execNodes(n.alt, dot, scopes, out);
        break;
      }
      case 'with': {
        const v = evalPipe(n.pipe, dot, scopes);
        if (truthy(v)) execNodes(n.body, v, scopes, out);
        else if (n.alt) execNodes(n.alt, dot, scopes, out);
        break;
      }
      case 'range': {
        const v = evalPipe({ decl: [], cmds: n.pipe.cmds }, dot, scopes);
        const entries = rangeEntries(v);
        if (entries.length === 0) {
          if (n.alt) execNodes(n.alt, dot, scopes, out);
          break;
        }
        for (const [key, value] of entries) {
          const scope: Scope = {};
          if (n.pipe.decl.length === 1) scope[n.pipe.decl[0]] = value;
          if (n.pipe.decl.length >= 2) {
            scope[n.pipe.decl[0]] = key;
            scope[n.pipe.decl[1]] = value;
          }
          execNodes(n.body, value, [...scopes, scope], out);
        }
        break;
      }
    }
  }
}

function rangeEntries(v: unknown): [unknown, unknown][] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.map((e, i) => [i, e]);
  if (typeof v === 'object') return Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]);
  if (typeof v === 'number' && Number.isInteger(v)) return Array.from({ length: Math.max(0, v) }, (_, i) => [i, i]);
  throw new TemplateError(`template: range can't iterate over ${formatValue(v)}`);
}

function evalPipe(pipe: Pipe, dot: unknown, scopes: Scope[]): unknown {
  let prev: unknown;
  let havePrev = false;
  for (const cmd of pipe.cmds) {
    prev = evalCmd(cmd, dot, scopes, havePrev ? [prev] : []);
    havePrev = true;
  }
  if (pipe.decl.length === 1) scopes[scopes.length - 1][pipe.decl[0]] = prev;
  return prev;
}

function evalCmd(cmd: Arg[], dot: unknown, scopes: Scope[], piped: unknown[]): unknown {
  const head = cmd[0];
  if (head.k === 'ident') {
    const args = cmd.slice(1).map((a) => evalArg(a, dot, scopes));
    return callFunc(head.name, [...args, ...piped]);
  }
  if (piped.length) throw new TemplateError(`template: can't give argument to non-function`);
  return evalArg(head, dot, scopes);
}

function evalArg(a: Arg, dot: unknown, scopes: Scope[]): unknown {
  switch (a.k) {
    case 'lit':
      return a.v;
    case 'ident':
      return callFunc(a.name, []);
    case 'pipe':
      return walk(evalPipe(a.pipe, dot, scopes), a.path, '(...)');
    case 'field': {
      if (a.base === 'dot') return walk(dot, a.path, '');
      const name = a.name!;
      for (let i = scopes.length - 1; i >= 0; i--) {
        if (name in scopes[i]) return walk(scopes[i][name], a.path, name);
      }
      throw new TemplateError(`template: undefined variable "${name}"`);
    }
  }
}

function walk(v: unknown, path: string[], base: string): unknown {
  let cur = v;
  let where = base;
  for (const key of path) {
    where += `.${key}`;
    if (cur === null || cur === undefined) throw new TemplateError(`template: nil pointer evaluating ${where}`);
    if (typeof cur !== 'object' || Array.isArray(cur)) {
      throw new TemplateError(`template: can't evaluate field ${key} in type ${goType(cur)} (at <${where}>)`);
    }
    const obj = cur as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(obj, key)) {
      cur = obj[key];
      continue;
    }
    const lower = key.toLowerCase();
    const alt = Object.keys(obj).find((k) => k.toLowerCase() === lower);
    if (alt === undefined) throw new TemplateError(`template: map has no entry for key "${key}" (at <${where}>)`);
    cur = obj[alt];
  }
  return cur;
}

function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'json.Number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'interface {}';
}

/** Go's truth: numbers decode as json.Number (a non-empty string in crictl), so they are always true. */
function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** Go's %v of a decoded JSON value. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatNested).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${formatNested(o[k])}`).join(' ')}]`;
  }
  return String(v);
}

function formatNested(v: unknown): string {
  return v === null || v === undefined ? '<nil>' : formatValue(v);
}

/** Go's json.Encoder output: sorted keys, HTML-safe escapes, trailing newline. */
export function goJson(v: unknown): string {
  return `${goJsonCompact(v)}\n`;
}

function goJsonCompact(v: unknown): string {
  if (v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(goJsonCompact).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${goJsonString(k)}:${goJsonCompact(o[k])}`).join(',')}}`;
  }
  if (typeof v === 'string') return goJsonString(v);
  return JSON.stringify(v);
}

function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function callFunc(name: string, args: unknown[]): unknown {
  const need = (n: number) => {
    if (args.length !== n) throw new TemplateError(`template: wrong number of args for ${name}: want ${n} got ${args.length}`);
  };
  switch (name) {
    case 'json':
      need(1);
      return goJson(args[0]);
    case 'title':
      need(1);
      return String(args[0]).replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, p, c) => p + c.toUpperCase());
    case 'lower':
      need(1);
      return String(args[0]).toLowerCase();
    case 'upper':
      need(1);
      return String(args[0]).toUpperCase();
    case 'printf':
      if (args.length < 1 || typeof args[0] !== 'string') throw new TemplateError('template: printf needs a format string');
      return sprintf(args[0], args.slice(1));
    case 'print':
      return goPrint(args);
    case 'println':
      return `${args.map(formatNested).join(' ')}\n`;
    case 'len': {
      need(1);
      const v = args[0];
      if (typeof v === 'string') return Buffer.byteLength(v);
      if (Array.isArray(v)) return v.length;
      if (v && typeof v === 'object') return Object.keys(v).length;
      throw new TemplateError(`template: len of ${goType(v)}`);
    }
    case 'index': {
      if (args.length < 1) throw new TemplateError('template: index needs an argument');
      let cur = args[0];
      for (const k of args.slice(1)) {
        if (Array.isArray(cur)) {
          const n = Number(k);
          if (!Number.isInteger(n) || n < 0 || n >= cur.length) throw new TemplateError(`template: index out of range: ${k}`);
          cur = cur[n];
        } else if (cur && typeof cur === 'object') {
          cur = (cur as Record<string, unknown>)[String(k)];
        } else {
          throw new TemplateError(`template: can't index item of type ${goType(cur)}`);
        }
      }
      return cur;
    }
    case 'eq':
      if (args.length < 2) throw new TemplateError('template: eq needs two arguments');
      return args.slice(1).some((b) => compare(args[0], b) === 0);
    case 'ne':
      need(2);
      return compare(args[0], args[1]) !== 0;
    case 'lt':
      need(2);
      return compare(args[0], args[1]) < 0;
    case 'le':
      need(2);
      return compare(args[0], args[1]) <= 0;
    case 'gt':
      need(2);
      return compare(args[0], args[1]) > 0;
    case 'ge':
      need(2);
      return compare(args[0], args[1]) >= 0;
    case 'and': {
      if (args.length < 1) throw new TemplateError('template: and needs arguments');
      for (const a of args) if (!truthy(a)) return a;
      return args[args.length - 1];
    }
    case 'or': {
      if (args.length < 1) throw new TemplateError('template: or needs arguments');
      for (const a of args) if (truthy(a)) return a;
      return args[args.length - 1];
    }
    case 'not':
      need(1);
      return !truthy(args[0]);
  }
  throw new TemplateError(`template: function "${name}" not defined`);
}

function compare(a: unknown, b: unknown): number {
  // JSON int64 values arrive as strings; compare them with numbers numerically.
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b))) b = Number(b);
  if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a))) a = Number(a);
  if (typeof a !== typeof b && a !== null && b !== null) throw new TemplateError(`template: incompatible types for comparison`);
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  if (typeof a === 'boolean' || a === null || b === null) return a === b ? 0 : 1;
  throw new TemplateError('template: invalid type for comparison');
}

/** Go's fmt.Sprint: spaces only between operands when neither is a string. */
function goPrint(args: unknown[]): string {
  let s = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') s += ' ';
    s += formatNested(a);
  });
  return s;
}

/** The common verbs of Go's fmt.Sprintf: %v %s %d %q %t %f %g %x %X %o %b %e %%, with flags, width and precision. */
export function sprintf(format: string, args: unknown[]): string {
  let ai = 0;
  return format.replace(/%([-+# 0]*)(\d+|\*)?(?:\.(\d+|\*))?([a-zA-Z%])/g, (m, flags: string, width?: string, prec?: string, verb?: string) => {
    if (verb === '%') return '%';
    const w = width === '*' ? Number(args[ai++]) : width !== undefined ? Number(width) : undefined;
    const p = prec === '*' ? Number(args[ai++]) : prec !== undefined ? Number(prec) : undefined;
    if (ai >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[ai++];
    let s: string;
    const num = typeof arg === 'number' ? arg : typeof arg === 'string' && arg.trim() !== '' && !Number.isNaN(Number(arg)) ? Number(arg) : undefined;
    switch (verb) {
      case 'v':
      case 's':
        s = formatNested(arg);
        if (p !== undefined) s = s.slice(0, p);
        break;
      case 'q':
        s = typeof arg === 'string' ? JSON.stringify(arg) : `%!q(${formatNested(arg)})`;
        break;
      case 't':
        s = typeof arg === 'boolean' ? String(arg) : `%!t(${formatNested(arg)})`;
        break;
      case 'd':
        s = num !== undefined && Number.isInteger(num) ? String(num) : `%!d(${formatNested(arg)})`;
        if (flags.includes('+') && num !== undefined && num >= 0) s = `+${s}`;
        break;
      case 'f':
      case 'F':
        s = num !== undefined ? num.toFixed(p ?? 6) : `%!f(${formatNested(arg)})`;
        break;
      case 'e':
        s = num !== undefined ? num.toExponential(p ?? 6).replace(/e([+-])(\d)$/, 'e$10$2') : `%!e(${formatNested(arg)})`;
        break;
      case 'g':
        s = num !== undefined ? String(p !== undefined ? Number(num.toPrecision(p)) : num) : `%!g(${formatNested(arg)})`;
        break;
      case 'x':
      case 'X': {
        if (num !== undefined && Number.isInteger(num)) s = num.toString(16);
        else s = Buffer.from(String(arg)).toString('hex');
        if (verb === 'X') s = s.toUpperCase();
        break;
      }
      case 'o':
        s = num !== undefined && Number.isInteger(num) ? num.toString(8) : `%!o(${formatNested(arg)})`;
        break;
      case 'b':
        s = num !== undefined && Number.isInteger(num) ? num.toString(2) : `%!b(${formatNested(arg)})`;
        break;
      default:
        throw new TemplateError(`template: printf: unsupported verb %${verb} in "${m}"`);
    }
    if (w !== undefined && s.length < w) {
      if (flags.includes('-')) s = s.padEnd(w);
      else if (flags.includes('0') && verb !== 's' && verb !== 'v' && verb !== 'q') s = s.startsWith('-') ? `-${s.slice(1).padStart(w - 1, '0')}` : s.padStart(w, '0');
      else s = s.padStart(w);
    }
    return s;
  }) + (ai < args.length ? `%!(EXTRA ${args.slice(ai).map((a) => `${goType(a)}=${formatNested(a)}`).join(', ')})` : '');
}
