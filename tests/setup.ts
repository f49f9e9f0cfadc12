// Shared vitest setup (empty for now). A test file that calls the cluster wires msw and a local
// cluster itself, with useTestCluster() from #tests/msw.
