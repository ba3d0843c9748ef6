// Every test file of this target sees the shared helpers (fixtures, temporary folders, signed test passes).
@_exported import PassMintTestSupport
