"""The platform's core, below every app: the one refusal (errors.FloorError) and its middleware,
roles and the role checks of pages, logging in (the lockout, the bound on password checks), reading values from a request (inputs), figures and money in
the reader's language (figures, domain/money), the per-client rate limit, the public address of
links, QR codes and CSV downloads. It imports no app (import-linter contract)."""
