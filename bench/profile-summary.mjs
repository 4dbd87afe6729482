// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, so a
// benchmark's profile can be read before anything is optimised. Usage: node bench/profile-summary.mjs <file> [top]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const where = (url) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node core';
  return /\/(build|bench|server)\//.test(url) ? 'gatehouse' : url;
};
const fn = new Map();
const pkg = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '')}:${callFrame.lineNumber + 1}`;
  fn.set(name, (fn.get(name) ?? 0) + us);
  pkg.set(where(callFrame.url), (pkg.get(where(callFrame.url)) ?? 0) + us);
}
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
};
show('self time by package', pkg);
show('self time by function', fn);
