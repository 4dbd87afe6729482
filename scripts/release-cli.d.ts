// Types of scripts/release-cli.js, for its test.
export const CLI_ASSET: string;
export function cliPackageName(owner: string): string;
