import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultLocation } from './locations.js';
import type { SarifRun } from './sarif.js';

/** Secret scanners whose findings may point at SOPS-encrypted values. */
const SECRET_SCANNERS = /gitleaks|secretlint|trufflehog|detect-secrets|ggshield|kics-secrets|devskim-secrets|REPOSITORY_GITLEAKS|REPOSITORY_SECRETLINT|REPOSITORY_TRUFFLEHOG/i;
const SOPS_VALUE = /ENC\[AES256_GCM,/;

export function isSecretScanner(run: SarifRun, linterKey: string | undefined): boolean {
  return SECRET_SCANNERS.test(run.tool.driver.name ?? '') || SECRET_SCANNERS.test(linterKey ?? '');
}

/**
 * Whether the finding's lines in the working-tree file hold a SOPS ciphertext. The SARIF
 * snippet is never trusted (scanners redact it); the file is read instead. Files are read once.
 */
export class SopsDetector {
  private readonly files = new Map<string, string[] | null>();

  constructor(private readonly workspace: string) {}

  isEncrypted(location: ResultLocation): boolean {
    if (!location.path || location.startLine === undefined) return false;
    const lines = this.lines(location.path);
    if (!lines) return false;
    // The finding's own line only: a plaintext secret on a neighbouring line still gates.
    return SOPS_VALUE.test(lines[location.startLine - 1] ?? '');
  }

  private lines(path: string): string[] | null {
    let lines = this.files.get(path);
    if (lines === undefined) {
      try {
        lines = path.startsWith('/') || path.split('/').includes('..') ? null : readFileSync(join(this.workspace, path), 'utf8').split('\n');
      } catch {
        lines = null;
      }
      this.files.set(path, lines);
    }
    return lines;
  }
}
