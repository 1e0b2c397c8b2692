// SPDX-License-Identifier: MIT
// number_diff.js - the number code against Node's own conversions.
//
// Usage: node number_diff.js <path to number_driver> [count scale]
//
// Generates, from a fixed seed, doubles of every kind (random bit patterns,
// short decimals, integers near 2^53, subnormals, powers of two and ten, and
// the neighbours of each a few bit steps away) and checks that
// wj_number_format writes String(x).  Then generates decimal lexemes (random
// digits and exponents, and exact midpoints between neighbouring doubles
// with the digits just above and below them, and plain decimals of 1 to 17
// digits) and checks that
// wj_number_parse gives the bits of Number(lexeme) and that
// wj_number_canonical writes String(Number(lexeme)), or fails on infinity.
// The driver inherits WJ_TEST_LOCALE from the environment.
'use strict';

const { spawnSync } = require('child_process');

const driver = process.argv[2];
if (!driver) {
    console.error('usage: node number_diff.js <number_driver> [scale]');
    process.exit(2);
}
const scale = Number(process.argv[3] || 1);

// ------------------------------------------------------------ random source

// xorshift128+ on BigInt would be slow; sfc32 gives 32-bit draws quickly.
let sa = 0x9e3779b9, sb = 0x243f6a88, sc = 0xb7e15162, sd = 1;
function rand32() {
    const t = (((sa + sb) | 0) + sd) | 0;
    sd = (sd + 1) | 0;
    sa = sb ^ (sb >>> 9);
    sb = (sc + (sc << 3)) | 0;
    sc = (sc << 21) | (sc >>> 11);
    sc = (sc + t) | 0;
    return t >>> 0;
}
function below(n) { // 0 <= r < n, n <= 2^32
    return Math.floor((rand32() / 4294967296) * n);
}
for (let i = 0; i < 32; i++) rand32();

// ------------------------------------------------------------ double bits

const view = new DataView(new ArrayBuffer(8));
function fromBits(hi, lo) {
    view.setUint32(0, hi >>> 0);
    view.setUint32(4, lo >>> 0);
    return view.getFloat64(0);
}
function bitsHex(x) {
    view.setFloat64(0, x);
    return view.getUint32(0).toString(16).padStart(8, '0') +
        view.getUint32(4).toString(16).padStart(8, '0');
}
// The double k bit patterns away from x (k may be negative), or null when
// that leaves the finite doubles of x's sign.
function stepped(x, k) {
    view.setFloat64(0, x);
    let b = view.getBigUint64(0);
    const sign = b >> 63n;
    let mag = b & 0x7fffffffffffffffn;
    mag += BigInt(k);
    if (mag < 0n || mag >= 0x7ff0000000000000n) return null;
    view.setBigUint64(0, (sign << 63n) | mag);
    return view.getFloat64(0);
}

// ---------------------------------------------------------------- doubles

function formatCases() {
    const xs = [];
    const withNeighbours = (x) => {
        for (let k = -3; k <= 3; k++) {
            const y = stepped(x, k);
            if (y !== null) xs.push(y, -y);
        }
    };
    // Random bit patterns over the whole finite range.
    for (let i = 0; i < 50000 * scale; i++) {
        let hi;
        do hi = rand32(); while (((hi >>> 20) & 0x7ff) === 0x7ff);
        xs.push(fromBits(hi, rand32()));
    }
    // Short decimals, as people write them.
    for (let i = 0; i < 15000 * scale; i++) {
        const digits = 1 + below(17);
        let m = String(1 + below(9));
        while (m.length < digits) m += String(below(10));
        xs.push(Number(m + 'e' + (below(61) - 30 - digits)));
    }
    // Integers near 2^53 and up to 2^64, and below 10^21.
    for (let i = 0; i < 5000 * scale; i++) {
        xs.push(2 ** 53 + below(20001) - 10000);
        xs.push(Number(BigInt(rand32()) << 32n | BigInt(rand32())));
        xs.push(Math.floor(rand32() * 1e12 + below(1e6)));
    }
    // Subnormals: all the smallest, then random ones.
    for (let c = 1; c <= 300; c++) xs.push(fromBits(0, c), -fromBits(0, c));
    for (let i = 0; i < 5000 * scale; i++)
        xs.push(fromBits(below(0x100000), rand32()));
    // Powers of two and ten, and their neighbours.
    for (let e = -1074; e <= 1023; e++) withNeighbours(2 ** e);
    for (let e = -323; e <= 308; e++) withNeighbours(Number('1e' + e));
    // Layout edges: around 1e21 and 1e-7 and between.
    for (const x of [1e21, 1e-6, 1e-7, 1e20, 123456789012345680000, 0.1])
        for (let k = -50; k <= 50; k++) {
            const y = stepped(x, k);
            if (y !== null) xs.push(y);
        }
    xs.push(0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE);
    return xs;
}

// ---------------------------------------------------------------- lexemes

function randomDigits(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += String(below(10));
    return s;
}

// A random RFC 8259 lexeme: up to 40 digits, exponent -400..400.
function randomLexeme() {
    const sign = below(4) === 0 ? '-' : '';
    const n = 1 + below(40);
    let digits = randomDigits(n);
    const point = below(n + 1); // digits before the point
    let intPart = digits.slice(0, point).replace(/^0+/, '') || '0';
    let frac = digits.slice(point);
    if (below(8) === 0) frac = '0'.repeat(below(30)) + frac; // leading zeros
    let lex = sign + intPart + (frac ? '.' + frac : '');
    if (below(5) !== 0) {
        const e = below(801) - 400;
        const mark = below(2) ? 'e' : 'E';
        const esign = e < 0 ? '-' : (below(2) ? '+' : '');
        lex += mark + esign + String(Math.abs(e));
    }
    return lex;
}

// The exact decimal spelling of m * 2^e for BigInts m >= 0, e.
function exactDecimal(m, e) {
    if (e >= 0n) return (m << e).toString();
    const s = (m * 5n ** -e).toString();
    const places = Number(-e);
    const padded = s.padStart(places + 1, '0');
    const int = padded.slice(0, padded.length - places);
    const frac = padded.slice(padded.length - places).replace(/0+$/, '');
    return frac ? int + '.' + frac : int;
}

// The midpoint between the finite x > 0 and the next double up, exactly.
function midpointAbove(x) {
    view.setFloat64(0, x);
    const b = view.getBigUint64(0);
    const be = (b >> 52n) & 0x7ffn;
    const frac = b & 0xfffffffffffffn;
    const m = be === 0n ? frac : frac | (1n << 52n);
    const e = (be === 0n ? 1n : be) - 1075n;
    return exactDecimal(2n * m + 1n, e - 1n);
}

// The first n significant digits of an exact decimal string (no
// exponent), as [digits, e] with value ~ digits * 10^e.
function leadingDigits(dec, n) {
    const [int, frac = ''] = dec.split('.');
    const all = (int + frac).replace(/^0+/, '');
    const lead = all.slice(0, n);
    return [lead, all.length - lead.length - frac.length];
}

// A decimal just above or below an exact decimal string (no exponent).
function nudged(dec, up) {
    const withPoint = dec.includes('.') ? dec : dec + '.';
    if (up) return withPoint + '0'.repeat(below(30)) + '1';
    // Below: borrow from the last digit, then pad with nines.
    const chars = withPoint.split('');
    let i = chars.length - 1;
    while (chars[i] === '.' || chars[i] === '0') {
        if (chars[i] === '0') chars[i] = '9';
        i--;
    }
    chars[i] = String(Number(chars[i]) - 1);
    let s = chars.join('');
    if (s.endsWith('.')) s = s.slice(0, -1);
    s = s.replace(/^0+(?=\d)/, '');
    return (s.includes('.') ? s : s + '.') + '9'.repeat(1 + below(30));
}

function parseCases() {
    const lexemes = [];
    for (let i = 0; i < 20000 * scale; i++) lexemes.push(randomLexeme());
    // Midpoints: exact ties and the nearest decimals on either side.
    const pick = () => {
        switch (below(4)) {
        case 0: return fromBits(below(0x7fefffff), rand32());
        case 1: return fromBits(below(0x100000), rand32()); // subnormal
        case 2: return Number(randomDigits(1 + below(17)) + 'e' +
                              (below(40) - 20)) || 1;
        default: return 2 ** (below(2098) - 1074);
        }
    };
    for (let i = 0; i < 1500 * scale; i++) {
        const mid = midpointAbove(pick());
        const sign = below(2) ? '-' : '';
        lexemes.push(sign + mid, sign + nudged(mid, true),
                     sign + nudged(mid, false));
    }
    // Midpoints cut to 16..19 significant digits, and one unit above: the
    // short lexemes whose rounding is closest to a tie.
    for (let i = 0; i < 5000 * scale; i++) {
        const x = pick();
        if (!(x > 0) || x >= Number.MAX_VALUE) continue;
        const [cut, exp] = leadingDigits(midpointAbove(x), 16 + below(4));
        lexemes.push(cut + 'e' + exp);
        lexemes.push(String(BigInt(cut) + 1n) + 'e' + exp);
    }
    // Integers between 2^53 and 2^64 halfway between two doubles: exact
    // ties, spelled plainly and with the point moved.
    for (let i = 0; i < 3000 * scale; i++) {
        const j = BigInt(1 + below(11));
        const k = (1n << 52n) + (BigInt(rand32()) << 20n | BigInt(below(1 << 20)));
        const tie = ((2n * k + 1n) << (j - 1n)).toString();
        lexemes.push(tie, tie[0] + '.' + tie.slice(1) + 'e' + (tie.length - 1));
    }
    // Plain decimals around the ones written as they are (at most 15
    // significant digits, no zero ending the fraction, from 10^-6 on): 1 to
    // 17 digits, up to 8 zeros after "0.", trailing zeros now and then.
    for (let i = 0; i < 5000 * scale; i++) {
        const sign = below(3) === 0 ? '-' : '';
        const n = 1 + below(17);
        const digits = String(1 + below(9)) + randomDigits(n - 1);
        const point = below(n + 1);
        const tail = below(4) === 0 ? '0'.repeat(1 + below(3)) : '';
        let lex;
        if (point === 0)
            lex = '0.' + '0'.repeat(below(9)) + digits + tail;
        else if (point === n)
            lex = digits + (tail ? '.' + tail : '');
        else
            lex = digits.slice(0, point) + '.' + digits.slice(point) + tail;
        lexemes.push(sign + lex);
    }
    // Short digits spelled every way, at every exponent: 1 to 16
    // significant digits, zeros before and after them, with and without a
    // point, and an exponent that takes the value from the subnormals past
    // the largest double (the short path's bounds are 10^-307 and 10^308).
    for (let i = 0; i < 5000 * scale; i++) {
        const sign = below(3) === 0 ? '-' : '';
        const n = 1 + below(16);
        const digits = String(1 + below(9)) + randomDigits(n - 1);
        const lead = below(3) === 0 ? '0.' + '0'.repeat(below(4)) : '';
        const tail = below(3) === 0 ? '0'.repeat(1 + below(4)) : '';
        let body = lead + digits + tail;
        if (!lead && below(2)) {
            const point = 1 + below(body.length);
            body = body.slice(0, point) + (point < body.length ? '.' + body.slice(point) : '');
        }
        const e = below(2) ? below(681) - 340 : below(41) - 20;
        const mark = below(2) ? 'e' : 'E';
        const esign = e < 0 ? '-' : (below(2) ? '+' : '');
        lexemes.push(sign + body + (below(6) ? mark + esign + String(Math.abs(e)) : ''));
    }
    // The edges of the range.
    lexemes.push(midpointAbove(Number.MAX_VALUE),
                 nudged(midpointAbove(Number.MAX_VALUE), false),
                 midpointAbove(0), nudged(midpointAbove(0), true),
                 '1e400', '-1e400', '1e-400', '-1e-400', '0', '-0', '-0.0');
    return lexemes;
}

// ----------------------------------------------------------------- compare

function runDriver(lines) {
    const r = spawnSync(driver, [], {
        input: lines.join('\n') + '\n',
        maxBuffer: 1 << 30,
        encoding: 'utf8',
    });
    if (r.error) throw r.error;
    if (r.status !== 0) {
        process.stderr.write(r.stderr);
        console.error(`number_diff: driver exited with ${r.status}`);
        process.exit(1);
    }
    const out = r.stdout.split('\n');
    out.pop();
    if (out.length !== lines.length) {
        console.error(`number_diff: ${lines.length} requests, ` +
                      `${out.length} answers`);
        process.exit(1);
    }
    return out;
}

// The driver refuses to start when it cannot switch to WJ_TEST_LOCALE.
const probe = spawnSync(driver, [], { input: '', encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
    process.stderr.write(probe.stderr || String(probe.error) + '\n');
    console.error('number_diff: the driver cannot run' +
                  (process.env.WJ_TEST_LOCALE ?
                   ` under ${process.env.WJ_TEST_LOCALE} (generate that ` +
                   'locale, e.g. localedef -i de_DE -f UTF-8 de_DE.UTF-8)' :
                   ''));
    process.exit(1);
}

let failures = 0;
function fail(what) {
    if (++failures <= 20) console.error(what);
}

const xs = formatCases();
const formatted = runDriver(xs.map((x) => 'f ' + bitsHex(x)));
xs.forEach((x, i) => {
    if (formatted[i] !== String(x))
        fail(`format ${bitsHex(x)}: expected ${String(x)}, ` +
             `got ${formatted[i]}`);
});

const lexemes = parseCases();
const parsed = runDriver(lexemes.map((l) => 'p ' + l));
lexemes.forEach((lex, i) => {
    const x = Number(lex);
    const want = isFinite(x) ? bitsHex(x) + ' ' + String(x) : 'inf !';
    if (parsed[i] !== want)
        fail(`parse ${lex.length > 90 ? lex.slice(0, 90) + '...' : lex}: ` +
             `expected ${want}, got ${parsed[i]}`);
});

const where = process.env.WJ_TEST_LOCALE ?
    ` under ${process.env.WJ_TEST_LOCALE}` : '';
console.log(`number_diff${where}: ${xs.length} doubles formatted, ` +
            `${lexemes.length} lexemes parsed, ${failures} differ`);
process.exit(failures ? 1 : 0);
