import { SectionTabs } from '~/components/layout/section-tabs'

/** Data's list pages: Tables, Dictionaries, Functions, Files (one tab row under the page header). */
const TABS = [
  { label: 'Tables', to: '/data/tables' },
  { label: 'Dictionaries', to: '/data/dictionaries' },
  { label: 'Functions', to: '/data/functions' },
  { label: 'Files', to: '/data/files' },
]

export function DataTabs() {
  return <SectionTabs label="Data kinds" tabs={TABS} mb="0" />
}
