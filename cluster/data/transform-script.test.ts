import { describe, expect, it } from 'vitest'
import { compileScript, makeMapper } from './transform'

/* Issue 36, item 1: a column's script (decision 066), as the local cluster reads it. */

const transform = (script: string, type = 'csv') => ({
  uuid: 't1',
  name: 't',
  type,
  settings: {
    output_columns: [
      {
        name: 'ts',
        datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05', virtual: true, script },
      },
      { name: 'date', datatype: { type: 'string' } },
      { name: 'time', datatype: { type: 'string' } },
    ],
  },
})

describe('column scripts', () => {
  it('a virtual primary joins the date and time fields: the row keeps its time of day', () => {
    const mapper = makeMapper(transform("row['date'] + ' ' + row[\"time\"]"))
    expect(mapper.map(['2024-05-01', '23:59:58'], 0)).toEqual({
      ok: true,
      row: { ts: '2024-05-01 23:59:58.000', date: '2024-05-01', time: '23:59:58' },
    })
    const json = makeMapper(transform('row.date + "T" + row.time + "Z"', 'json'))
    expect(json.map({ date: '2024-05-01', time: '07:30:00' }, 0)).toMatchObject({
      ok: true,
      row: { ts: '2024-05-01 07:30:00.000' },
    })
  })

  it('a value the script reads is missing: the primary is missing, not a made-up time', () => {
    expect(makeMapper(transform("row['date'] + ' ' + row['time']", 'json')).map({ date: '2024-05-01' }, 0)).toEqual({
      ok: false,
      error: 'row 1: primary column "ts" is missing or empty',
    })
  })

  it('any other expression is refused row by row with a message saying what the local cluster runs', () => {
    expect(compileScript('new Date().getTime()')).toMatchObject({ ok: false })
    expect(compileScript("row['a'] + process.exit()")).toMatchObject({ ok: false })
    const mapped = makeMapper(transform('new Date().getTime()')).map(['2024-05-01', '10:00:00'], 0)
    expect(mapped.ok).toBe(false)
    expect(!mapped.ok && mapped.error).toMatch(/column "ts": the local cluster runs only scripts that join row values/)
  })
})
