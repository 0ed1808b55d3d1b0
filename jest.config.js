/** Jest: TypeScript through ts-jest (type checking is `npm run typecheck`, run by `npm test` first). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  // Loose env modules (test/fixtures/outside/) require the package by name, as the CLI resolves it.
  moduleNameMapper: { '^selfplay-arena$': '<rootDir>/app/index.ts', '^selfplay-arena/core$': '<rootDir>/src/core/index.ts' },
  testTimeout: 60000,
  // A failed test that leaves a child process or server behind must not keep jest alive after the
  // run (CI waits for the process): once every test has finished, jest exits.
  forceExit: true,
};
