import type { Problems } from './problems.js'

const SCHEMA_VERSION = 2

/**
 * itervox_schema_version must be exactly 2. Anything else decides how the rest would be read,
 * so the caller stops at this error.
 */
export function checkSchemaVersion(root: Record<string, unknown>, problems: Problems): void {
  const version = root.itervox_schema_version
  const at = problems.map.value(['itervox_schema_version'])
  if (version === undefined || version === null || version === 0) {
    problems.error(
      at,
      'missing itervox_schema_version; add "itervox_schema_version: 2" as the first line of the front matter'
    )
  } else if (version === 1) {
    problems.error(
      at,
      'itervox_schema_version 1 is the legacy inline profile-prompt schema; move each profile prompt into soul_file and instructions_file and set itervox_schema_version: 2 (itervox init --update --workflow WORKFLOW.md does this)'
    )
  } else if (
    typeof version === 'number' &&
    Number.isSafeInteger(version) &&
    version > SCHEMA_VERSION
  ) {
    problems.error(
      at,
      `unsupported itervox_schema_version ${version}: latest supported version is ${SCHEMA_VERSION}`
    )
  } else if (version !== SCHEMA_VERSION) {
    problems.error(
      at,
      'itervox_schema_version must be the number 2; write itervox_schema_version: 2'
    )
  }
}
