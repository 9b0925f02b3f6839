export {
  HANDOFF_DIR,
  compareHandoffNames,
  handoffPath,
  isPartialName,
  isRunTimestamp,
  isValidProfileName,
  parseRunFileName,
  partialPathOf,
  runTimestamp
} from './naming.js'
export {
  addCounts,
  describeSanitizeCounts,
  emptyCounts,
  sanitizeUntrusted,
  type SanitizeCounts,
  type Sanitized
} from './sanitize.js'
export { cutUtf8, decodeUtf8, utf8Length, type Decoded } from './utf8.js'
export {
  DEFAULT_BLOCK_OPTIONS,
  buildHandoffBlock,
  renderHandoffBlock,
  renderRunContext,
  type BlockOptions,
  type BlockResult
} from './block.js'
export {
  markPartial,
  type PartialInfo,
  type PartialOptions,
  type PartialResult
} from './partial.js'
export {
  checkDeliverable,
  withoutFrontMatter,
  type DeliverableCheck,
  type DeliverableOptions
} from './deliverable.js'
