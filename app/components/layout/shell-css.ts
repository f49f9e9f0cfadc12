import type { GlobalStyleObject } from '@chakra-ui/react'

/** The sidebar toggle's id: the shell's CSS follows its checkbox (collapse, phone menu) without scripts. */
export const SIDEBAR_TOGGLE_ID = 'sidebar-toggle'

/** Open and collapsed widths (spec section 9). */
export const SIDEBAR_WIDTH = { open: '180px', collapsed: '62px' } as const

/** Below Chakra's md breakpoint the sidebar is a menu over the page. */
export const PHONE_QUERY = '(max-width: 47.99em)'

const linkStyle = { color: 'link', _hover: { textDecoration: 'underline' } } as const

const focusRing = { outline: '2px solid', outlineColor: 'blue.500' } as const

/**
 * The shell's styles (frame, sidebar, header, breadcrumb, menus) as classes of the theme stylesheet
 * (decision 040), built once with the theme's tokens and conditions. Every page renders the shell:
 * as Chakra style props it was about 135 styled elements per page, whose style objects Emotion
 * resolved, serialized and hashed on every server render (most of a page's style work).
 */
export const SHELL_CSS: GlobalStyleObject = {
  '.cc-shell': {
    display: 'flex',
    minHeight: '100vh',
    // Wide screens: the toggle collapses the sidebar to its glyphs.
    '@media (min-width: 48em)': {
      [`&:has(#${SIDEBAR_TOGGLE_ID}:checked) [data-sidebar]`]: { width: SIDEBAR_WIDTH.collapsed },
      [`&:has(#${SIDEBAR_TOGGLE_ID}:checked) [data-sidebar-label]`]: { srOnly: true },
    },
    // Phones: the sidebar is off-screen and the same toggle is the menu button that slides it over
    // the page (CSS only: it works without scripts; a navigation closes it again).
    [`@media ${PHONE_QUERY}`]: {
      '& [data-sidebar]': {
        position: 'fixed',
        top: 0,
        bottom: 0,
        left: 0,
        zIndex: 'overlay',
        transform: 'translateX(-100%)',
        visibility: 'hidden',
        boxShadow: 'lg',
      },
      [`&:has(#${SIDEBAR_TOGGLE_ID}:checked) [data-sidebar]`]: { transform: 'none', visibility: 'visible' },
    },
  },
  '.cc-skip': {
    position: 'absolute',
    left: '-9999px',
    zIndex: 'skipNav',
    _focus: { left: '4', top: '4', bg: 'bg', px: '3', py: '2', rounded: 'md', shadow: 'md' },
  },
  '.cc-pending': {
    position: 'fixed',
    top: '0',
    left: '0',
    right: '0',
    h: '3px',
    zIndex: 'max',
    pointerEvents: 'none',
    overflow: 'hidden',
  },
  '.cc-shell-body': { display: 'flex', flexDirection: 'column', flex: '1', minW: '0' },
  '.cc-main': { flex: '1', p: { base: '3', md: '6' }, minW: '0', outline: 'none' },

  // Sidebar
  '.cc-sidebar': {
    w: SIDEBAR_WIDTH.open,
    flexShrink: 0,
    // the aside stretches to the page's full height (its background with it); its content stays on
    // screen (no overflow on the aside itself: that would make it the sticky content's scroller)
    alignSelf: 'stretch',
    bg: 'gray.900',
    color: 'gray.100',
    transition: 'width 0.15s',
  },
  '.cc-sidebar-inner': {
    position: 'sticky',
    top: '0',
    h: '100vh',
    display: 'flex',
    flexDirection: 'column',
    overflowY: 'auto',
    overflowX: 'hidden',
  },
  '.cc-sidebar-brand': { px: '4', py: '4', fontWeight: 'bold', whiteSpace: 'nowrap', color: 'white' },
  '.cc-sidebar-brand-label': { ml: '2' },
  '.cc-glyph': { w: '5', flexShrink: 0, textAlign: 'center', fontSize: 'md' },
  '.cc-nav-list': { listStyleType: 'none', m: '0', px: '2', display: 'flex', flexDirection: 'column', gap: '1' },
  '.cc-nav-item': {
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    px: '3',
    py: '2',
    rounded: 'md',
    fontSize: 'sm',
    color: 'gray.200',
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    _hover: { bg: 'whiteAlpha.200', color: 'white' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.300' },
    '&[aria-current=page]': { bg: 'blue.600', color: 'white' },
  },
  '.cc-sidebar-version': {
    mt: 'auto',
    px: '4',
    py: '3',
    fontSize: 'xs',
    color: 'gray.400',
    whiteSpace: 'nowrap',
    _hover: { color: 'white' },
  },

  // Header
  '.cc-header': {
    display: 'flex',
    alignItems: 'center',
    gap: { base: '2', md: '3' },
    px: { base: '2', md: '4' },
    py: '2',
    bg: 'bg',
    borderBottomWidth: '1px',
    borderColor: 'border',
    minH: '14',
    position: 'sticky',
    top: '0',
    zIndex: 'sticky',
  },
  '.cc-toggle': {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    w: '8',
    h: '8',
    rounded: 'md',
    cursor: 'pointer',
    borderWidth: '1px',
    borderColor: 'border',
    _hover: { bg: 'bg.muted' },
    '&:has(input:focus-visible)': {
      outline: '2px solid',
      outlineColor: 'var(--chakra-colors-blue-500)',
      outlineOffset: '2px',
    },
    '&:has(input:checked) [data-arrow]': { transform: 'rotate(180deg)' },
    // on a phone the toggle is a menu button (the sidebar slides over the page)
    [`@media ${PHONE_QUERY}`]: { '& [data-arrow]': { display: 'none' }, '& [data-menu-glyph]': { display: 'inline' } },
  },
  '.cc-toggle-input': { position: 'absolute', opacity: 0, w: '1px', h: '1px', m: '0' },
  '.cc-toggle-arrow': { transition: 'transform 0.15s', fontSize: 'sm' },
  '.cc-toggle-menu': { display: 'none', fontSize: 'md' },
  '.cc-header-crumbs': { flex: '1', minW: '0' },
  // contextual docs: on a phone the sidebar's Docs link stands in for them
  '.cc-header-docs': { gap: '3', fontSize: 'sm', display: { base: 'none', md: 'flex' } },
  '.cc-link': linkStyle,

  // Header menus (DisclosureMenu)
  '.cc-menu': { position: 'relative', '& > summary::-webkit-details-marker': { display: 'none' } },
  '.cc-menu-button': {
    listStyleType: 'none',
    cursor: 'pointer',
    px: '3',
    py: '1.5',
    rounded: 'md',
    fontSize: 'sm',
    fontWeight: 'medium',
    borderWidth: '1px',
    borderColor: 'border',
    bg: 'bg',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { ...focusRing, outlineOffset: '2px' },
    userSelect: 'none',
    whiteSpace: 'nowrap',
  },
  '.cc-menu-panel': {
    position: 'absolute',
    top: 'calc(100% + 4px)',
    right: '0',
    zIndex: 'dropdown',
    bg: 'bg',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'md',
    shadow: 'lg',
    py: '1',
    '&[data-align=start]': { right: 'auto', left: '0' },
  },
  '.cc-menu-list': { listStyleType: 'none', m: '0', p: '0' },
  '.cc-menu-item': {
    display: 'block',
    w: 'full',
    textAlign: 'left',
    px: '3',
    py: '1.5',
    fontSize: 'sm',
    color: 'fg',
    textDecoration: 'none',
    bg: 'transparent',
    border: 'none',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { bg: 'bg.muted', ...focusRing, outlineOffset: '-2px' },
  },
  // a long address is cut short on a phone (its full text stays the button's name)
  '.cc-menu-email': {
    display: 'inline-block',
    verticalAlign: 'bottom',
    maxW: { base: '24', md: '72' },
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '.cc-theme-group': {
    display: 'flex',
    gap: '1',
    px: '3',
    py: '1.5',
    borderTopWidth: '1px',
    borderBottomWidth: '1px',
    borderColor: 'border',
  },
  '.cc-theme-button': {
    flex: '1',
    px: '1.5',
    py: '1',
    fontSize: 'xs',
    rounded: 'sm',
    borderWidth: '1px',
    borderColor: 'border',
    bg: 'transparent',
    color: 'fg',
    fontWeight: 'normal',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { ...focusRing, outlineOffset: '1px' },
    '&[aria-pressed=true]': { borderColor: 'link', bg: 'bg.muted', fontWeight: 'semibold' },
  },

  // Breadcrumb
  '.cc-crumbs': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: '1.5',
    fontSize: 'sm',
    listStyleType: 'none',
    m: '0',
    p: '0',
  },
  '.cc-crumb': { display: 'flex', alignItems: 'center', gap: '1.5' },
  '.cc-crumb-separator': { color: 'fg.subtle' },
  '.cc-crumb-current': { fontWeight: 'semibold' },
  '.cc-crumb-muted': { color: 'fg.muted' },
}
