// What a field of the wrong type is told, in the words the rest of our validation uses rather than
// zod's ("Invalid input: expected string, received undefined"). A query parameter given twice
// arrives as an array, and is told so instead of being told what it must be.

type TypeIssue = { input?: unknown }

/** For a query parameter: missing, repeated, or not what it must be. */
export const queryField = (mustBe: string) => (issue: TypeIssue) =>
  issue.input === undefined ? 'is required' : Array.isArray(issue.input) ? 'must be given only once' : mustBe

/** For a JSON body field: missing, or not what it must be. */
export const bodyField = (mustBe: string) => (issue: TypeIssue) =>
  issue.input === undefined ? 'is required' : mustBe

/** For a whole JSON body that is not an object; other issues (unknown keys) keep zod's message. */
export const bodyObject = (issue: { code?: string }) =>
  issue.code === 'invalid_type' ? 'must be a JSON object' : undefined
