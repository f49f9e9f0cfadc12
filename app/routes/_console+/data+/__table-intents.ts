/** The table page's form intents besides delete (shared by the page and __table-settings.server). */
export const SETTINGS_INTENT = 'save-settings'
export const RENAME_INTENT = 'rename-table'
export const TRUNCATE_INTENT = 'truncate-table'
