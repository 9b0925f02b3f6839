// How both fake GraphQL APIs (GitHub's, Linear's) check a request before they run it: the
// document must parse, validate against the fake's schema subset, and its variables coerce.
import {
  getVariableValues,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode
} from 'graphql'

export type CheckedDocument =
  | { document: DocumentNode; operation: OperationDefinitionNode | undefined }
  /** The query is not GraphQL at all. */
  | { parseError: string }
  /** It parsed, but does not conform; `operation` is named when the document has one. */
  | { problems: string[]; operation: OperationDefinitionNode | undefined }

export function checkDocument(
  schema: GraphQLSchema,
  query: unknown,
  variables: Record<string, unknown>
): CheckedDocument {
  let document: DocumentNode
  try {
    document = parse(String(query ?? ''))
  } catch (e) {
    return { parseError: (e as Error).message }
  }
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)
  const problems = validate(schema, document).map((e) => e.message)
  if (problems.length === 0 && operation) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables)
    if (coerced.errors) problems.push(...coerced.errors.map((e) => e.message))
  }
  return problems.length > 0 ? { problems, operation } : { document, operation }
}
