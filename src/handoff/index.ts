export {
  HANDOFF_DIR,
  handoffPath,
  isRunTimestamp,
  parseRunFileName,
  runTimestamp
} from './naming.js'
export { sanitizeUntrusted } from './sanitize.js'
export { buildHandoffBlock, renderRunContext } from './block.js'
export { markPartial } from './partial.js'
export { checkDeliverable } from './deliverable.js'
