// Typed errors: callers branch on `code`, never on message text. Messages are
// one line for people: what is wrong, and what to do.

export type ErrorCode =
  | 'bad-argument'
  | 'bad-name'
  | 'unsafe-path'
  | 'not-found'
  | 'locked'
  | 'unreadable'
  | 'refused'
  | 'conflicted'
  | 'git'
  | 'tracked'
  | 'no-project';

export class EchoesError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'EchoesError';
    this.code = code;
  }
}
