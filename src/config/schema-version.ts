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
      'itervox_schema_version 1 is the legacy inline profile-prompt schema; move each profile prompt into the files named by soul_file and instructions_file (itervox-handoff init writes an example of each) and set itervox_schema_version: 2'
    )
  } else if (
    typeof version === 'number' &&
    Number.isSafeInteger(version) &&
    version > SCHEMA_VERSION
  ) {
    problems.error(
      at,
      `unsupported itervox_schema_version ${version}: this itervox-handoff reads version ${SCHEMA_VERSION}; write itervox_schema_version: ${SCHEMA_VERSION}, or use a newer itervox-handoff`
    )
  } else if (version !== SCHEMA_VERSION) {
    problems.error(
      at,
      'itervox_schema_version must be the number 2; write itervox_schema_version: 2'
    )
  }
}
