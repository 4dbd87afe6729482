// Types of scripts/action-readme.js, for the test that runs its rendering.
export const START: string;
export const END: string;
export function actionDirs(base?: string): string[];
export function renderTables(actionYml: string): string;
export function expectedReadme(readme: string, actionYml: string, file: string): string;
