// Types of build.mjs for the TypeScript that imports it (the bench).
export const serverEntry: string;
export function buildServerIfStale(log?: (line: string) => void, options?: { dir?: string; command?: string }): void;
export function buildWebIfStale(log?: (line: string) => void): void;
