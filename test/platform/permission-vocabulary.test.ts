import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseTokenPermissions } from '../../server/broker/settings.js';
import { BEYOND_REPOSITORY_PERMISSIONS, REPOSITORY_PERMISSIONS } from '../../server/platform/permission-vocabulary.js';

// GitHub's published REST descriptions (devDependency @octokit/openapi): api.github.com, and the
// GHEC and GHES ones an enterprise platform may speak. The non-dereferenced files are enough
// (`app-permissions` has no references) and each is read once; never from server code (hundreds of MB).
const GENERATED = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated');
const FILES = readdirSync(GENERATED).filter((f) => f.endsWith('.json') && !f.endsWith('.deref.json'));

interface Property {
  readonly name: string;
  readonly values: readonly string[];
}

/** `components.schemas["app-permissions"]` in GitHub's order: name and `enum` of each property. */
function appPermissions(file: string): Property[] {
  const doc = JSON.parse(readFileSync(join(GENERATED, file), 'utf8')) as {
    components: { schemas: Record<string, { properties?: Record<string, { type?: string; enum?: string[] }> }> };
  };
  const properties = doc.components.schemas['app-permissions']?.properties;
  assert.ok(properties, `${file} has no app-permissions schema`);
  return Object.entries(properties).map(([name, p]) => {
    assert.equal(p.type, 'string', `${file}: ${name}`);
    assert.ok(Array.isArray(p.enum) && p.enum.length > 0, `${file}: ${name} lists no values`);
    return { name, values: p.enum };
  });
}

/**
 * GitHub's repository permissions, as the schema shows them. It has no field naming a
 * permission's level, and the descriptions do not say it reliably (`interaction_limits`, an
 * account permission, is described as "on a repository"). What it keeps is the grouping of
 * GitHub's documentation: the repository permissions first, sorted by name, then the
 * organization, account and enterprise ones. So the repository block ends where the order breaks.
 */
function repositoryBlock(properties: readonly Property[]): string[] {
  let end = 1;
  while (end < properties.length && properties[end - 1]!.name < properties[end]!.name) end++;
  return properties.slice(0, end).map((p) => p.name);
}

const table = (name: string): readonly string[] | undefined =>
  Object.hasOwn(REPOSITORY_PERMISSIONS, name) ? REPOSITORY_PERMISSIONS[name] : Object.hasOwn(BEYOND_REPOSITORY_PERMISSIONS, name) ? BEYOND_REPOSITORY_PERMISSIONS[name] : undefined;

describe("permission vocabulary against GitHub's REST description", () => {
  const described = new Map<string, Property[]>();
  before(() => {
    for (const file of FILES) described.set(file, appPermissions(file));
  });

  it('reads the api.github.com description (and the enterprise ones beside it)', () => {
    assert.ok(FILES.includes('api.github.com.json'), FILES.join(', '));
    assert.ok(described.get('api.github.com.json')!.length >= 40);
  });

  for (const file of FILES) {
    describe(file, () => {
      it("every permission it lists is in the table with exactly GitHub's values", () => {
        for (const { name, values } of described.get(file)!) {
          assert.deepEqual(table(name), values, `${name}: the table says ${JSON.stringify(table(name))}, GitHub ${JSON.stringify(values)}`);
        }
      });

      it("the table's repository permissions are exactly GitHub's repository block", () => {
        const block = repositoryBlock(described.get(file)!);
        // Anchors of the derivation itself: if GitHub's layout changes, this fails rather than misleads.
        assert.ok(block.includes('contents') && block.includes('workflows') && !block.includes('members'), block.join(' '));
        assert.ok(block.every((name) => !/organization|enterprise/.test(name)), block.join(' '));
        assert.deepEqual([...block].sort(), Object.keys(REPOSITORY_PERMISSIONS).sort());
      });
    });
  }

  it('every name in the table is one GitHub lists, and no name is in both tables', () => {
    const listed = new Set([...described.values()].flat().map((p) => p.name));
    for (const name of [...Object.keys(REPOSITORY_PERMISSIONS), ...Object.keys(BEYOND_REPOSITORY_PERMISSIONS)]) {
      assert.ok(listed.has(name), `${name} is in no description of GitHub's`);
      assert.ok(!(Object.hasOwn(REPOSITORY_PERMISSIONS, name) && Object.hasOwn(BEYOND_REPOSITORY_PERMISSIONS, name)), name);
    }
  });

  it("TOKEN_PERMISSIONS takes a name and value exactly when GitHub lists it among the repository permissions (admin never: spec rule 1)", () => {
    const properties = described.get('api.github.com.json')!;
    const repository = new Set(repositoryBlock(properties));
    for (const { name, values } of properties) {
      for (const access of ['read', 'write', 'admin']) {
        const expected = repository.has(name) && values.includes(access) && access !== 'admin';
        let accepted: boolean;
        try {
          accepted = parseTokenPermissions(`${name}=${access}`)[name] === access;
        } catch {
          accepted = false;
        }
        assert.equal(accepted, expected, `${name}=${access}`);
      }
    }
  });
});
