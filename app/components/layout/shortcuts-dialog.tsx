import { chakra } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { forwardRef } from 'react'
import { JUMP_SHORTCUTS } from './nav-config'

const Kbd = chakra('kbd', {
  base: {
    fontFamily: 'mono',
    fontSize: 'xs',
    px: '1.5',
    py: '0.5',
    borderWidth: '1px',
    borderColor: 'border',
    borderBottomWidth: '2px',
    rounded: 'sm',
    bg: 'bg.muted',
    color: 'fg',
  },
})

/** Every shortcut, as the sheet lists it: keys (pressed one after another) and what they do. */
export const SHORTCUTS: { keys: string[]; label: string }[] = [
  { keys: ['?'], label: 'Show this list' },
  { keys: ['Ctrl / ⌘', 'Enter'], label: 'Run the query; send the form you are in' },
  ...JUMP_SHORTCUTS.map((jump) => ({ keys: ['g', jump.key], label: `Go to ${jump.label}` })),
  { keys: ['Alt+N', 'A'], label: 'New alter job' },
  { keys: ['Esc'], label: 'Close a menu, this list or the phone menu' },
]

/**
 * The keyboard shortcuts sheet: a native modal `<dialog>` opened by `?` (shortcuts need scripts, so
 * does the sheet). Escape and the Close button close it; the browser returns focus where it was.
 */
export const ShortcutsDialog = forwardRef<HTMLDialogElement>(function ShortcutsDialog(_, ref) {
  return (
    <chakra.dialog
      ref={ref}
      aria-labelledby="shortcuts-title"
      bg="bg"
      color="fg"
      borderWidth="1px"
      borderColor="border"
      rounded="lg"
      shadow="lg"
      p="6"
      maxW="md"
      w="calc(100% - 2rem)"
      css={{ '&::backdrop': { background: 'rgba(0, 0, 0, 0.5)' } }}
    >
      <Heading as="h2" id="shortcuts-title" size="md" mb="4">
        Keyboard shortcuts
      </Heading>
      <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="2" fontSize="sm" m="0">
        {SHORTCUTS.map((shortcut) => (
          <Box key={shortcut.label} display="contents">
            <Box as="dt" whiteSpace="nowrap">
              {shortcut.keys.map((key, index) => (
                <span key={key}>
                  {index ? ' then ' : null}
                  <Kbd>{key}</Kbd>
                </span>
              ))}
            </Box>
            <Box as="dd" m="0">
              {shortcut.label}
            </Box>
          </Box>
        ))}
      </Box>
      <form method="dialog">
        <chakra.button
          type="submit"
          mt="5"
          px="3"
          py="1.5"
          fontSize="sm"
          borderWidth="1px"
          borderColor="border"
          rounded="md"
          bg="bg"
          cursor="pointer"
          _hover={{ bg: 'bg.muted' }}
        >
          Close
        </chakra.button>
      </form>
    </chakra.dialog>
  )
})
