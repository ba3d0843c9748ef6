/// One step of a store's schema history. Each store applies, in order and once, the steps newer than the
/// version it records, each in one transaction with its version; a store recording a version newer than
/// the last step it knows was migrated by a newer PassMint and is refused.
struct StoreMigration: Sendable {
    let version: Int
    /// What the step is for (shown nowhere; read by the next developer).
    let purpose: String
    let sql: String
}
