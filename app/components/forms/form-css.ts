import type { GlobalStyleObject } from '@chakra-ui/react'

/**
 * The frame every form field shares (label, help text, error list), as classes of the theme
 * stylesheet like the shell's (decision 040): a form renders several per field, and as Chakra style
 * props each was resolved, serialized and hashed on every render. The controls themselves (Chakra's
 * Input and Textarea recipes, FormSelect with its overrides) keep their components.
 */
export const FORM_CSS: GlobalStyleObject = {
  '.cc-field': { mb: '4' },
  '.cc-field-label': { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1' },
  '.cc-field-help': { fontSize: 'xs', color: 'fg.muted', mt: '1' },
  '.cc-check-label': { display: 'inline-flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' },
  '.cc-errors': { minH: '0', color: 'fg.error', fontSize: 'sm', mt: '0', '&[data-shown]': { mt: '1' } },
  '.cc-errors-list': { listStyleType: 'none', m: '0', p: '0' },
  // A "Find a table" row (table-search-field.tsx, the role editor's scope search): its plain label,
  // search box and select drawn as the form's fields are (issue 54: bare under the reset, no border)
  '.cc-find': {
    '& label': { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1' },
    '& select, & input[type=search]': {
      w: 'full',
      h: '9',
      px: '3',
      borderWidth: '1px',
      borderColor: 'border',
      rounded: 'l2',
      bg: 'bg',
      fontSize: 'sm',
    },
    '& [aria-invalid=true]': { borderColor: 'border.error' },
  },
}
