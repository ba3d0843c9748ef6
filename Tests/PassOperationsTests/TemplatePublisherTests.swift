import Foundation
import Synchronization
import Testing
@testable import PassMint
@testable import PassStore
@testable import PassOperations
import PassMintTestSupport

@Suite("TemplatePublisher: chunked, resumable publish on the bulk engine")
struct TemplatePublisherTests {
    /// A store with `count` passes of a copy of Templates/event (name "event"), one registered device each.
    struct Setup {
        let f: StoreFixture
        let template: String
        let first: TemplateIssuance
        var store: TemplatePublisher.Store { f.store as! TemplatePublisher.Store }
        var renderer: TemplateRenderer { TemplateRenderer(identity: DevIdentity.identity, templates: f.templates) }

        init(_ backend: StoreBackend, count: Int, legacy: Int = 0) throws {
            f = try StoreFixture(backend)
            template = f.directory.path("event")
            try FileManager.default.copyItem(atPath: PackagePaths.template("event"), toPath: template)
            first = try TemplateIssuance.prepare(store: f.templates, templatePath: template, name: nil)
            let passes = (0..<(count + legacy)).map { i in
                StoredPass(
                    serialNumber: String(format: "S%03d", i), passTypeIdentifier: DevIdentity.passTypeIdentifier,
                    templatePath: i < count ? first.reference.description : template, record: ["seat": "\(i)"],
                    authenticationToken: "token-\(i)-0123456789abcdef0123456789abcdef",
                    webServiceURL: "https://passes.example.com")
            }
            try f.store.insertPasses(passes)
            for pass in passes {
                _ = try f.store.register(
                    device: "d-\(pass.serialNumber)", passType: pass.passTypeIdentifier, serial: pass.serialNumber,
                    pushToken: "t-\(pass.serialNumber)", tag: 1)
            }
        }

        func editColour() throws {
            let path = template + "/pass.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "rgb(34, 16, 58)", with: "rgb(1, 2, 3)").write(
                toFile: path, atomically: true, encoding: .utf8)
        }

        func tags() throws -> [String: Int64] {
            try Dictionary(
                uniqueKeysWithValues: store.passes(after: nil, limit: 1000, templatePath: nil).map {
                    ($0.serialNumber, $0.tag)
                })
        }
    }

    @Test("a publish stopped after one chunk resumes with the rest; no pass changes twice", arguments: StoreBackend.all)
    func resumes(backend: StoreBackend) throws {
        let s = try Setup(backend, count: 5)
        try s.editColour()
        let plan = try TemplatePublisher.plan(
            name: "event", directory: s.template, store: s.store, renderer: s.renderer)
        #expect(plan.passes == 5 && plan.registrations == 5 && plan.interruptedAfter == nil)
        #expect(plan.diff.keys.map(\.key) == ["backgroundColor"])
        let before = try s.tags()
        let chunks = Mutex(0)
        let stopped = try TemplatePublisher.publish(
            plan, store: s.store, chunkSize: 2, shouldStop: { chunks.withLock { $0 } >= 1 },
            progress: { _ in chunks.withLock { $0 += 1 } })
        #expect(stopped.stopped && stopped.passesChanged == 2 && stopped.pushesQueued == 2)
        let middle = try s.tags()
        #expect(before.filter { middle[$0.key] != $0.value }.count == 2)

        let rest = try TemplatePublisher.plan(
            name: "event", directory: s.template, store: s.store, renderer: s.renderer)
        #expect(rest.isCurrent, "the first run made the version current")
        #expect(rest.interruptedAfter == 2 && rest.passes == 3)
        let finished = try TemplatePublisher.publish(rest, store: s.store, chunkSize: 2)
        #expect(!finished.stopped && finished.passesChanged == 3 && finished.pushesQueued == 3)
        let after = try s.tags()
        // The two passes of the first run kept their tags; every pass changed exactly once.
        #expect(middle.filter { before[$0.key] != $0.value }.allSatisfy { after[$0.key] == $0.value })
        #expect(before.allSatisfy { after[$0.key] != $0.value })
        #expect(try s.f.store.outboxDepth() == 5)
        let all = try s.store.passes(after: nil, limit: 100, templatePath: nil)
        #expect(all.allSatisfy { $0.templatePath == rest.reference.description })
        #expect(try s.f.store.bulkPosition(job: rest.job) == TemplatePublisher.finishedPosition)
        // A pass issued from the old version later is picked up by a new run, not mistaken for a stopped one.
        var late = all[0]
        late.serialNumber = "LATE"
        late.templatePath = s.first.reference.description
        try s.f.store.insertPasses([late])
        let later = try TemplatePublisher.plan(
            name: "event", directory: s.template, store: s.store, renderer: s.renderer)
        #expect(later.interruptedAfter == nil && later.passes == 1)
    }

    @Test("passes an older PassMint stored with the folder path are adopted by name", arguments: StoreBackend.all)
    func adoptsFolderPaths(backend: StoreBackend) throws {
        let s = try Setup(backend, count: 1, legacy: 2)
        try s.editColour()
        let plan = try TemplatePublisher.plan(
            name: "event", directory: s.template, store: s.store, renderer: s.renderer)
        #expect(Set(plan.sources.map(\.template)) == [s.first.reference.description, s.template])
        #expect(plan.passes == 3)
        let outcome = try TemplatePublisher.publish(plan, store: s.store)
        #expect(outcome.passesChanged == 3)
        let passes = try s.store.passes(after: nil, limit: 100, templatePath: plan.reference.description)
        #expect(passes.count == 3)
        // Rendered from the store now: deleting the folder changes nothing.
        try FileManager.default.removeItem(atPath: s.template)
        let archive = try s.renderer.render(passes[2])
        #expect(!archive.isEmpty)
    }
}
