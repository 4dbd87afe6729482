/**
 * The booleans of the YAML 1.2 core schema, the words `@actions/core`'s `getBooleanInput` accepts:
 * `true`, `True`, `TRUE`, `false`, `False`, `FALSE` (surrounding blanks ignored). Anything else
 * (`yes`, `on`, `1`, `tRUE`) is undefined, for the caller to refuse: a switch read the wrong way
 * silently does the opposite of what was written.
 */
export function yamlBoolean(text: string): boolean | undefined {
  switch (text.trim()) {
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    default:
      return undefined;
  }
}

/** How a refusal names the accepted words. */
export const YAML_BOOLEAN_WORDS = 'true, True, TRUE, false, False or FALSE';
