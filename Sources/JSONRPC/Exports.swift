@_exported import Contract
