import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'

/*
 * A part of the table page the signed-in user's role may not read (issue 54, point 6): the loader
 * reads each part with `readPart` (app/api/part-read.server.ts), and a part it refused (403) says so
 * in its own place while the rest of the page renders, with and without scripts.
 */

/** "You do not have permission to view `what`.", in the part's place. */
export function DeniedNote({ what }: { what: string }) {
  return (
    <Text role="status" data-denied="" color="fg.muted">
      You do not have permission to view {what}.
    </Text>
  )
}

/** A whole part (its heading and the note) for a panel that has nothing to show without its read. */
export function DeniedSection({ id, title, what }: { id: string; title: string; what: string }) {
  return (
    <Box as="section" aria-labelledby={`${id}-heading`} id={id}>
      <HStack mb="2">
        <Heading as="h2" id={`${id}-heading`} size="md">
          {title}
        </Heading>
      </HStack>
      <DeniedNote what={what} />
    </Box>
  )
}
