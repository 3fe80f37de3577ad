// jit-hot.js - two hot JavaScript functions with a known split of the work
//
// SPDX-License-Identifier: GPL-3.0-or-later

'use strict';
// Two hot functions whose split of the work is known: hotTwice does twice
// the loop iterations of hotOnce per call, the same work per iteration.
function hotOnce(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s * 31 + i) % 1000003;
  return s;
}
function hotTwice(n) {
  let s = 0;
  for (let i = 0; i < 2 * n; i++) s = (s * 37 + i) % 1000003;
  return s;
}
function main() {
  const rounds = Number(process.argv[2] || 20);
  let r = 0;
  for (let k = 0; k < rounds; k++) {
    r += hotOnce(2000000);
    r += hotTwice(2000000);
  }
  console.log(r);
}
main();
