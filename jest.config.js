import { availableParallelism } from 'node:os'

export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': '<rootDir>/test/esbuild-transformer.js' },
  clearMocks: true,
  // Most suites spend their time waiting on the git, node and fake-agent processes they spawn,
  // so 1.5 workers per core keep the cores busy (jest's default is one worker fewer than cores).
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  testSequencer: '<rootDir>/test/slow-first-sequencer.js',
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  testTimeout: 60000
}
