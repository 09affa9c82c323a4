// The library product. A Swift program on Linux imports `Lumen` to index its own items and
// query them in Core Spotlight's shape; the command line and the crawler use the same API.
@_exported import LumenModel
@_exported import LumenQuery
@_exported import LumenStore
