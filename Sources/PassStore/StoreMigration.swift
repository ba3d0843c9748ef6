/// One step of a store's schema history. Each store applies, in order and once, the steps newer than the
/// version it records, each in one transaction with its version; a store recording a version newer than
/// the last step it knows was migrated by a newer PassMint and is refused.
struct StoreMigration: Sendable {
    let version: Int
    /// What the step is for (shown nowhere; read by the next developer).
    let purpose: String
    let sql: String
}

extension StoreMigration {
    /// The purposes of the steps both stores take under one version (only their SQL differs, by dialect).
    enum Purpose {
        static let links = "distribution links: one current link per pass, its token kept only as a SHA-256 hash"
        static let installFigures =
            "install figures: per pass its template name and device count, per template and device its "
            + "pass count, per template and UTC day the counters (InstallStats.swift); back-filled from the "
            + "passes and registrations already stored"
        static let templateVersions =
            "template versions: each template's files stored once per content digest, the current version "
            + "of each template name, and an index so a publish finds a template's passes without a scan"
        static let bulkProgress =
            "the bulk engine's progress per job (recorded with each chunk) and the admin update jobs' "
            + "status, so any serve instance answers it"
        static let passEvents =
            "what happened to each pass (passmint trace): its versions, written by a trigger on every new tag with "
            + "the record keys it changed, and the events of its devices and pushes, bounded per pass and by age; "
            + "the outbox keeps when a retried push was first due (the age of the oldest unsent push)"
        static let unauthenticatedWrites =
            "bounded writes without credentials: a pass's personalized mark, the signature returned for its "
            + "sign-up (one per pass), indexes for retention by age, and the bytes stored per kind, kept by "
            + "triggers so the caps hold whoever writes"
        static let googleWallet =
            "Google Wallet: the Google object of a pass and what was last delivered to it, the Google outbox "
            + "(filled by triggers on a new pass version or a published template, so every writer queues in its "
            + "own transaction), the notifying messages sent (3 per pass per 24 h), callback nonces, the Google "
            + "install figures, and a content digest on every template file and pass image (content-addressed "
            + "image URLs)"
        static let registrationTags =
            "each registration keeps the pass's tag it was made at: the row is the registration's event in a "
            + "trace (nothing else is written when a device registers); it is stored as an event when deleted"
        static let linkSelectors =
            "distribution links are found by their token's selector (LinkToken), whose values made at one time lie "
            + "together in the index, so a batch's links do not each write a random page of a unique index of "
            + "hashes; the links issued before keep working through a unique index of their hashes alone"
    }
}
