import type { ClusterState } from '../context'
import type { DataPlane } from './hooks'

/** Opens the engine under `${dataDir}/engine` and returns the data plane. Owned by the data work. */
export async function createDataPlane(cluster: ClusterState): Promise<DataPlane> {
  void cluster
  const noop = async () => {}
  return {
    hooks: {
      transformSaved: noop, tableDeleted: noop, tableTruncated: noop, tableRenamed: noop,
      projectDeleted: noop, projectRenamed: noop, tableStats: async () => ({}),
      functionSaved: noop, functionDeleted: noop, dictionarySaved: noop, dictionaryDeleted: noop,
      orgFigures: async () => ({}),
    },
    register: () => {},
    seed: async () => {},
    close: async () => {},
  }
}
