import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { rootCertificates } from 'node:tls';

/** A value an app private key setting might hold, and how the broker should take it. */
export interface RefusedKey {
  readonly name: string;
  readonly value: string;
  /** The problem the refusal states (after the setting's name). */
  readonly problem: RegExp;
  /** Other PEM texts the value was made from, whose material must not be echoed either. */
  readonly material: readonly string[];
}

export interface AppKeyCases {
  /** The key every accepted form holds. */
  readonly rsa: KeyObject;
  readonly pkcs1: string;
  readonly pkcs8: string;
  readonly accepted: readonly (readonly [name: string, value: string])[];
  readonly refused: readonly RefusedKey[];
}

const toPem = (key: KeyObject, type: 'pkcs1' | 'pkcs8' | 'sec1' | 'spki'): string => key.export({ type, format: 'pem' } as never).toString();
const oneLine = (pem: string): string => pem.trim().replace(/\n/g, '\\n');
const lines = (pem: string): string[] => pem.trim().split('\n');

/** The same body with one base64 character changed inside the modulus: still loads, no longer signs right. */
function swappedInModulus(pem: string): string {
  const all = lines(pem);
  const line = all[2]!;
  all[2] = line.slice(0, 10) + (line[10] === 'A' ? 'B' : 'A') + line.slice(11);
  return all.join('\n');
}

export const NO_HEADER = /has no PEM header/;
export const NOT_PRIVATE = /holds a PEM (public key|certificate), not a private key/;
export const NOT_RSA = /holds a private key of type (EC|Ed25519|RSA-PSS), not RSA: GitHub App JWTs are signed with RS256/;
export const ESCAPED_UNREADABLE = /is one line with \\n escapes, but once they are decoded the private key still cannot be read: its base64 body is damaged/;
export const UNREADABLE = /holds a PEM private key that cannot be read: its base64 body is damaged/;
export const ENCRYPTED = /holds an encrypted private key and the broker takes no passphrase/;

/**
 * Real keys (generated here) as people paste them, and the values the broker must refuse: each
 * with the problem its refusal states.
 */
export function appKeyCases(): AppKeyCases {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pkcs1 = toPem(rsa.privateKey, 'pkcs1');
  const pkcs8 = toPem(rsa.privateKey, 'pkcs8');
  const crlf = pkcs1.replace(/\n/g, '\r\n');
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const ed25519 = toPem(generateKeyPairSync('ed25519').privateKey, 'pkcs8');
  const rsaPss = toPem(generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey, 'pkcs8');
  const small = toPem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, 'pkcs1');
  const encrypted = (type: 'pkcs1' | 'pkcs8') =>
    rsa.privateKey.export({ type, format: 'pem', cipher: 'aes-256-cbc', passphrase: 'correct horse' }).toString();
  // The armour around a body with characters no base64 has, once in each form.
  const damaged = lines(pkcs1)
    .map((line, i) => (i === 3 ? `${line.slice(0, 20)}!!!!${line.slice(24)}` : line))
    .join('\n');

  const accepted: [string, string][] = [
    ['a real multi-line PEM, PKCS#1 (as GitHub issues it)', pkcs1],
    ['a real multi-line PEM, PKCS#8', pkcs8],
    ['one line with \\n escapes, no trailing \\n', oneLine(pkcs1)],
    ['one line with \\n escapes ending in \\n (a JSON-encoded .pem without its quotes)', JSON.stringify(pkcs1).slice(1, -1)],
    ['the JSON string as pasted, quotes included', JSON.stringify(pkcs1)],
    ['the JSON string with whitespace around it', `  ${JSON.stringify(pkcs8)} \n`],
    ['one line in single quotes', `'${oneLine(pkcs1)}'`],
    ['one PKCS#8 line with \\n escapes', oneLine(pkcs8)],
    ['Windows line ends', crlf],
    ['a JSON-encoded .pem with Windows line ends (\\r\\n escapes)', JSON.stringify(crlf)],
    ['blank lines before and after', `\n\n${pkcs1}\n\n\n`],
    ['indented, as in a YAML block', lines(pkcs1).map((l) => `    ${l}`).join('\n')],
    ['line ends turned into spaces by a one-line input', lines(pkcs1).join(' ')],
    ['JSON-encoded with escaped slashes (\\/)', JSON.stringify(pkcs1).replace(/\//g, '\\/')],
    ['JSON-encoded twice', JSON.stringify(JSON.stringify(pkcs8))],
  ];

  const refused: RefusedKey[] = [
    { name: 'text without a PEM header', value: 'hunter2-not-a-key', problem: NO_HEADER, material: [] },
    { name: 'the base64 body without its armour', value: lines(pkcs1).slice(1, -1).join('\n'), problem: NO_HEADER, material: [pkcs1] },
    { name: 'the body as one line without armour', value: lines(pkcs8).slice(1, -1).join('\\n'), problem: NO_HEADER, material: [pkcs8] },
    { name: 'a file path', value: '/etc/gatehouse/gatehouse.2026-01-01.private-key.pem', problem: /looks like a file path: it takes the key itself/, material: [] },
    { name: 'a base64-encoded .pem file', value: Buffer.from(pkcs1).toString('base64'), problem: /is a base64-encoded PEM file: set the decoded file/, material: [pkcs1] },
    { name: 'the public key', value: toPem(rsa.publicKey, 'spki'), problem: NOT_PRIVATE, material: [] },
    { name: 'the public key (PKCS#1)', value: toPem(rsa.publicKey, 'pkcs1'), problem: NOT_PRIVATE, material: [] },
    { name: 'a certificate', value: rootCertificates[0]!, problem: NOT_PRIVATE, material: [] },
    { name: 'a PEM block of another kind', value: rootCertificates[0]!.replace(/CERTIFICATE/g, 'X509 CRL'), problem: /holds a PEM block of another kind, not a private key/, material: [] },
    // Node cannot write the OpenSSH format; the refusal goes by the armour alone.
    { name: 'a key in OpenSSH armour', value: pkcs1.replace(/RSA PRIVATE KEY/g, 'OPENSSH PRIVATE KEY'), problem: /holds an OpenSSH private key: use the \.pem private key/, material: [] },
    { name: 'an EC key (PKCS#8)', value: toPem(ec, 'pkcs8'), problem: NOT_RSA, material: [] },
    { name: 'an EC key (SEC1)', value: toPem(ec, 'sec1'), problem: NOT_RSA, material: [] },
    { name: 'an Ed25519 key', value: ed25519, problem: NOT_RSA, material: [] },
    { name: 'an RSA-PSS key', value: rsaPss, problem: NOT_RSA, material: [] },
    { name: 'a 1024-bit RSA key', value: small, problem: /holds a 1024-bit RSA key: RS256 app JWTs need at least 2048 bits/, material: [] },
    { name: 'one escaped line whose body is damaged', value: oneLine(damaged), problem: ESCAPED_UNREADABLE, material: [pkcs1] },
    { name: 'a JSON-encoded .pem whose body is damaged', value: JSON.stringify(`${damaged}\n`), problem: ESCAPED_UNREADABLE, material: [pkcs1] },
    { name: 'a multi-line PEM whose body is damaged', value: damaged, problem: UNREADABLE, material: [pkcs1] },
    { name: 'a PEM with lines missing', value: [...lines(pkcs1).slice(0, 5), lines(pkcs1).at(-1)!].join('\n'), problem: UNREADABLE, material: [pkcs1] },
    { name: 'a PEM that loads but does not sign right', value: swappedInModulus(pkcs1), problem: UNREADABLE, material: [pkcs1] },
    { name: 'a PEM cut off before its END line', value: lines(pkcs1).slice(0, -3).join('\n'), problem: /has a -----BEGIN line but no matching -----END line: the key was cut short/, material: [pkcs1] },
    { name: 'an encrypted PKCS#8 key', value: encrypted('pkcs8'), problem: ENCRYPTED, material: [] },
    { name: 'an encrypted PKCS#1 key', value: encrypted('pkcs1'), problem: ENCRYPTED, material: [] },
    { name: 'an encrypted key, one escaped line', value: oneLine(encrypted('pkcs8')), problem: ENCRYPTED, material: [] },
    { name: 'two private keys', value: `${pkcs1}${pkcs8}`, problem: /holds more than one PEM private key/, material: [] },
  ];
  return { rsa: rsa.privateKey, pkcs1, pkcs8, accepted, refused };
}

/**
 * Pieces of key material that must never be printed: 16-character slices (every 8 characters)
 * of each line of the value and of the PEM texts it was made from, armour lines left out. Any
 * echo of 24 characters or more of a key line contains one.
 */
export function keyFragments(refused: RefusedKey): string[] {
  const text = [refused.value, ...refused.material].join('\n').replace(/\\+r|\\+n/g, '\n');
  const keyLines = text.split(/\s+/).filter((l) => l.length >= 16 && !l.includes('-----'));
  const out = new Set<string>();
  for (const line of keyLines) for (let i = 0; i + 16 <= line.length; i += 8) out.add(line.slice(i, i + 16));
  return [...out];
}

/** The first fragment of key material found in `text`, if any (for an assertion message that does not print it). */
export function leakedFragment(text: string, fragments: readonly string[]): number {
  return fragments.findIndex((f) => text.includes(f));
}
