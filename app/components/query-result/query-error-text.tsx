import { chakra } from '@chakra-ui/react'
import { Text } from '~/components/ui/box'
import type { ErrorPosition } from '~/services/query/run.server'

/** The engine's refusal of a query under the editor: where it failed (line, column, a caret under the text) and its message. */
export function QueryErrorText({
  message,
  status,
  position,
}: {
  message: string
  status: number
  position?: ErrorPosition | null
}) {
  return (
    <>
      <Text fontWeight="semibold" mb="1">
        {status === 400 ? 'The query failed' : 'The query could not be run'}
        {position
          ? position.isPastEnd
            ? ` at the end of line ${position.line}`
            : ` at line ${position.line}, column ${position.column}`
          : ''}
      </Text>
      {position ? (
        <chakra.pre fontFamily="mono" fontSize="sm" m="0" mb="2" overflowX="auto" data-testid="error-position">
          {`${position.text}\n${' '.repeat(Math.max(0, position.column - 1))}^`}
        </chakra.pre>
      ) : null}
      <chakra.pre whiteSpace="pre-wrap" wordBreak="break-word" fontFamily="mono" fontSize="sm" m="0">
        {message}
      </chakra.pre>
    </>
  )
}
