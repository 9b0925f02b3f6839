import base from './jest.config.js'

// The agent CLI contract suite (npm run test:contract): one file per CLI, side by side.
export default {
  ...base,
  testMatch: ['<rootDir>/test/contract/*.contract.ts'],
  maxWorkers: 3
}
