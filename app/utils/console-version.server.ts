import { version } from '../../package.json'

/** The console's own version (package.json's), read on the server so package.json never reaches the browser. */
export const CONSOLE_VERSION: string = version
