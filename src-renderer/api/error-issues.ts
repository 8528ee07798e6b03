import type { AppError } from '../../src-shared/contract/errors';

/** One refusal of an input field, as the router reports it under `details.issues`. */
export interface InputIssue {
  /** Dotted path into the input, e.g. `baseUrl` or `targets.1.connection`; empty for the whole input. */
  path: string;
  message: string;
}

/**
 * The field-level reasons of an `invalid_input` error: `details.issues` when the core sent them,
 * else parsed from the `path: message; …` text; empty for any other error.
 */
export function inputIssuesOf(error: AppError): InputIssue[] {
  if (error.code !== 'invalid_input') return [];
  const details = error.details;
  if (typeof details === 'object' && details !== null && 'issues' in details && Array.isArray(details.issues)) {
    return (details.issues as unknown[]).flatMap((issue): InputIssue[] => {
      if (typeof issue !== 'object' || issue === null) return [];
      const path = 'path' in issue ? (Array.isArray(issue.path) ? issue.path.join('.') : String(issue.path)) : '';
      const message = 'message' in issue ? String(issue.message) : 'is invalid';
      return [{ path: path === '(input)' ? '' : path, message }];
    });
  }
  return error.message.split('; ').map((part) => {
    const match = /^([\w.]+|\(input\)): (.+)$/s.exec(part);
    return match?.[1] && match[2]
      ? { path: match[1] === '(input)' ? '' : match[1], message: match[2] }
      : { path: '', message: part };
  });
}
