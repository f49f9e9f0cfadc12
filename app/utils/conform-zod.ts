/**
 * `@conform-to/zod/v4` as the console's code imports it (vite/guarded-conform-parse.ts resolves the
 * package here for every importer but this file): the package's exports, with parseWithZod guarded
 * against submissions conform cannot read (form-shape.ts; issue 37).
 */
export * from '@conform-to/zod/v4'
export { parseWithZod } from './form-shape'
