import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { ConfigError } from '../config-error.js';

/**
 * The one parser of a GitHub App private key setting (`FORGE_APP_PRIVATE_KEY`,
 * `ENTERPRISE_APP_PRIVATE_KEY`). Every refusal names the setting and what is wrong with it, and
 * never any part of its value: not even the PEM label, unless it is one of the labels below.
 */

/** PEM blocks people paste by mistake, named in the refusal (any other label is not echoed). */
const NOT_PRIVATE: Readonly<Record<string, string>> = {
  'PUBLIC KEY': 'public key',
  'RSA PUBLIC KEY': 'public key',
  CERTIFICATE: 'certificate',
  'TRUSTED CERTIFICATE': 'certificate',
  'CERTIFICATE REQUEST': 'certificate request',
  'NEW CERTIFICATE REQUEST': 'certificate request',
};

/** Node's key types, as people know them. */
const KEY_TYPES: Readonly<Record<string, string>> = {
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  dsa: 'DSA',
  x25519: 'X25519',
  x448: 'X448',
  dh: 'DH',
};

/** jose refuses RS256 with a smaller modulus, so such a key would only fail at the first signing. */
const MIN_RSA_BITS = 2048;

const BLOCK = /-----BEGIN ([A-Z0-9]+(?: [A-Z0-9]+)*)-----([\s\S]*?)-----END \1-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The text as pasted, with the escapes of a JSON-encoded `.pem` (`\n`, `\r\n`, `\/`) decoded. A
 * PEM never holds a backslash, so each one is an escape; a run of them is a value encoded twice.
 * Quotes and text around the PEM block need no handling: only the block is read.
 */
function unescape(raw: string): { text: string; escaped: boolean } {
  if (!raw.includes('\\')) return { text: raw, escaped: false };
  return { text: raw.replace(/\\+r\\+n|\\+[nr]/g, '\n').replace(/\\+\//g, '/'), escaped: true };
}

/** Why a value holds no PEM block, with a hint for the usual confusions. */
function withoutPem(raw: string): string {
  const value = raw.trim().replace(/^(["'])([\s\S]*)\1$/, '$2');
  if (/^[~.]?[\w./\\:-]*\.(pem|key)$/i.test(value)) {
    return 'looks like a file path: it takes the key itself (the contents of the .pem file), not where the file is';
  }
  const compact = value.replace(/\s+/g, '');
  if (BASE64.test(compact) && Buffer.from(compact, 'base64').toString('latin1').includes('-----BEGIN ')) {
    return 'is a base64-encoded PEM file: set the decoded file instead';
  }
  return 'has no PEM header: it takes the whole .pem file, from its -----BEGIN line to its -----END line (multi-line, or one line with \\n escapes)';
}

/**
 * An RSA private key from a setting, as people paste it: a real multi-line PEM, one line with
 * literal `\n` escapes (what JSON-encoding a `.pem` gives, trailing `\n` and quotes included),
 * Windows line ends, blank lines or indentation around it; PKCS#1 (`BEGIN RSA PRIVATE KEY`, as
 * GitHub issues it) or PKCS#8 (`BEGIN PRIVATE KEY`). Returns a `KeyObject`, which never prints
 * its material (JSON gives `{}`, inspection only its type).
 */
export function parsePrivateKey(setting: string, raw: string): KeyObject {
  const key = readKey(raw);
  if (typeof key === 'string') throw new ConfigError(setting, key);
  return key;
}

/** The key, or what is wrong with the value (never a part of it). */
function readKey(raw: string): KeyObject | string {
  const { text, escaped } = unescape(raw);
  const blocks = [...text.matchAll(BLOCK)].map((m) => ({ label: m[1]!, body: m[2]! }));
  const keys = blocks.filter((b) => b.label.endsWith('PRIVATE KEY'));
  if (keys.length === 0) {
    if (!text.includes('-----BEGIN ')) return withoutPem(raw);
    if (blocks.length === 0) return 'has a -----BEGIN line but no matching -----END line: the key was cut short';
    return `holds a PEM ${NOT_PRIVATE[blocks[0]!.label] ?? 'block of another kind'}, not a private key: use the private key generated on the GitHub App's page`;
  }
  if (keys.length > 1) return "holds more than one PEM private key: set only the app's key";
  const { label, body } = keys[0]!;
  if (label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,\s*ENCRYPTED/i.test(body)) {
    return 'holds an encrypted private key and the broker takes no passphrase: set the decrypted key (openssl pkey -in <file>)';
  }
  if (label === 'OPENSSH PRIVATE KEY') return "holds an OpenSSH private key: use the .pem private key generated on the GitHub App's page";
  const damaged = escaped
    ? 'is one line with \\n escapes, but once they are decoded the private key still cannot be read: its base64 body is damaged or incomplete'
    : 'holds a PEM private key that cannot be read: its base64 body is damaged or incomplete';
  // Lines rebuilt from the base64 alone: CRLF, indentation or line ends turned into spaces do not matter.
  const base64 = body.replace(/\s+/g, '');
  if (!BASE64.test(base64)) return damaged;
  let key: KeyObject;
  try {
    key = createPrivateKey(`-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`);
  } catch {
    // OpenSSL's reason is not passed on: it adds nothing an operator can act on.
    return damaged;
  }
  if (key.asymmetricKeyType !== 'rsa') {
    return `holds a private key of type ${KEY_TYPES[key.asymmetricKeyType ?? ''] ?? 'another kind'}, not RSA: GitHub App JWTs are signed with RS256`;
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) return `holds a ${bits}-bit RSA key: RS256 app JWTs need at least ${MIN_RSA_BITS} bits`;
  return signsConsistently(key) ? key : damaged;
}

/**
 * A damaged body can still load (OpenSSL does not check that the numbers belong together), and
 * would then sign app JWTs the platform refuses: one signature checked against the key's own
 * public half refuses the setting instead.
 */
function signsConsistently(key: KeyObject): boolean {
  const probe = Buffer.from('gatehouse app key check');
  try {
    return verify('sha256', probe, createPublicKey(key), sign('sha256', probe, key));
  } catch {
    return false;
  }
}
