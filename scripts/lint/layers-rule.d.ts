import type { Rule } from 'eslint';

export function folderOf(relative: string): string | null;
export function isTestCode(relative: string): boolean;
export const layersRule: Rule.RuleModule;
