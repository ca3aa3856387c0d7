// Errors of the control API (function and HTTP): what a test asked for does not exist, or the
// order's state does not allow it. The HTTP control routes map them to 404 and 409.

export class UnknownEntityError extends Error {}

export class InvalidTransitionError extends Error {}
