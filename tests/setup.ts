// Shared vitest setup; console tests add msw wiring in tests/setup-console.ts.
