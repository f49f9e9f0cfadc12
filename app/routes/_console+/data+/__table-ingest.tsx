import { useState } from 'react'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Link } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { DetailList } from '~/components/layout/detail-list'
import { SectionCard } from '~/components/layout/section-card'
import { Button } from '~/components/ui/button'
import { Code } from '~/components/ui/code'

/** How the table takes data over HTTP, as the table page shows it (never a token: placeholders). */
export type TableIngest = {
  /** The cluster's `/ingest/event` address as the console reaches the cluster. */
  url: string
  /** `project.table`, the `x-hdx-table` header. */
  tableRef: string
  /** The default transform (used when `x-hdx-transform` is left out), or the first one. */
  transform: { name: string; type: string; editTo: string } | null
  /** The table's stream settings list tokens: the request carries one in `x-hdx-token`. */
  hasStreamTokens: boolean
  newTransformTo: string
}

/** The request as `curl` (the token a shell variable, so the page never holds it). */
export function curlExample(ingest: TableIngest): string {
  const isCsv = ingest.transform?.type === 'csv'
  const lines = [
    `curl -X POST '${ingest.url}'`,
    ingest.hasStreamTokens ? `-H "x-hdx-token: $HDX_STREAM_TOKEN"` : `-H "Authorization: Bearer $HDX_TOKEN"`,
    `-H 'x-hdx-table: ${ingest.tableRef}'`,
    ...(ingest.transform ? [`-H 'x-hdx-transform: ${ingest.transform.name}'`] : []),
    `-H 'content-type: ${isCsv ? 'text/csv' : 'application/json'}'`,
    `--data-binary @${isCsv ? 'events.csv' : 'events.json'}`,
  ]
  return lines.join(' \\\n  ')
}

/**
 * "Send data over HTTP": the ingest address, the headers, a `curl` example (selectable text; with
 * scripts a Copy button too) and a link to the transform page where a sample can be ingested.
 */
export function TableIngestPanel({ ingest }: { ingest: TableIngest }) {
  const curl = curlExample(ingest)
  return (
    <SectionCard id="ingest" title="Send data over HTTP">
      <Stack gap="3">
        <DetailList
          label="Ingest over HTTP"
          entries={[
            ['Address', <Code key="url">POST {ingest.url}</Code>],
            [
              'Headers',
              <Stack key="headers" gap="1">
                <Code>x-hdx-table: {ingest.tableRef}</Code>
                <Code>x-hdx-transform: {ingest.transform?.name ?? '(a transform name)'}</Code>
                <Text fontSize="xs" color="fg.muted">
                  Without x-hdx-transform the table&apos;s default transform is used.
                </Text>
                {ingest.hasStreamTokens ? (
                  <Code>x-hdx-token: $HDX_STREAM_TOKEN</Code>
                ) : (
                  <Code>Authorization: Bearer $HDX_TOKEN</Code>
                )}
                <Text fontSize="xs" color="fg.muted">
                  {ingest.hasStreamTokens
                    ? 'This table takes one of the tokens in its stream settings (token list).'
                    : 'A token of a user or service account with insert_sql on the table.'}
                </Text>
              </Stack>,
            ],
          ]}
        />
        <Box>
          <HStack justify="space-between" mb="1">
            <Text fontSize="sm" fontWeight="medium" id="ingest-curl-label">
              Example with curl
            </Text>
            <CopyButton text={curl} />
          </HStack>
          <chakra.pre
            aria-labelledby="ingest-curl-label"
            data-testid="ingest-curl"
            fontSize="xs"
            fontFamily="mono"
            bg="bg.muted"
            rounded="md"
            p="3"
            overflowX="auto"
            userSelect="all"
          >
            {curl}
          </chakra.pre>
        </Box>
        <Text fontSize="sm">
          {ingest.transform ? (
            <>
              To try it first:{' '}
              <Link to={ingest.transform.editTo}>ingest a sample through transform {ingest.transform.name}</Link>.
            </>
          ) : (
            <>
              Data cannot be ingested until the table has a transform:{' '}
              <Link to={ingest.newTransformTo}>publish one</Link>.
            </>
          )}
        </Text>
      </Stack>
    </SectionCard>
  )
}

/** Copies `text` (shown only with scripts; without them the text is selectable). */
function CopyButton({ text }: { text: string }) {
  const isHydrated = useHydrated()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  if (!isHydrated) return null
  return (
    <HStack gap="2">
      <Text role="status" fontSize="xs" color="fg.muted">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text' : ''}
      </Text>
      <Button
        size="xs"
        variant="outline"
        type="button"
        onClick={() => {
          // no clipboard outside a secure context (plain http on another host)
          if (!navigator.clipboard) return setState('failed')
          navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }}
      >
        Copy curl command
      </Button>
    </HStack>
  )
}
