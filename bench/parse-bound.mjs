// The lower bound of `gate ci`: parse the same SARIF file and read the same git diff, nothing else.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [sarif, repo, from, to] = process.argv.slice(2);
const log = JSON.parse(readFileSync(sarif, 'utf8'));
if (!Array.isArray(log.runs)) throw new Error('not SARIF');
await new Promise((resolve, reject) => {
  const child = spawn('git', ['-C', repo, 'diff', '--no-color', '--find-renames', '--unified=0', from, to], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', () => {});
  child.on('error', reject);
  child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git diff exited ${code}`))));
});
