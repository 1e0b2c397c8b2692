// SPDX-License-Identifier: MIT
// The benchmark's Node contender: JSON.parse, the RFC 8785 `canonicalize`
// package (pinned in bench/package.json) and node:crypto's SHA-256.
//
//   node peers.js JOB FILE   (FILE is JSON Lines; one result line per line)
//
// JOB: render | digest | messages_digest | message_digest, as in peers.py.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const canonicalize = require(path.join(__dirname, 'node_modules', 'canonicalize'));

const sha = (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

function messageDigest(m) {
  const kept = {};
  for (const [k, v] of Object.entries(m)) {
    if (v !== null && k !== 'extra') kept[k] = v;
  }
  return sha(canonicalize(kept));
}

const JOBS = {
  render: (v) => canonicalize(v),
  digest: (v) => sha(canonicalize(v)),
  messages_digest: (a) => sha(a.map(messageDigest).join('')),
  message_digest: messageDigest,
};

function main(job, file) {
  const fn = JOBS[job];
  if (!fn) throw new Error(`unknown job ${job}`);
  const buf = fs.readFileSync(file);
  const out = fs.openSync('/dev/stdout', 'w');
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    if (end > start) {
      fs.writeSync(out, fn(JSON.parse(buf.toString('utf8', start, end))) + '\n');
    }
    start = end + 1;
  }
}

main(process.argv[2], process.argv[3]);
