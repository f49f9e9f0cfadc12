import { Box } from '~/components/ui/box'
import { useLocation, useNavigation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { SubmitButton } from '~/components/forms/submit-button'

/** Where the result of "Ingest the sample" shows: the button posts to the page with this fragment. */
export const INGEST_RESULT_ID = 'ingest-result'

/**
 * "Ingest the sample" (issue 54, point 1; decision 098): sends the page's one-time token with the
 * sample, so a repeat does not load it again; the button shows pending (and is disabled) with
 * scripts while it runs. It posts to `#ingest-result`, so without scripts the answer's page opens
 * at the result, beside the button.
 */
export function SampleIngestButton({ token, disabled }: { token?: string; disabled?: boolean }) {
  const navigation = useNavigation()
  const location = useLocation()
  const isPending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'ingest'
  return (
    <>
      {token ? <input type="hidden" name="ingestToken" value={token} /> : null}
      <SubmitButton
        name="intent"
        value="ingest"
        variant="outline"
        colorPalette="gray"
        size="sm"
        formAction={`${location.pathname}${location.search}#${INGEST_RESULT_ID}`}
        isPending={isPending}
        disabled={disabled}
      >
        Ingest the sample
      </SubmitButton>
    </>
  )
}

/** What the ingest did, announced and focused where the button is (a status, read when it comes). */
export function SampleIngestResult({ notice }: { notice?: string | null }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (notice) ref.current?.focus()
  }, [notice])
  return (
    <Box id={INGEST_RESULT_ID} ref={ref} tabIndex={-1} role="status" aria-live="polite" mb={notice ? '4' : '0'}>
      {notice ? (
        <Box bg="green.subtle" color="green.fg" rounded="md" px="3" py="2" fontSize="sm">
          {notice}
        </Box>
      ) : null}
    </Box>
  )
}
