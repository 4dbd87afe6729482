import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { REPO_ROOT } from '../support/processes.js';
import { anchors, docFiles, links, readDoc, slug } from './markdown.js';

describe('documentation links', () => {
  it('slugs headings as GitHub does', () => {
    assert.equal(slug('Delivery figures (`GET /v1/deployments/metrics`)'), 'delivery-figures-get-v1deploymentsmetrics');
    assert.equal(slug('Trust policies (`BROKER_POLICY`)'), 'trust-policies-broker_policy');
    assert.equal(slug("Uploads and DefectDojo's size limit"), 'uploads-and-defectdojos-size-limit');
    assert.equal(slug('`/token`, step by step'), 'token-step-by-step');
  });

  it('every relative link and #anchor of the README, docs/ and the action READMEs resolves', () => {
    const broken: string[] = [];
    for (const file of docFiles()) {
      for (const { target, line } of links(readDoc(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        const where = `${file}:${line} → ${target}`;
        if (resolved.startsWith('..') || !existsSync(join(REPO_ROOT, resolved))) {
          broken.push(`${where}: no ${resolved}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!resolved.endsWith('.md') || statSync(join(REPO_ROOT, resolved)).isDirectory()) {
          broken.push(`${where}: an anchor into a file that is not Markdown`);
        } else if (!anchors(readDoc(resolved)).has(anchor)) {
          broken.push(`${where}: ${resolved} has no heading #${anchor}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
