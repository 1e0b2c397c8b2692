// SPDX-License-Identifier: MIT
// diff_canonicalize.js - the Node half of sql.diff_canonicalize: writes
// random JSON documents, each with its RFC 8785 rendering by the
// `canonicalize` package (pinned in package.json), one JSON line per
// document: {"text": <document as sent>, "canonical": <reference>}.
//
//   node diff_canonicalize.js SEED COUNT
//
// The documents use astral characters, odd member names (empty, unicode,
// escapes, names that differ only past U+FFFF or only in UTF-16 order), edge
// numbers spelled many ways, deep nesting, random whitespace and member
// order.  Member names hold no lone surrogate; some string values do (docs/contract.md
// §5: written as JSON.stringify writes them).  No number overflows a double
// (canonicalize cannot take Infinity).
'use strict';

const canonicalize = require('canonicalize');

const seed = Number(process.argv[2] || 1);
const count = Number(process.argv[3] || 5000);

// mulberry32: a small seeded generator, so every run writes the same documents.
let state = seed >>> 0;
function random () {
  state = (state + 0x6D2B79F5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n) => Math.floor(random() * n);
const pick = (list) => list[below(list.length)];
const chance = (p) => random() < p;

const EDGE_NUMBERS = [
  '0', '-0', '0.0', '-0.0', '0e5', '1', '-1', '1.0', '1E+2', '1e2', '10E-1',
  '1e21', '1e20', '999999999999999999999', '1e-7', '0.000001', '0.0000001',
  '1e-400', '-1e-400', '5e-324', '-5e-324', '2.5e-324', '2e-324',
  '1.7976931348623157e308', '1.7976931348623158e308', '-1.7976931348623157E+308',
  '2.2250738585072011e-308', '2.2250738585072014e-308',
  '9007199254740993', '9007199254740992', '-9007199254740993',
  '1234567890123456789012345678901234567890', '0.1', '0.30000000000000004',
  '123e-2', '4.35', '4.50', '2e-3', '1e23', '9.999999999999997e22',
  '333333333.33333329', '-0.0000033333333333333333', '1424953923781206.2',
  '295147905179352825856', '0.000000000000000000000000001', '1E30',
  '0.1000000000000000055511151231257827021181583404541015625'
];

function digits (n, first) {
  let s = first ? String(1 + below(9)) : '';
  while (s.length < n) s += String(below(10));
  return s;
}

// A number lexeme that JSON.parse reads as a finite double.
function numberLexeme () {
  for (;;) {
    let s;
    const r = random();
    if (r < 0.25) {
      s = pick(EDGE_NUMBERS);
    } else if (r < 0.55) {
      // a random double, written by ECMAScript and then respelled
      const buf = new DataView(new ArrayBuffer(8));
      buf.setUint32(0, Math.floor(random() * 4294967296));
      buf.setUint32(4, Math.floor(random() * 4294967296));
      const v = buf.getFloat64(0);
      if (!Number.isFinite(v)) continue;
      s = String(v);
      if (chance(0.3)) s = s.replace('e+', pick(['e', 'E', 'E+']));
      if (chance(0.2) && !s.includes('e') && s.includes('.')) s += '0'.repeat(1 + below(3));
    } else if (r < 0.75) {
      s = (chance(0.3) ? '-' : '') + (chance(0.2) ? '0' : digits(1 + below(25), true));
    } else {
      s = (chance(0.3) ? '-' : '') + (chance(0.3) ? '0' : digits(1 + below(20), true));
      if (chance(0.7)) s += '.' + digits(1 + below(25), false);
      if (chance(0.7)) s += pick(['e', 'E']) + pick(['', '+', '-']) + String(below(340));
    }
    if (Number.isFinite(Number(s))) return s;
  }
}

const NAMES = [
  '', 'a', 'A', 'b', 'aa', 'ab', 'a\u0000', 'a\u0000b', '_', '1', '10', '2',
  '\u00e9', 'e\u0301', '\u0080', '\u007f', '\u20ac', '\ufb33', '\uffff',
  '\ue000', '\uffef', '\u{1F600}', '\u{1F601}', '\u{10000}', '\u{10FFFF}',
  'x\u{1F600}', 'x\uffff', 'x\ue000', 'k\u{1F600}', 'k\u{1F601}', 'k\u{1F638}',
  '\t', '\n', '\r', '"', '\\', '/', '\b', '\f', '\u001f', '\u2028',
  'properties', 'required', 'type', '__proto__', 'constructor', 'toString',
  '\u{1D165}', '\u0301', '\u05d0\u05d1', '\u4e2d\u6587', 'caf\u00e9', 'cafe\u0301'
];

const CHARS = [
  'a', 'z', 'Q', ' ', '0', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t',
  '\u0000', '\u0001', '\u001f', '\u007f', '\u0080', '\u00e9', '\u0301',
  '\u0302', '\u034f', '\u2028', '\u2029', '\u20ac', '\ud7ff', '\ue000',
  '\ufeff', '\uffff', '\u{10000}', '\u{1D165}', '\u{1F600}', '\u{10FFFF}',
  '\u4e2d', '\u05d0'
];

const LONE = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00'];

// A random string; with lone, it may hold lone surrogates (never a high one
// right before a low one, which would make a pair).
function randomString (maxLen, lone) {
  let s = '';
  const n = below(maxLen + 1);
  for (let k = 0; k < n; k++) {
    let ch = chance(0.5) ? pick(CHARS) : String.fromCharCode(0x20 + below(0x5f));
    if (lone && chance(0.1)) ch = pick(LONE);
    const last = s.charCodeAt(s.length - 1);
    const first = ch.charCodeAt(0);
    if (last >= 0xD800 && last <= 0xDBFF && first >= 0xDC00 && first <= 0xDFFF) s += 'x';
    s += ch;
  }
  return s;
}

function hex4 (code) {
  const h = code.toString(16).padStart(4, '0');
  return chance(0.5) ? h : h.toUpperCase();
}

// The JSON spelling of a string, each character spelled one of the ways
// RFC 8259 allows, chosen at random.
function writeString (s) {
  const SHORT = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    const mustEscape = cp < 0x20 || ch === '"' || ch === '\\' || (cp >= 0xD800 && cp <= 0xDFFF);
    const r = random();
    if (SHORT[ch] !== undefined && (mustEscape ? r < 0.7 : r < 0.3)) {
      out += SHORT[ch];
    } else if (ch === '/' && r < 0.5) {
      out += '\\/';
    } else if (mustEscape || r < 0.15) {
      if (cp > 0xFFFF) {
        out += '\\u' + hex4(ch.charCodeAt(0)) + '\\u' + hex4(ch.charCodeAt(1));
      } else {
        out += '\\u' + hex4(cp);
      }
    } else {
      out += ch;
    }
  }
  return out + '"';
}

function ws () {
  if (chance(0.6)) return '';
  let s = '';
  const n = 1 + below(3);
  for (let k = 0; k < n; k++) s += pick([' ', '\t', '\n', '\r']);
  return s;
}

function shuffle (list) {
  for (let k = list.length - 1; k > 0; k--) {
    const j = below(k + 1);
    [list[k], list[j]] = [list[j], list[k]];
  }
  return list;
}

// A random value written straight to JSON text (no JSON.stringify), so the
// spelling varies: returns the text.
function writeValue (depth) {
  const r = random();
  if (depth > 0 && r < 0.22) {
    const n = below(6);
    const parts = [];
    for (let k = 0; k < n; k++) parts.push(ws() + writeValue(depth - 1) + ws());
    return '[' + (n ? parts.join(',') : ws()) + ']';
  }
  if (depth > 0 && r < 0.45) {
    const n = below(7);
    const names = new Set();
    while (names.size < n) names.add(chance(0.7) ? pick(NAMES) : randomString(4, false));
    const members = shuffle([...names]).map(
      (name) => ws() + writeString(name) + ws() + ':' + ws() + writeValue(depth - 1) + ws());
    return '{' + (n ? members.join(',') : ws()) + '}';
  }
  if (r < 0.70) return numberLexeme();
  if (r < 0.92) return writeString(randomString(12, chance(0.2)));
  return pick(['true', 'false', 'null']);
}

// A chain of `depth` containers around one scalar (arrays and objects mixed).
function writeDeep (depth) {
  let open = '';
  let close = '';
  for (let k = 0; k < depth; k++) {
    if (chance(0.5)) {
      open += '[' + ws();
      close = ws() + ']' + close;
    } else {
      const name = writeString(pick(NAMES));
      open += '{' + ws() + name + ws() + ':' + ws();
      close = ws() + '}' + close;
    }
  }
  return open + writeValue(0) + close;
}

for (let k = 0; k < count; k++) {
  let text;
  if (k % 500 === 7) {
    text = writeDeep(k % 1000 === 7 ? 1000 : 300 + below(700));
  } else {
    text = ws() + writeValue(1 + below(6)) + ws();
  }
  const canonical = canonicalize(JSON.parse(text));
  process.stdout.write(JSON.stringify({ text, canonical }) + '\n');
}
